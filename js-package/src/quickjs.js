// The `quickjs` executor: model code in QuickJS compiled to WebAssembly
// (quickjs-emscripten), with its own heap, a memory limit, a stack limit and an interrupt
// at the deadline. Guest code sees only what the bridge gives it: `codemode` helpers that
// return promises the host settles, `console`, and plain data.

/** Lines of the wrapper before the submitted source. */
const LINES_BEFORE = 1;

/** The QuickJS module, loaded once per process (about 500 KB of WebAssembly). */
let quickjs;

/** The version of the QuickJS packages, as package.json pins them. */
const QUICKJS_VERSION = '0.32.0';

/**
 * Import a QuickJS package with `load`, which names it literally so that bundlers find and
 * bundle it: from node_modules, or in Deno, from npm when it is not there.
 */
async function peer(name, load) {
  try {
    return await load();
  } catch (e) {
    if (globalThis.Deno === undefined) throw e;
    return import(`npm:${name}@${QUICKJS_VERSION}`);
  }
}

async function loadQuickJs() {
  quickjs ??= (async () => {
    const [{ newQuickJSWASMModuleFromVariant }, variant] = await Promise.all([
      peer('quickjs-emscripten-core', () => import('quickjs-emscripten-core')),
      peer('@jitl/quickjs-wasmfile-release-sync', () => import('@jitl/quickjs-wasmfile-release-sync')),
    ]);
    return newQuickJSWASMModuleFromVariant(variant.default ?? variant);
  })();
  return quickjs;
}

/**
 * The `quickjs` executor (see `Executor` in index.d.ts).
 *
 * @param {object} [limits] `memoryBytes` (default 64 MiB), `stackBytes` (default 1 MiB)
 * @returns {Promise<object>}
 */
export async function quickjsExecutor(limits = {}) {
  const module = await loadQuickJs();
  const memoryBytes = limits.memoryBytes ?? 64 * 1024 * 1024;
  const stackBytes = limits.stackBytes ?? 1024 * 1024;
  return {
    engine: 'quickjs',
    compile(code, file) {
      const wrapped = `(async () => {\n${code}\n})()`;
      const runtime = module.newRuntime();
      runtime.setMemoryLimit(memoryBytes);
      runtime.setMaxStackSize(stackBytes);
      const vm = runtime.newContext();
      // What the run holds in the VM, released before the VM itself.
      const held = new Set();
      const dispose = () => {
        for (const handle of held) if (handle.alive) handle.dispose();
        held.clear();
        if (vm.alive) vm.dispose();
        if (runtime.alive) runtime.dispose();
      };
      const checked = vm.evalCode(wrapped, file, { compileOnly: true });
      if (checked.error) {
        const e = vm.dump(checked.error);
        checked.error.dispose();
        dispose();
        return {
          // The position is read from the stack (`at file:LINE:COLUMN`), which has the column.
          syntaxError: { message: String(e?.message ?? e), stack: String(e?.stack ?? '') },
          linesBefore: LINES_BEFORE,
          columnsBefore: 0,
        };
      }
      checked.value.dispose();
      return { linesBefore: LINES_BEFORE, columnsBefore: 0, run: (context) => run(runtime, vm, held, wrapped, file, context), dispose };
    },
  };
}

function run(runtime, vm, held, wrapped, file, { bridge, log, timeoutMs }) {
  let interrupted = false;
  const deadline = Date.now() + timeoutMs;
  runtime.setInterruptHandler(() => {
    interrupted ||= Date.now() > deadline;
    return interrupted;
  });
  // The guest's own functions, taken before its code runs.
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  const stringify = vm.getProp(json, 'stringify');
  json.dispose();
  held.add(parse).add(stringify);
  const fromJson = (text) => {
    const string = vm.newString(text);
    const value = vm.unwrapResult(vm.callFunction(parse, vm.undefined, string));
    string.dispose();
    return value;
  };
  const toJson = (handle) => {
    const result = vm.callFunction(stringify, vm.undefined, handle);
    if (result.error) {
      const e = vm.dump(result.error);
      result.error.dispose();
      return { error: String(e?.message ?? e) };
    }
    const text = vm.typeof(result.value) === 'string' ? vm.getString(result.value) : 'null';
    result.value.dispose();
    return { text };
  };
  // The rejections the bridge delivered, kept to compare the uncaught value with.
  const delivered = [];
  const pump = () => {
    if (runtime.alive) runtime.executePendingJobs();
  };

  const codemode = vm.newObject();
  for (const [namespace, names] of Object.entries(bridge.namespaces)) {
    const tools = vm.newObject();
    for (const name of names) {
      const helper = vm.newFunction(name, (argsHandle) => {
        const args = argsHandle === undefined || vm.typeof(argsHandle) === 'undefined' ? { text: '{}' } : toJson(argsHandle);
        const promise = vm.newPromise();
        held.add(promise);
        const call = args.error !== undefined ? Promise.reject(args.error) : bridge.call(namespace, name, JSON.parse(args.text ?? 'null'));
        call.then(
          (result) => {
            if (!vm.alive) return;
            const value = fromJson(JSON.stringify(result ?? null));
            promise.resolve(value);
            value.dispose();
          },
          (contract) => {
            if (!vm.alive) return;
            const error = vm.newError(String(contract));
            const kept = error.dup();
            held.add(kept);
            delivered.push({ handle: kept, contract: String(contract) });
            promise.reject(error);
            error.dispose();
          },
        ).finally(() => {
          if (vm.alive) {
            held.delete(promise);
            promise.dispose();
            pump();
          }
        });
        return promise.handle;
      });
      vm.setProp(tools, name, helper);
      helper.dispose();
    }
    vm.setProp(codemode, namespace, tools);
    tools.dispose();
  }
  vm.setProp(vm.global, 'codemode', codemode);
  codemode.dispose();

  const consoleObject = vm.newObject();
  const logFunction = vm.newFunction('log', (...handles) => {
    log(handles.map((h) => (vm.typeof(h) === 'string' ? vm.getString(h) : (toJson(h).text ?? String(vm.dump(h))))));
  });
  for (const method of ['log', 'info', 'warn', 'error', 'debug']) vm.setProp(consoleObject, method, logFunction);
  logFunction.dispose();
  vm.setProp(vm.global, 'console', consoleObject);
  consoleObject.dispose();

  const ending = (thrownHandle) => {
    if (interrupted) return { timeout: true };
    const match = delivered.find((d) => vm.sameValue(d.handle, thrownHandle));
    if (match) return { bridgeError: match.contract };
    const e = vm.dump(thrownHandle);
    const text = (v, fallback) => (typeof v === 'string' ? v : fallback);
    return { guestError: { name: text(e?.name, 'Error'), message: text(e?.message, typeof e === 'string' ? e : JSON.stringify(e) ?? 'thrown'), stack: text(e?.stack, '') } };
  };

  const started = vm.evalCode(wrapped, file);
  if (started.error) {
    const end = ending(started.error);
    started.error.dispose();
    return Promise.resolve(end);
  }
  const settled = vm.resolvePromise(started.value);
  started.value.dispose();
  pump();
  return settled.then((result) => {
    if (result.error) {
      const end = ending(result.error);
      result.error.dispose();
      return end;
    }
    const out = toJson(result.value);
    result.value.dispose();
    if (interrupted) return { timeout: true };
    return out.error !== undefined ? { unserializable: `the returned value is not JSON data: ${out.error}` } : { valueJson: out.text };
  });
}
