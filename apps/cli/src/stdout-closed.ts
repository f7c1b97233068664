import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';

/**
 * Waits on a select(2) of its stdout, our stdout's pipe, for reading. The write end of a pipe is
 * never readable: it only turns ready when the pipe's last reader is gone (the kernel flags an
 * error). Exits 0 then, 3 when its parent (sked) is gone, so it never outlives sked for long.
 */
const WATCH =
  'my $p = getppid(); my $r = ""; vec($r, 1, 1) = 1; ' +
  'for (;;) { exit 0 if select(my $x = $r, undef, undef, 1) > 0; exit 3 if getppid() != $p; }';

/**
 * Calls `onClosed` once nobody reads stdout any more (`sked event stream | head -n 3` after
 * `head` exits), and returns a function that stops watching.
 *
 * Node sees a closed pipe only on its next write (EPIPE), which for a quiet event stream may be
 * minutes away, and it cannot poll a write-only descriptor (libuv refuses to read one). So when
 * stdout is a pipe, a small `perl` (Essential on Debian, present on macOS) watches it with
 * select(2) and exits as soon as the reader goes. Without perl, and for files and terminals, the
 * EPIPE of the next write still ends it.
 */
export function watchStdoutClosed(onClosed: () => void): () => void {
  let done = false;
  const closed = (): void => {
    if (done) return;
    done = true;
    onClosed();
  };
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') closed();
  };
  process.stdout.on('error', onError);
  let isPipe = false;
  try {
    const stat = fstatSync(1);
    // A socket (a parent process's pipe) turns readable when its other end closes, too.
    isPipe = stat.isFIFO() || stat.isSocket();
  } catch {
    // no stdout at all
  }
  const watcher = isPipe
    ? spawn('perl', ['-e', WATCH], { stdio: ['ignore', 'inherit', 'ignore'] })
        .on('error', () => undefined) // no perl: EPIPE it is
        .on('exit', (code) => {
          if (code === 0) closed();
        })
    : undefined;
  watcher?.unref();
  const stop = (): void => {
    done = true;
    process.stdout.off('error', onError);
    if (watcher?.exitCode === null) watcher.kill();
  };
  process.once('exit', stop);
  return () => {
    process.off('exit', stop);
    stop();
  };
}
