// Executor workers in Deno: Deno's `node:worker_threads`, whose workers can be unref'd (an
// idle one must not keep the process alive; a Web Worker in Deno would), running
// worker/main.js beside this file. Deno resolves the engines' packages in the worker itself.

/** Start an executor worker: `{ post, onMessage, onExit, ref, unref, terminate, sharedStop }`. */
export async function spawnWorker() {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('./worker/main.js', import.meta.url));
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onExit(listener) {
      worker.on('error', (e) => listener(String(e?.message ?? e)));
      worker.on('exit', (code) => listener(`the executor worker exited with code ${code}`));
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    terminate: () => void Promise.resolve(worker.terminate()).catch(() => {}),
    sharedStop: true,
  };
}

/** The worker's side of the channel: `{ post, onMessage }`. */
export async function workerPort() {
  const { parentPort } = await import('node:worker_threads');
  // A rejection the guest never handled ends nothing: the run goes on as the code says.
  globalThis.addEventListener('unhandledrejection', (e) => e.preventDefault());
  // What the worker would print (an engine's abort message, say) is no output of the host's.
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};
  return { post: (message) => parentPort.postMessage(message), onMessage: (listener) => parentPort.on('message', listener) };
}

/** Deno's workers resolve the engines' packages themselves. */
export function engineModules() {
  return undefined;
}
