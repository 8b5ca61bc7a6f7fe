// The `quickjs` engine, inside an executor worker: model code in QuickJS compiled to
// WebAssembly (quickjs-emscripten), one runtime and context per run with a memory limit,
// a stack limit the worker's own stack can hold, and an interrupt at the deadline or when
// the host sets the stop flag. Guest code sees only what the guest bridge (guest.js) made
// in its context.

import { GUEST_BRIDGE } from './guest.js';

/** The version of the QuickJS packages, as package.json pins them. */
const QUICKJS_VERSION = '0.32.0';

/**
 * The QuickJS stack limit. QuickJS measures its own C stack, which lives in WebAssembly
 * memory; each of its frames also takes the engine's native stack, about ten times as
 * much, so the limit is one the worker's native stack (8 MiB in Node, see spawn) holds
 * with room to spare: a guest that recurses past it gets `InternalError: stack overflow`
 * and the runtime stays sound.
 */
export const DEFAULT_STACK_BYTES = 256 * 1024;

/** The heap limit of a run. */
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

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

/**
 * Load QuickJS. `urls`, when the worker cannot resolve package names itself (a browser's
 * worker has no import map), are the modules' URLs as the page resolved them, linked for
 * the worker (see link.js).
 */
export async function loadQuickJs(urls) {
  if (urls !== undefined) {
    const [core, variant] = await Promise.all([import(urls.core), import(urls.variant)]);
    return core.newQuickJSWASMModuleFromVariant(variant.default ?? variant);
  }
  const [{ newQuickJSWASMModuleFromVariant }, variant] = await Promise.all([
    peer('quickjs-emscripten-core', () => import('quickjs-emscripten-core')),
    peer('@jitl/quickjs-wasmfile-release-sync', () => import('@jitl/quickjs-wasmfile-release-sync')),
  ]);
  return newQuickJSWASMModuleFromVariant(variant.default ?? variant);
}

/**
 * Start one run of `wrapped` (the source in the executor's wrapper) in a new runtime of
 * `module`. `host` is the worker's side: `call(namespace, name, argsJson) -> id`,
 * `log(line)`, `end(ending)`, `stopped()` (the stop flag or the deadline), `namespaces`
 * (JSON text), `maxArgsUnits`. Returns `{ settle(id, ok, text), dispose() }`; `dispose`
 * returns false when the runtime could not be released cleanly (the module is then
 * suspect and the worker is discarded).
 */
export function startQuickJs(module, wrapped, file, host, limits = {}) {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes ?? DEFAULT_MEMORY_BYTES);
  runtime.setMaxStackSize(limits.stackBytes ?? DEFAULT_STACK_BYTES);
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    interrupted ||= host.stopped();
    return interrupted;
  });
  const vm = runtime.newContext();
  const held = [];
  const keep = (handle) => {
    held.push(handle);
    return handle;
  };
  let sound = true;
  let ended = false;
  const end = (ending) => {
    if (ended) return;
    ended = true;
    // Nothing of the guest's runs after its end: the interrupt stops any job still queued.
    interrupted = true;
    host.end(ending);
  };
  // An exception out of the engine itself (the native stack, a trap) leaves QuickJS in an
  // unknown state: the run ends as the guest's stack overflow, and the worker is discarded.
  const guard = (work) => {
    try {
      return work();
    } catch (e) {
      sound = false;
      const overflow = e instanceof RangeError;
      end(overflow ? { guest: { name: 'InternalError', message: 'stack overflow', stack: '' } } : { internal: `QuickJS failed: ${String(e?.message ?? e)}` });
      return undefined;
    }
  };
  const unwrap = (result) => {
    if (result.error) {
      const error = result.error;
      const failure = interrupted ? { stopped: true } : describeError(vm, error);
      error.dispose();
      return { failure };
    }
    return { value: result.value };
  };
  const pump = () => {
    if (ended) return;
    const done = guard(() => runtime.executePendingJobs(-1));
    if (done?.error) {
      done.error.dispose();
      if (interrupted) end({ stopped: true });
    }
  };

  guard(() => {
    const text = (h) => (vm.typeof(h) === 'string' ? vm.getString(h) : String(vm.dump(h)));
    const call = keep(vm.newFunction('call', (ns, name, args) => vm.newNumber(host.call(text(ns), text(name), text(args)))));
    const log = keep(vm.newFunction('log', (line) => void host.log(text(line))));
    const endHook = keep(
      vm.newFunction('end', (kind, a, b, c) => {
        const k = text(kind);
        // What the interrupt threw is no ending of the guest's: the deadline or the host's stop.
        if (interrupted) end({ stopped: true });
        else if (k === 'value') end({ valueJson: text(a) });
        else if (k === 'none') end({ none: true });
        else if (k === 'unserializable') end({ unserializable: text(a) });
        else if (k === 'bridge') end({ bridgeCall: vm.getNumber(a) });
        else end({ guest: { name: text(a), message: text(b), stack: text(c) } });
      }),
    );
    const installed = unwrap(vm.evalCode(GUEST_BRIDGE, 'codemode-bridge.js'));
    if (installed.failure) return end({ internal: `the guest bridge did not install: ${JSON.stringify(installed.failure)}` });
    const install = keep(installed.value);
    const args = [call, log, endHook, keep(vm.newString(host.namespaces)), keep(vm.newNumber(host.maxArgsUnits))];
    const made = unwrap(vm.callFunction(install, vm.undefined, ...args));
    if (made.failure) return end({ internal: `the guest bridge did not install: ${JSON.stringify(made.failure)}` });
    const bridge = keep(made.value);
    for (const name of ['codemode', 'console']) {
      const value = vm.getProp(bridge, name);
      vm.setProp(vm.global, name, value);
      value.dispose();
    }
    const settle = keep(vm.getProp(bridge, 'settle'));
    const watch = keep(vm.getProp(bridge, 'watch'));
    host.settleHandle = settle;

    const started = unwrap(vm.evalCode(wrapped, file));
    if (started.failure) {
      // The wrapper's async function throws nothing itself: a synchronous error is the
      // compiler's (or the interrupt's).
      const f = started.failure;
      return end(f.guest?.name === 'SyntaxError' ? { syntaxError: { message: f.guest.message, stack: f.guest.stack } } : f);
    }
    const promise = keep(started.value);
    const watched = unwrap(vm.callFunction(watch, vm.undefined, promise));
    if (watched.failure) return end(watched.failure);
    watched.value.dispose();
    return undefined;
  });
  pump();

  return {
    settle(id, ok, textOf) {
      if (ended || !sound || !vm.alive) return;
      guard(() => {
        const args = [vm.newNumber(id), ok ? vm.true : vm.false, vm.newString(textOf)];
        const result = vm.callFunction(host.settleHandle, vm.undefined, ...args);
        args[0].dispose();
        args[2].dispose();
        if (result.error) {
          if (interrupted) end({ stopped: true });
          result.error.dispose();
        } else result.value.dispose();
      });
      pump();
    },
    /** Interrupt whatever runs, at once (the host has ended the run). */
    stop() {
      interrupted = true;
    },
    dispose() {
      if (!sound) return false;
      try {
        for (const handle of held) if (handle.alive) handle.dispose();
        held.length = 0;
        if (vm.alive) vm.dispose();
        if (runtime.alive) runtime.dispose();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** A QuickJS exception as an ending: the guest's error, read without running guest code. */
function describeError(vm, handle) {
  let e;
  try {
    e = vm.dump(handle);
  } catch {
    return { guest: { name: 'InternalError', message: 'out of memory', stack: '' } };
  }
  const text = (v, fallback) => (typeof v === 'string' ? v : fallback);
  return { guest: { name: text(e?.name, 'Error'), message: text(e?.message, typeof e === 'string' ? e : String(JSON.stringify(e) ?? 'thrown')), stack: text(e?.stack, '') } };
}
