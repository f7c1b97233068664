/**
 * Calls `onClosed` once nobody reads stdout any more (`sked event stream | head -n 3` after
 * `head` exits), and returns a function that stops watching.
 *
 * As the service's own CLI does, a closed pipe is seen at the next write: the write fails with
 * EPIPE (node ignores SIGPIPE), and that ends the command. A quiet stream whose reader is gone
 * therefore ends when its next event comes, not before; nothing polls stdout in between.
 */
export function watchStdoutClosed(onClosed: () => void): () => void {
  let done = false;
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE' || done) return;
    done = true;
    onClosed();
  };
  process.stdout.on('error', onError);
  return () => {
    done = true;
    process.stdout.off('error', onError);
  };
}
