// The `node-vm` engine, inside an executor worker: model code in a fresh `node:vm` context
// per run, string and WebAssembly compilation refused, with the guest bridge (guest.js)
// evaluated in the context first so that every value the guest reaches was made in its
// realm. A context is no security boundary by itself (an engine bug, a host object handed
// in by mistake); the worker is what the host can always stop, and nothing of the host's
// process is in it (its environment is empty).

import { GUEST_BRIDGE } from './guest.js';

export async function loadNodeVm() {
  return import('node:vm');
}

/** Start one run of `wrapped` in a new context (see `startQuickJs` for `host`). */
export function startNodeVm(vm, wrapped, file, host) {
  let ended = false;
  const end = (ending) => {
    if (ended) return;
    ended = true;
    host.end(ending);
  };
  let script;
  try {
    script = new vm.Script(wrapped, { filename: file });
  } catch (e) {
    end({ syntaxError: { message: String(e?.message ?? e), stack: String(e?.stack ?? '') } });
    return { settle() {}, stop() {}, dispose: () => true };
  }
  // Each hook takes and returns primitives and never throws into the guest.
  const hooks = [
    (namespace, name, args) => {
      try {
        return host.call(String(namespace), String(name), String(args));
      } catch {
        return -1;
      }
    },
    (line) => {
      try {
        host.log(String(line));
      } catch {
        // The line is dropped.
      }
    },
    (kind, a, b, c) => {
      try {
        if (kind === 'value') end({ valueJson: String(a) });
        else if (kind === 'none') end({ none: true });
        else if (kind === 'unserializable') end({ unserializable: String(a) });
        else if (kind === 'bridge') end({ bridgeCall: Number(a) });
        else end({ guest: { name: String(a), message: String(b), stack: String(c) } });
      } catch {
        end({ internal: 'the run ended in a way the executor could not read' });
      }
    },
  ];
  let bridge;
  try {
    const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
    const install = new vm.Script(GUEST_BRIDGE, { filename: 'codemode-bridge.js' }).runInContext(context);
    bridge = install(...hooks, host.namespaces, host.maxArgsUnits);
    context.codemode = bridge.codemode;
    context.console = bridge.console;
    bridge.watch(script.runInContext(context, { breakOnSigint: false }));
  } catch (e) {
    // The wrapper's async function throws nothing itself, and the bridge is ours.
    end({ internal: `the node:vm context failed: ${String(e?.message ?? e)}` });
  }
  return {
    settle(id, ok, text) {
      if (!ended) bridge?.settle(id, ok, text);
    },
    stop() {},
    dispose: () => true,
  };
}
