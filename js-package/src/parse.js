// Source preparation: model code parsed by acorn (vendored beside this file by
// scripts/build.mjs, loaded on the first run), as the body of an async function. What it
// finds crosses to the core as facts, never as a verdict: where the parser stopped, and
// each use of the module system in the syntax tree with its kind and offset. The core's
// `source_check` step decides (a syntax error first, then module access) and places every
// position in the submitted source.

let acorn;

/** The parser's options: a script whose body may `return` and `await` at its top level. */
const OPTIONS = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  // Import declarations parse wherever they stand, so they are found as module access
  // (and what follows them is still checked for syntax errors); exports are refused below.
  allowImportExportEverywhere: true,
  allowHashBang: false,
};

/** The acorn message without the ` (line:column)` it appends. */
const bare = (message) => String(message).replace(/ \(\d+:\d+\)$/, '');

/**
 * What the parser found in `code`: `{ syntaxError?: { message, offset }, uses: [{ kind,
 * offset }] }`, offsets in UTF-16 units of `code`; the step the core answers.
 */
export async function sourceFindings(code) {
  acorn ??= import('./acorn.js').then(({ Parser, tokTypes }) => {
    /**
     * acorn's tokenizer takes a keyword after `?.` (`a?.return / 2`) for the keyword,
     * which may precede a regular expression, and then misreads a division; after `.` it
     * knows better. A property name after `?.` is a name, never an operator's operand.
     */
    return class SourceParser extends Parser {
      updateContext(prevType) {
        if (this.type.keyword && prevType === tokTypes.questionDot) this.exprAllowed = false;
        else super.updateContext(prevType);
      }
    };
  });
  const SourceParser = await acorn;
  const parser = new SourceParser(OPTIONS, code);
  let program;
  try {
    program = parser.parse();
  } catch (e) {
    if (e instanceof SyntaxError && typeof e.pos === 'number') return { syntaxError: { message: bare(e.message), offset: e.pos }, uses: [] };
    // The parser recurses once a level: a source nested deeper than its stack holds.
    if (e instanceof RangeError) return { syntaxError: { message: 'the code is nested too deeply to parse', offset: parser.start ?? 0 }, uses: [] };
    throw e;
  }
  const uses = [];
  let exported;
  const todo = [program];
  while (todo.length > 0) {
    const node = todo.pop();
    switch (node.type) {
      case 'ImportDeclaration':
        uses.push({ kind: 'import_declaration', offset: node.start });
        break;
      case 'ImportExpression':
        uses.push({ kind: 'dynamic_import', offset: node.start });
        break;
      case 'MetaProperty':
        if (node.meta.name === 'import') uses.push({ kind: 'import_meta', offset: node.start });
        break;
      case 'CallExpression':
      case 'NewExpression':
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') uses.push({ kind: 'require_call', offset: node.start });
        break;
      case 'TaggedTemplateExpression':
        if (node.tag.type === 'Identifier' && node.tag.name === 'require') uses.push({ kind: 'require_call', offset: node.start });
        break;
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
      case 'ExportAllDeclaration':
        if (exported === undefined || node.start < exported) exported = node.start;
        break;
      default:
        break;
    }
    for (const key in node) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item !== null && typeof item?.type === 'string') todo.push(item);
      } else if (value !== null && typeof value === 'object' && typeof value.type === 'string') {
        todo.push(value);
      }
    }
  }
  // The body of a function exports nothing: what an engine would call a syntax error.
  if (exported !== undefined) return { syntaxError: { message: "Unexpected token 'export'", offset: exported }, uses };
  return { uses };
}
