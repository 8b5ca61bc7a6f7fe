// Executor workers on Node. QuickJS runs in `worker_threads` (its heap is its own, inside
// WebAssembly, with its own limit). `node-vm` runs in a child process: V8 ends the whole
// process, not a thread, when one allocation cannot be met (`new Array(2 ** 28).fill(0)`,
// a string past V8's length limit), so a guest of the host's own V8 is only contained by
// a process of its own. Both have an empty environment and their console silenced, and
// run the bundle `worker.js` beside this file (scripts/build.mjs builds both).

/**
 * The limits of a QuickJS worker thread: a native stack deep enough for QuickJS's own
 * stack limit (worker/quickjs.js), and a small V8 heap (the engine's memory is WebAssembly).
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 };

/** How often a `node-vm` process checks that the host is still there, in milliseconds. */
const WATCHDOG_MS = 200;

/** The V8 flags of a `node-vm` process: its heap (a guest that exhausts it ends its run). */
const PROCESS_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=16'];

/** Start an executor worker for `engine`: `{ post, onMessage, onExit, ref, unref, terminate, sharedStop }`. */
export async function spawnWorker(engine) {
  if (engine === 'node-vm') return spawnProcess();
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(`${__dirname}/worker.js`, { env: {}, argv: [], execArgv: [], resourceLimits: THREAD_LIMITS });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onExit(listener) {
      worker.on('error', (e) => listener(e?.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : String(e?.message ?? e)));
      worker.on('exit', (code) => listener(`the executor worker exited with code ${code}`));
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    terminate: () => void worker.terminate().catch(() => {}),
    sharedStop: true,
  };
}

/** A child process running the executor worker, talking over its IPC channel. */
async function spawnProcess() {
  const { fork } = await import('node:child_process');
  const child = fork(`${__dirname}/worker.js`, [], {
    env: {},
    execArgv: PROCESS_FLAGS,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  // A process that cannot start (no such executable, say) reports it as an error.
  child.on('error', () => {});
  return {
    post: (message) => {
      if (child.connected) child.send(message, () => {});
    },
    onMessage: (listener) => child.on('message', listener),
    onExit(listener) {
      child.on('error', (e) => listener(String(e?.message ?? e)));
      child.on('exit', (code, signal) => {
        // V8's fatal out-of-memory and invalid-size errors abort (SIGABRT, SIGTRAP; 134 and
        // 133 from a shell): the guest's allocation, as a worker's heap limit would be.
        const memory = signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134 || code === 133;
        listener(memory ? 'out_of_memory' : `the executor process exited with ${signal ?? `code ${code}`}`);
      });
    },
    ref() {
      child.ref();
      child.channel?.ref?.();
    },
    unref() {
      child.unref();
      child.channel?.unref?.();
    },
    terminate: () => void child.kill('SIGKILL'),
    sharedStop: false,
  };
}

/** The worker's side of the channel: `{ post, onMessage }` (a thread's port, or a process's IPC). */
export async function workerPort() {
  const { parentPort } = await import('node:worker_threads');
  if (parentPort === null && typeof process.send === 'function') {
    // A child process: it ends when the host goes away. A guest spinning on this thread
    // never lets the `disconnect` event run, so a watchdog thread also looks at the parent
    // process and kills this one when the host is gone (it would spin on as an orphan).
    process.on('disconnect', () => process.exit(0));
    const { Worker } = await import('node:worker_threads');
    const watchdog = new Worker(
      `const host = ${process.ppid}; setInterval(() => { if (process.ppid !== host) process.kill(process.pid, 'SIGKILL'); }, ${WATCHDOG_MS});`,
      { eval: true, env: {}, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 4 } },
    );
    watchdog.unref();
    process.on('unhandledRejection', () => {});
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};
    return { post: (message) => process.connected && process.send(message), onMessage: (listener) => process.on('message', listener) };
  }
  // A rejection the guest never handled ends nothing: the run goes on as the code says.
  process.on('unhandledRejection', () => {});
  // What the worker would print (an engine's abort message, say) is no output of the
  // host's; piping it instead would keep the host's process alive.
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};
  return { post: (message) => parentPort.postMessage(message), onMessage: (listener) => parentPort.on('message', listener) };
}

/** Node's workers resolve the engines' packages themselves. */
export function engineModules() {
  return undefined;
}
