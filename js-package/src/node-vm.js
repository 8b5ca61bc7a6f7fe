// The `node-vm` executor: model code in a fresh `node:vm` context. Not a security
// boundary (code in a context can reach the host through the objects it is given); it
// keeps the run's globals apart and gives guest code guest-realm values only. Use the
// `quickjs` executor, or a process or isolate boundary, for code you do not trust.

/** Lines of the wrapper before the submitted source (the source starts a line). */
const LINES_BEFORE = 1;

/**
 * The guest half of the bridge, evaluated in the context before the model's code: it
 * keeps the context's own `Error`, `JSON` and `Object` functions, so later changes to the
 * globals do not reach it, and builds the `codemode` helpers and `console` there.
 */
const GUEST_BRIDGE = `((E, parse, stringify, freeze, defineProperty) => (host) => {
  const makeError = (message) => {
    const error = new E(message);
    defineProperty(error, 'stack', { value: 'Error: ' + message, writable: true, configurable: true });
    return error;
  };
  const codemode = {};
  for (const namespace of host.namespaces()) {
    const tools = {};
    for (const name of host.tools(namespace)) {
      defineProperty(tools, name, {
        enumerable: true,
        value: (args) => host.call(namespace, name, args === undefined ? '{}' : stringify(args)).then(
          (json) => parse(json),
          (contract) => { throw host.delivered(makeError(contract), contract); },
        ),
      });
    }
    defineProperty(codemode, namespace, { enumerable: true, value: freeze(tools) });
  }
  const log = (...args) => host.log(args);
  return { codemode: freeze(codemode), console: freeze({ log, info: log, warn: log, error: log, debug: log }), stringify };
})(Error, JSON.parse, JSON.stringify, Object.freeze, Object.defineProperty)`;

/** Read a property of a guest value without letting a hostile getter throw. */
function property(value, key) {
  try {
    return value !== null && (typeof value === 'object' || typeof value === 'function') ? value[key] : undefined;
  } catch {
    return undefined;
  }
}

/** A thrown value as text, whatever it is (a symbol, an object whose `toString` throws). */
function printable(value) {
  try {
    return String(value);
  } catch {
    return '[unprintable value]';
  }
}

/**
 * The `node-vm` executor (see `Executor` in index.d.ts).
 *
 * @returns {Promise<object>}
 */
export async function nodeVmExecutor() {
  const vm = await import('node:vm');
  return {
    engine: 'v8',
    compile(code, file) {
      const wrapped = `(async () => {\n${code}\n})()`;
      let script;
      try {
        script = new vm.Script(wrapped, { filename: file });
      } catch (e) {
        if (e?.name !== 'SyntaxError') throw e;
        return { syntaxError: { message: String(e.message), stack: String(e.stack ?? '') }, linesBefore: LINES_BEFORE, columnsBefore: 0 };
      }
      return { linesBefore: LINES_BEFORE, columnsBefore: 0, run: (context) => run(vm, script, context) };
    },
  };
}

async function run(vm, script, { bridge, log, timeoutMs }) {
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
  const install = new vm.Script(GUEST_BRIDGE, { filename: 'codemode-bridge.js' }).runInContext(context);
  // The rejections the bridge delivered, by identity: only these are bridge failures.
  const delivered = new WeakMap();
  const host = {
    namespaces: () => Object.keys(bridge.namespaces),
    tools: (namespace) => bridge.namespaces[namespace],
    // Arguments and results cross as JSON text: plain data in each realm.
    call: (namespace, name, argsJson) => bridge.call(namespace, name, JSON.parse(argsJson)).then((result) => JSON.stringify(result ?? null)),
    delivered: (error, contract) => {
      delivered.set(error, contract);
      return error;
    },
    log,
  };
  const globals = install(host);
  context.codemode = globals.codemode;
  context.console = globals.console;
  let value;
  try {
    // The synchronous part of the code is bounded by `timeout`; awaits by the caller's deadline.
    value = await script.runInContext(context, { timeout: timeoutMs, breakOnSigint: false });
  } catch (thrown) {
    if (thrown?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { timeout: true };
    const contract = thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function') ? delivered.get(thrown) : undefined;
    if (contract !== undefined) return { bridgeError: contract };
    const name = property(thrown, 'name');
    const message = typeof thrown === 'string' ? thrown : property(thrown, 'message');
    const stack = property(thrown, 'stack');
    return {
      guestError: {
        name: typeof name === 'string' ? name : 'Error',
        message: typeof message === 'string' ? message : printable(thrown),
        stack: typeof stack === 'string' ? stack : '',
      },
    };
  }
  try {
    return { valueJson: globals.stringify(value === undefined ? null : value) ?? 'null' };
  } catch (e) {
    return { unserializable: `the returned value is not JSON data: ${String(property(e, 'message') ?? e)}` };
  }
}
