// An executor worker: one engine (`quickjs` or `node-vm`), one run at a time, driven by
// the host (workers.js) through messages. Nothing here decides a rule: the worker runs
// the code, forwards tool calls and console lines, and reports how the run ended as the
// guest bridge saw it. The host keeps the deadline, the caller's signal and every record
// (what was dispatched, which rejection is which call's), and terminates the worker when it
// does not answer.
//
// Host → worker: {type:'load', engine, urls?}, {type:'run', run, code, file, namespaces,
// timeoutMs, maxLogUnits, maxArgsUnits, stop?}, {type:'settle', run, call, ok, text},
// {type:'stop', run}.
// Worker → host: {type:'loaded', error?}, {type:'call', run, call, namespace, name, args},
// {type:'log', run, line}, {type:'ended', run, ending}, {type:'idle', run, clean}.

import { workerPort } from '../spawn.js';

/** Lines of the wrapper before the submitted source (the source starts a line). */
const LINES_BEFORE = 1;

/**
 * Tool calls of one run the host holds at once; later ones wait here, in the worker, until
 * one settles. A guest that makes calls in a loop (`for (;;) codemode.t.f()`) would
 * otherwise flood the host's event loop with messages: its deadline timer, and every
 * other run, would wait behind them.
 */
const CALLS_IN_FLIGHT = 64;

let port;
let engine;
let current;

// No top-level await: the same file is bundled as CommonJS for Node's worker_threads.
workerPort().then((channel) => {
  port = channel;
  port.onMessage(receive);
});

function receive(message) {
  switch (message.type) {
    case 'load':
      load(message);
      break;
    case 'run':
      run(message);
      break;
    case 'settle':
      if (current?.id === message.run) {
        current.landed();
        current.session?.settle(message.call, message.ok, message.text);
      }
      break;
    case 'stop':
      if (current?.id === message.run) finish(current, { stopped: true });
      break;
    default:
      break;
  }
}

async function load({ engine: name, urls }) {
  try {
    if (name === 'quickjs') {
      const { loadQuickJs, startQuickJs } = await import('./quickjs.js');
      const module = await loadQuickJs(urls);
      engine = { name, start: (wrapped, file, host) => startQuickJs(module, wrapped, file, host) };
    } else if (name === 'node-vm') {
      const { loadNodeVm, startNodeVm } = await import('./node-vm.js');
      const vm = await loadNodeVm();
      engine = { name, start: (wrapped, file, host) => startNodeVm(vm, wrapped, file, host) };
    } else {
      throw new Error(`unknown engine ${name}`);
    }
    port.post({ type: 'loaded' });
  } catch (e) {
    port.post({ type: 'loaded', error: String(e?.message ?? e) });
  }
}

function run(message) {
  const { run: id, code, file, namespaces, timeoutMs, maxLogUnits, maxArgsUnits, stop } = message;
  const deadline = Date.now() + timeoutMs;
  const flag = stop === undefined ? undefined : new Int32Array(stop);
  let calls = 0;
  let logged = 0;
  let inFlight = 0;
  // A queue read from `head`: a shift would copy a long queue each time.
  let waiting = [];
  let head = 0;
  const send = (call) => {
    inFlight += 1;
    port.post(call);
  };
  const state = {
    id,
    session: undefined,
    ended: false,
    /** A call settled: the first one waiting goes to the host. */
    landed() {
      inFlight -= 1;
      if (head < waiting.length && !state.ended) {
        const next = waiting[head];
        waiting[head++] = undefined;
        if (head === waiting.length) {
          waiting = [];
          head = 0;
        }
        send(next);
      }
    },
  };
  current = state;
  const host = {
    namespaces,
    maxArgsUnits,
    stopped: () => (flag !== undefined && Atomics.load(flag, 0) !== 0) || Date.now() > deadline,
    call(namespace, name, args) {
      calls += 1;
      if (state.ended) return calls;
      const call = { type: 'call', run: id, call: calls, namespace, name, args };
      if (inFlight < CALLS_IN_FLIGHT) send(call);
      else waiting.push(call);
      return calls;
    },
    log(line) {
      if (state.ended) return;
      if (logged > maxLogUnits) {
        if (logged !== Infinity) port.post({ type: 'log', run: id, line: '', cut: true });
        logged = Infinity;
        return;
      }
      logged += line.length + 1;
      port.post({ type: 'log', run: id, line });
    },
    end: (ending) => finish(state, ending),
  };
  state.session = engine.start(`(async () => {\n${code}\n})()`, file, host);
}

/** Report how the run ended (once), then release its engine state. */
function finish(state, ending) {
  if (state.ended) return;
  state.ended = true;
  state.landed = () => {};
  state.session?.stop?.();
  port.post({ type: 'ended', run: state.id, ending, linesBefore: LINES_BEFORE });
  // From a later turn of the event loop (the engine may be inside a call now), which a
  // guest still spinning (a microtask storm, a loop) never lets come: the host then
  // terminates the worker instead of waiting for `idle`.
  nextTurn(() => release(state));
}

/** Run `task` in a later turn of the event loop, as soon as there is one. */
function nextTurn(task) {
  if (typeof setImmediate === 'function') {
    setImmediate(task);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    task();
  };
  channel.port2.postMessage(null);
}

/** Dispose of the run and tell the host whether this worker can run again. */
function release(state) {
  const clean = state.session?.dispose() !== false;
  if (current === state) current = undefined;
  port.post({ type: 'idle', run: state.id, clean });
}
