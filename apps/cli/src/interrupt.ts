/**
 * How long after a SIGINT another one is the same interrupt delivered again, not a second Ctrl-C:
 * `timeout -s INT` signals the command and then its whole process group, so the command gets two
 * at once; a person pressing Ctrl-C twice takes longer.
 */
export const REPEATED_SIGNAL_MS = 250;

/**
 * Runs `work` with a signal that Ctrl-C (SIGINT) aborts, so a command stops waiting cleanly
 * instead of dying mid-line. A second Ctrl-C exits at once with 130 (a SIGINT within
 * {@link REPEATED_SIGNAL_MS} of the first is the same one delivered twice, and is ignored).
 * @param work - The command's work, given the signal.
 * @param now - The clock (tests).
 */
export async function withInterrupt<T>(
  work: (signal: AbortSignal) => Promise<T>,
  now: () => number = () => performance.now(),
): Promise<T> {
  const controller = new AbortController();
  let pressedAt: number | undefined;
  const onSigint = (): void => {
    if (pressedAt !== undefined) {
      if (now() - pressedAt < REPEATED_SIGNAL_MS) return;
      process.exit(130);
    }
    pressedAt = now();
    controller.abort(new DOMException('Interrupted by Ctrl-C.', 'AbortError'));
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Exit code after Ctrl-C, as shells report a process ended by SIGINT. */
export const INTERRUPTED = 130;
