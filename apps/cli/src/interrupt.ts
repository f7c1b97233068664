/**
 * Runs `work` with a signal that Ctrl-C (SIGINT) aborts, so a command stops waiting cleanly
 * instead of dying mid-line. A second Ctrl-C exits at once with 130.
 */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let pressed = false;
  const onSigint = (): void => {
    if (pressed) process.exit(130);
    pressed = true;
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
