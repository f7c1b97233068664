import { afterEach, describe, expect, it, vi } from 'vitest';

import { REPEATED_SIGNAL_MS, withInterrupt } from './interrupt.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs withInterrupt around a wait that ends when aborted; `press` sends SIGINTs at given clock times. */
async function run(times: number[]): Promise<{ aborted: boolean; exited: number | undefined }> {
  let clock = 0;
  let exited: number | undefined;
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    exited = code;
    return undefined as never;
  }) as typeof process.exit);
  let aborted = false;
  await withInterrupt(
    (signal) => {
      for (const t of times) {
        clock = t;
        process.emit('SIGINT', 'SIGINT');
      }
      aborted = signal.aborted;
      return Promise.resolve();
    },
    () => clock,
  );
  return { aborted, exited };
}

describe('withInterrupt', () => {
  it('aborts the work on the first Ctrl-C without exiting', async () => {
    expect(await run([1000])).toEqual({ aborted: true, exited: undefined });
  });

  it('ignores the same SIGINT delivered twice at once (timeout -s INT signals the process and its group)', async () => {
    expect(await run([1000, 1000 + REPEATED_SIGNAL_MS - 1])).toEqual({ aborted: true, exited: undefined });
  });

  it('exits 130 on a second Ctrl-C pressed later', async () => {
    expect(await run([1000, 1000 + REPEATED_SIGNAL_MS])).toEqual({ aborted: true, exited: 130 });
  });
});
