// The built-in executors run off the host's thread: each run takes an executor worker
// (worker/main.js), started on first use and pooled, so that the host's event loop never
// runs guest code and the host can always end a run, whatever the code does, by
// terminating its worker. A worker is reused only when it answered that it is clean (its
// engine released, its event loop free); any other is terminated.

import { engineModules, spawnWorker } from './spawn.js';

/** Idle workers kept per engine. */
const MAX_IDLE = 4;

/** How long an idle worker is kept before it is closed. */
const IDLE_MS = 30_000;

/** How long a worker may take to answer that it stopped or is clean. */
const STOP_GRACE_MS = 250;
const IDLE_GRACE_MS = 2_000;

/** The longest call arguments the guest bridge sends, in UTF-16 units of JSON. */
export const MAX_ARGS_UNITS = 1024 * 1024;

/**
 * How long a run waits for a worker that just ended a run to come back clean (it answers
 * from its next event-loop turn, usually within a millisecond) before it starts another.
 */
const RETURN_WAIT_MS = 25;

const idle = new Map();
/** Workers that ended a run and have not answered yet, by engine: each a promise of the outcome. */
const returning = new Map();
let nextRun = 1;

/** Whether a timer handle can be told not to keep the process alive. */
const unrefTimer = (timer) => {
  if (typeof timer?.unref === 'function') timer.unref();
  else if (typeof globalThis.Deno?.unrefTimer === 'function') globalThis.Deno.unrefTimer(timer);
  return timer;
};

/** One executor worker of `engine`, listening to the run it holds. */
class ExecutorWorker {
  constructor(channel, engine) {
    this.channel = channel;
    this.engine = engine;
    this.listener = undefined;
    this.dead = false;
    this.idleTimer = undefined;
    channel.onMessage((message) => this.listener?.(message));
    channel.onExit((why) => {
      this.dead = true;
      this.exitReason ??= why;
      this.listener?.({ type: 'exit', why });
    });
  }

  terminate() {
    this.dead = true;
    clearTimeout(this.idleTimer);
    this.channel.terminate();
  }
}

/** Start a worker and load `engine` in it; rejects with why it could not. */
async function startWorker(engine, urls) {
  const worker = new ExecutorWorker(await spawnWorker(engine), engine);
  const loaded = new Promise((resolve, reject) => {
    worker.listener = (message) => {
      if (message.type === 'loaded' && message.error === undefined) resolve();
      else if (message.type === 'loaded') reject(new Error(message.error));
      else if (message.type === 'exit') reject(new Error(message.why));
    };
  });
  try {
    worker.channel.post({ type: 'load', engine, urls: await urls });
    await loaded;
  } catch (e) {
    worker.terminate();
    throw e;
  }
  worker.listener = undefined;
  return worker;
}

/** An idle worker of `engine`, or a new one. */
async function acquire(engine) {
  const take = () => {
    const pool = idle.get(engine);
    while (pool?.length) {
      const worker = pool.pop();
      clearTimeout(worker.idleTimer);
      if (!worker.dead) return worker;
    }
    return undefined;
  };
  const found = take();
  if (found !== undefined) return found;
  const back = returning.get(engine);
  if (back !== undefined && back.size > 0) {
    let timer;
    // A timer that keeps the process alive: the returning worker no longer does.
    const wait = new Promise((resolve) => {
      timer = setTimeout(resolve, RETURN_WAIT_MS);
    });
    await Promise.race([wait, ...back]);
    clearTimeout(timer);
    const returned = take();
    if (returned !== undefined) return returned;
  }
  return startWorker(engine, engineModules(engine));
}

/** Return a clean worker to the pool (kept from holding the process open). */
function release(worker) {
  worker.listener = undefined;
  if (worker.dead) return;
  let pool = idle.get(worker.engine);
  if (pool === undefined) idle.set(worker.engine, (pool = []));
  if (pool.length >= MAX_IDLE) {
    worker.terminate();
    return;
  }
  worker.channel.unref();
  worker.idleTimer = unrefTimer(
    setTimeout(() => {
      const at = pool.indexOf(worker);
      if (at !== -1) pool.splice(at, 1);
      worker.terminate();
    }, IDLE_MS),
  );
  pool.push(worker);
}

/**
 * Wait for the worker to say it is clean after a run, then pool it; terminate it when it
 * does not answer in time (a guest still spinning) or is not clean. `stopping`: the host
 * ended the run first and asks the worker to stop.
 */
function retire(worker, run, stopping) {
  if (worker.dead) return;
  worker.channel.unref();
  let back = returning.get(worker.engine);
  if (back === undefined) returning.set(worker.engine, (back = new Set()));
  let settle;
  const outcome = new Promise((resolve) => {
    settle = resolve;
  });
  back.add(outcome);
  const done = (clean) => {
    clearTimeout(timer);
    back.delete(outcome);
    if (clean) release(worker);
    else worker.terminate();
    settle();
  };
  const timer = unrefTimer(setTimeout(() => done(false), stopping ? STOP_GRACE_MS : IDLE_GRACE_MS));
  worker.listener = (message) => {
    if (message.type === 'idle' && message.run === run) done(message.clean === true);
    else if (message.type === 'exit') done(false);
  };
  if (stopping) {
    if (worker.stopFlag !== undefined) Atomics.store(worker.stopFlag, 0, 1);
    worker.channel.post({ type: 'stop', run });
  }
}

/**
 * The built-in executor `engine` (`quickjs`, `node-vm`) as `execute` drives it: `start`
 * acquires a worker (rejecting with why none could run the code) and runs `code` there.
 */
export function workerExecutor(engine) {
  return {
    engine: engine === 'quickjs' ? 'quickjs' : 'v8',
    linesBefore: 1,
    columnsBefore: 0,
    acquire: () => acquire(engine),
    /** Pool a worker acquired for a run that ended before it started. */
    giveBack: (worker) => release(worker),
    /**
     * Run `code` on `worker`. `bridge`: `call(namespace, name, argsJson, id)`,
     * `log(line, cut)`. Resolves with the worker's ending, `{ exit: why }` when it died;
     * `stop()` ends the run from the host's side (the deadline, the caller's signal) and
     * resolves it with `{ stopped: true }`.
     */
    run(worker, { code, file, namespaces, timeoutMs, maxLogUnits }, bridge) {
      const run = nextRun++;
      worker.channel.ref();
      let settleEnding;
      let over = false;
      const ending = new Promise((resolve) => {
        settleEnding = resolve;
      });
      const close = (result, stopping) => {
        if (over) return;
        over = true;
        settleEnding(result);
        retire(worker, run, stopping);
      };
      worker.listener = (message) => {
        if (message.type === 'exit') return close({ exit: message.why }, false);
        if (message.run !== run || over) return undefined;
        switch (message.type) {
          case 'call':
            return bridge.call(message.namespace, message.name, message.args, message.call);
          case 'log':
            return bridge.log(message.line, message.cut === true);
          case 'ended':
            return close(message.ending, false);
          default:
            return undefined;
        }
      };
      worker.stopFlag = worker.channel.sharedStop ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
      worker.channel.post({
        type: 'run',
        run,
        code,
        file,
        namespaces,
        timeoutMs,
        maxLogUnits,
        maxArgsUnits: MAX_ARGS_UNITS,
        stop: worker.stopFlag?.buffer,
      });
      return {
        ending,
        settle: (call, ok, text) => {
          if (!over && !worker.dead) worker.channel.post({ type: 'settle', run, call, ok, text });
        },
        stop: () => close({ stopped: true }, true),
      };
    },
  };
}
