/**
 * The reference HCL parser (`@cdktf/hcl2json`, Go compiled to WebAssembly) in a worker thread that
 * can be recycled. A Go runtime that failed (a stack overflow, a panic) cannot be unloaded inside
 * the process: its instance stays reachable from the runtime's globals and its memory (over 100 MB
 * after a deep recursion) is never given back. In a worker, a failure terminates the worker, which
 * frees all of it, and the next parse starts a fresh one.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How long one parse may take before its worker is terminated (the input is size-limited by callers). */
export const PARSE_DEADLINE_MS = 10_000;

/** What a parse in the worker gave: the JSON form, or the parser's error message. */
export type ParseOutcome = { ok: true; value: unknown } | { ok: false; message: string; fatal: boolean };

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { parse } = require(workerData.module);
parentPort.on('message', ({ name, text }) => {
  parse(name, text).then(
    (value) => parentPort.postMessage({ ok: true, value }),
    (error) => parentPort.postMessage({ ok: false, message: String(error && error.message || error), fatal: false }),
  );
});
`;

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();
let started = 0;
let recycled = 0;

/** How many parser workers were started and how many were terminated after a failure (for tests and metrics). */
export function parserStats(): { started: number; recycled: number; live: boolean } {
  return { started, recycled, live: worker !== undefined };
}

function spawn(): Worker {
  const module = createRequire(import.meta.url).resolve('@cdktf/hcl2json');
  // the main thread's stack size: legal input is at most MAX_HCL_NESTING deep, far within it
  const created = new Worker(workerSource, {
    eval: true,
    workerData: { module },
    resourceLimits: { stackSizeMb: 1 },
  });
  created.unref();
  started++;
  return created;
}

/** Terminates the current worker (if any): everything it held is freed; the next parse starts another. */
export async function recycleParser(): Promise<void> {
  const old = worker;
  worker = undefined;
  if (old === undefined) return;
  recycled++;
  await old.terminate();
}

function runOnce(name: string, text: string): Promise<ParseOutcome> {
  worker ??= spawn();
  const current = worker;
  return new Promise<ParseOutcome>((resolve) => {
    const done = (outcome: ParseOutcome): void => {
      clearTimeout(timer);
      current.off('message', onMessage).off('error', onError).off('exit', onExit);
      current.unref();
      resolve(outcome);
    };
    const onMessage = (outcome: ParseOutcome): void => done(outcome);
    const onError = (error: Error): void => done({ ok: false, message: error.message, fatal: true });
    const onExit = (code: number): void =>
      done({ ok: false, message: `the parser exited (code ${code})`, fatal: true });
    const timer = setTimeout(
      () => done({ ok: false, message: `no answer within ${PARSE_DEADLINE_MS} ms`, fatal: true }),
      PARSE_DEADLINE_MS,
    );
    current.on('message', onMessage).on('error', onError).on('exit', onExit);
    current.ref();
    current.postMessage({ name, text });
  });
}

/**
 * Parses `text` in the worker, one parse at a time. A failure that is not the text's (a message not
 * starting `parse config:`, a crash, the deadline) terminates the worker before the outcome is given.
 */
export function parseInWorker(name: string, text: string): Promise<ParseOutcome> {
  const result = queue.then(async () => {
    const outcome = await runOnce(name, text);
    if (!outcome.ok && (outcome.fatal || !outcome.message.startsWith('parse config:'))) await recycleParser();
    return outcome;
  });
  queue = result.catch(() => undefined);
  return result;
}
