// index.d.ts against the sources of truth: the contract types field by field against the
// JSON Schema; the Policy caps, the report's failure tags and transport kinds, and the run
// types (what classifyRun reads and gives) against the core itself. Read with the
// TypeScript compiler's parser, not by hand.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { Normalizer, classifyRun, normalize } from 'codemode-errors';
import ts from 'typescript';

const dts = ts.createSourceFile('index.d.ts', readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
const schema = JSON.parse(readFileSync(new URL('../../schema/code-mode-call-error.v1.schema.json', import.meta.url), 'utf8'));

const interfaces = new Map();
const aliases = new Map();
for (const statement of dts.statements) {
  if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
}

/** The interface each schema definition is declared as. */
const DEFINITIONS = {
  recovery: 'Recovery',
  safety: 'Safety',
  evidence: 'Evidence',
  invalid_argument: 'InvalidArgument',
  content_descriptor: 'ContentDescriptor',
};

const union = (parts) => [...new Set(parts)].sort().join(' | ');

/** A TypeScript type in a canonical text: aliases resolved, unions sorted, integer = number. */
function tsType(node) {
  if (ts.isParenthesizedTypeNode(node)) return tsType(node.type);
  if (ts.isUnionTypeNode(node)) return union(node.types.flatMap((t) => tsType(t).split(' | ')));
  if (ts.isLiteralTypeNode(node)) {
    if (ts.isStringLiteral(node.literal)) return JSON.stringify(node.literal.text);
    return node.literal.getText(dts);
  }
  if (ts.isArrayTypeNode(node)) return `${tsType(node.elementType)}[]`;
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText(dts);
    if (name === 'Record') return `Record<${node.typeArguments.map(tsType).join(', ')}>`;
    if (aliases.has(name)) return tsType(aliases.get(name));
    return name;
  }
  return node.getText(dts);
}

/** A schema in the same canonical text. */
function schemaType(s) {
  if (s.$ref) return DEFINITIONS[s.$ref.replace('#/$defs/', '')] ?? `unmapped ${s.$ref}`;
  if ('const' in s) return JSON.stringify(s.const);
  if (s.enum) return union(s.enum.map((v) => JSON.stringify(v)));
  if (s.type === 'array') return `${schemaType(s.items)}[]`;
  if (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') return `Record<string, ${schemaType(s.additionalProperties)}>`;
  if (s.type === 'integer' || s.type === 'number') return 'number';
  if (s.type) return s.type;
  if (Object.keys(s).filter((k) => k !== 'description').length === 0) return 'unknown';
  return `unmapped ${JSON.stringify(s)}`;
}

/** An interface's members: name to [optional, canonical type]. */
function members(name) {
  const declaration = interfaces.get(name);
  assert.ok(declaration, `index.d.ts declares no interface ${name}`);
  return Object.fromEntries(
    declaration.members.filter(ts.isPropertySignature).map((m) => [m.name.getText(dts), [Boolean(m.questionToken), tsType(m.type)]]),
  );
}

/** What the schema says the same members are. */
function schemaMembers(s) {
  const required = new Set(s.required ?? []);
  return Object.fromEntries(Object.entries(s.properties).map(([key, sub]) => [key, [!required.has(key), schemaType(sub)]]));
}

describe('index.d.ts follows the JSON Schema', () => {
  test('CodeModeCallError, field by field', () => {
    assert.deepEqual(members('CodeModeCallError'), schemaMembers(schema));
  });

  for (const [definition, name] of Object.entries(DEFINITIONS)) {
    test(`${name} follows $defs.${definition}`, () => {
      assert.deepEqual(members(name), schemaMembers(schema.$defs[definition]));
    });
  }

  test('every schema definition has an interface', () => {
    assert.deepEqual(Object.keys(schema.$defs).sort(), Object.keys(DEFINITIONS).sort());
  });

  test('the comparison notices drift', () => {
    const drifted = structuredClone(schema);
    drifted.properties.origin.enum.push('orbit');
    drifted.required.push('tool');
    assert.notDeepEqual(members('CodeModeCallError'), schemaMembers(drifted));
  });
});

describe('index.d.ts follows the core', () => {
  test('Policy lists every cap and redaction list the core has', () => {
    const policy = new Normalizer().policy;
    assert.deepEqual(Object.keys(members('Policy')).sort(), Object.keys(policy).sort());
    for (const [key, [optional, type]] of Object.entries(members('Policy'))) {
      const want = Array.isArray(policy[key]) ? (key === 'token_formats' ? 'TokenFormat[]' : 'string[]') : 'number';
      assert.deepEqual([optional, type], [true, want], key);
    }
  });

  test('TokenFormat and TokenAlphabet are what the core reads', () => {
    const format = { family: 'acme_token', prefix: 'acme_', alphabet: 'alnum', min_body_length: 24 };
    assert.deepEqual(Object.keys(members('TokenFormat')).sort(), Object.keys(format).sort());
    assert.deepEqual(new Normalizer({ token_formats: [format] }).policy.token_formats, [format]);
    const alphabets = tsType(aliases.get('TokenAlphabet')).split(' | ').map((a) => JSON.parse(a));
    for (const alphabet of alphabets) new Normalizer({ token_formats: [{ ...format, alphabet }] });
    assert.throws(() => new Normalizer({ token_formats: [{ ...format, alphabet: 'base62' }] }), (e) => {
      const message = e.message.slice(e.message.indexOf('expected one of ') + 'expected one of '.length);
      assert.deepEqual(message.split(', ').sort(), [...alphabets].sort());
      return e.code === 'invalid_policy' && e.path === 'token_formats[0].alphabet';
    });
  });

  test("FailureReport's failure tags are the core's", () => {
    const report = aliases.get('FailureReport');
    const variants = report.types.find(ts.isParenthesizedTypeNode).type.types;
    const tags = variants.map((v) => v.members[0].name.getText(dts));
    let message;
    try {
      normalize({ tool: 'a::b' });
    } catch (e) {
      message = e.message;
    }
    const listed = message.match(/one of (.*)$/)[1].split(', ');
    assert.deepEqual(tags, listed);
  });

  test("TransportKind is the core's list", () => {
    let message;
    try {
      normalize({ transport: { kind: 'gremlins' } });
    } catch (e) {
      message = e.message;
    }
    const listed = message.match(/expected one of (.*)$/)[1].split(', ');
    assert.equal(tsType(aliases.get('TransportKind')), union(listed.map((k) => JSON.stringify(k))));
  });

  test("CodemodeInputError's codes are the core's ErrorCode::ALL", () => {
    const codes = createRequire(import.meta.url)('../dist/cjs/binding.js').errorCodes();
    assert.equal(members('CodemodeInputError').code[1], union(codes.map((c) => JSON.stringify(c))));
  });

  test("Breaker is every verdict the core gives", () => {
    const seen = new Set([
      normalize({ tool_result: { content: [] } }).breaker,
      normalize({ transport: { kind: 'timeout' } }).breaker,
      normalize({ policy: { kind: 'forbidden', message: 'no' } }).breaker,
    ]);
    assert.equal(tsType(aliases.get('Breaker')), union([...seen].map((b) => JSON.stringify(b))));
  });
});

describe('the run types follow the core', () => {
  /** One valid failure member for each failure tag of `RunReport`. */
  const SAMPLES = {
    invalid_request: { message: 'unknown runId r-42' },
    syntax_error: { message: 'Unexpected token', line: 3, column: 7 },
    runtime_unavailable: { message: 'worker exited' },
    aborted: {},
    timeout: { deadline_ms: 30000 },
    output_unserializable: { message: 'cyclic value' },
    snapshot_too_large: { message: '12 MiB > 8 MiB' },
    uncaught_tool_error: { kind: 'missing_param', message: 'title is required' },
    guest_exception: { name: 'TypeError', message: 'x is undefined' },
    internal: { message: 'bridge closed' },
  };
  const ends = () => Object.entries(SAMPLES).map(([tag, failure]) => classifyRun({ bridge_dispatch_started: false, [tag]: failure }));

  test("RunReport's failure members are each read by the core", () => {
    const report = aliases.get('RunReport');
    const variants = report.types.find(ts.isParenthesizedTypeNode).type.types;
    assert.deepEqual(
      variants.map((v) => v.members[0].name.getText(dts)),
      Object.keys(SAMPLES),
    );
    // classifyRun throws for a member the core does not know.
    assert.equal(ends().length, variants.length);
  });

  test('RunErrorCode and FailurePhase are every value the core gives', () => {
    const all = [...ends(), classifyRun({ bridge_dispatch_started: true, uncaught_tool_error: { kind: 'rate_limited', message: 'slow down' } })];
    assert.equal(tsType(aliases.get('RunErrorCode')), union(all.map((e) => JSON.stringify(e.code))));
    assert.equal(tsType(aliases.get('FailurePhase')), union(all.filter((e) => e.failurePhase).map((e) => JSON.stringify(e.failurePhase))));
  });

  test('RunError declares every member the core emits, optional exactly when sometimes absent', () => {
    const all = ends();
    const seen = new Set(all.flatMap(Object.keys));
    const always = [...seen].filter((key) => all.every((e) => key in e));
    const declared = members('RunError');
    assert.deepEqual(Object.keys(declared).sort(), [...seen].sort());
    for (const [key, [optional]] of Object.entries(declared)) assert.equal(optional, !always.includes(key), key);
  });
});
