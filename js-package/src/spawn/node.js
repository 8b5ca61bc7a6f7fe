// Executor workers on Node: `worker_threads`, with their own heap and stack limits, an
// empty environment, and their console silenced. The worker is the bundle
// `worker.js` beside this file (scripts/build.mjs builds both).

/**
 * The limits of an executor worker: the node-vm guest's heap (a guest that exhausts it
 * ends its run, never the host), and a native stack deep enough for QuickJS's own stack
 * limit (worker/quickjs.js).
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 };

/** Start an executor worker: `{ post, onMessage, onExit, ref, unref, terminate, sharedStop }`. */
export async function spawnWorker() {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(`${__dirname}/worker.js`, { env: {}, argv: [], execArgv: [], resourceLimits: RESOURCE_LIMITS });
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

/** The worker's side of the channel: `{ post, onMessage }`. */
export async function workerPort() {
  const { parentPort } = await import('node:worker_threads');
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
