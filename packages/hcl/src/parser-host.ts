/**
 * The reference HCL parser (`@cdktf/hcl2json`, Go compiled to WebAssembly) in a worker thread that
 * can be recycled. A Go runtime that failed (a stack overflow, a panic) cannot be unloaded inside
 * the process: its instance stays reachable from the runtime's globals and its memory (over 100 MB
 * after a deep recursion) is never given back. In a worker, a failure terminates the worker, which
 * frees all of it, and the next parse starts a fresh one.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How long one call may take, waiting for earlier texts included: a parse still running then has its
 * worker terminated; a text still waiting its turn is not parsed at all (the input is size-limited by
 * callers).
 */
export const PARSE_DEADLINE_MS = 10_000;

/** What a parse in the worker gave: the JSON form, or the parser's error message. */
export type ParseOutcome =
  | { ok: true; value: unknown }
  /** `fatal`: the worker failed (it is terminated); `busy`: the text was never parsed (its deadline passed in the queue). */
  | { ok: false; message: string; fatal: boolean; busy?: true };

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
let queue: Promise<void> = Promise.resolve();
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

function runOnce(name: string, text: string, deadline: number): Promise<ParseOutcome> {
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
      Math.max(0, deadline - Date.now()),
    );
    current.on('message', onMessage).on('error', onError).on('exit', onExit);
    current.ref();
    current.postMessage({ name, text });
  });
}

/**
 * Parses `text` in the worker, one parse at a time, within {@link PARSE_DEADLINE_MS} of the call
 * (`deadlineMs` in tests). A failure that is not the text's (a message not starting `parse config:`,
 * a crash, the deadline while parsing) terminates the worker before the outcome is given; a text
 * whose deadline passes while earlier ones are parsed is answered `busy` then, and skipped.
 */
export function parseInWorker(
  name: string,
  text: string,
  deadlineMs = PARSE_DEADLINE_MS,
): Promise<ParseOutcome> {
  const deadline = Date.now() + deadlineMs;
  return new Promise<ParseOutcome>((resolve) => {
    let state: 'queued' | 'running' | 'skipped' = 'queued';
    // Ends a wait in the queue only: a running parse has its own timer at the same deadline.
    const timer = setTimeout(() => {
      if (state !== 'queued') return;
      state = 'skipped';
      resolve({
        ok: false,
        message: `no answer within ${deadlineMs} ms: the parser was busy with earlier texts`,
        fatal: false,
        busy: true,
      });
    }, deadlineMs);
    queue = queue.then(async () => {
      if (state === 'skipped') return;
      state = 'running';
      clearTimeout(timer);
      const outcome = await runOnce(name, text, deadline);
      if (!outcome.ok && (outcome.fatal || !outcome.message.startsWith('parse config:')))
        await recycleParser();
      resolve(outcome);
    });
    queue = queue.catch(() => undefined);
  });
}
