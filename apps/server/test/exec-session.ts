/** The client side of an exec session, for the tests that run one over a real WebSocket. */

/** What an exec session gave: its output, exit code and the WebSocket's close. */
export interface ExecResult {
  readonly stdout: string;
  readonly stderr: string;
  /** The `exit_code` of the `exited` frame; undefined when none came. */
  readonly exitCode: number | undefined;
  readonly close: { readonly code: number; readonly reason: string };
}

/**
 * Runs one exec session to the WebSocket's close, collecting the stdout and stderr frames.
 * @param url - The exec URL (`ws://…/v1/client/allocation/:id/exec?…`).
 * @param onOpen - Drives the session once it is open (sends the auth frame, input, resizes…);
 *   `output()` is the stdout so far.
 * @returns The output, exit code and close.
 */
export function runExecSession(
  url: URL,
  onOpen: (socket: WebSocket, output: () => string) => Promise<void> | void = () => undefined,
): Promise<ExecResult> {
  const socket = new WebSocket(url);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let exitCode: number | undefined;
  socket.addEventListener('message', (event) => {
    const frame = JSON.parse(String(event.data)) as {
      stdout?: { data?: string };
      stderr?: { data?: string };
      exited?: boolean;
      result?: { exit_code: number };
    };
    if (frame.stdout?.data !== undefined) out.push(Buffer.from(frame.stdout.data, 'base64'));
    if (frame.stderr?.data !== undefined) err.push(Buffer.from(frame.stderr.data, 'base64'));
    if (frame.exited === true) exitCode = frame.result?.exit_code;
  });
  socket.addEventListener('open', () => {
    void onOpen(socket, () => Buffer.concat(out).toString('utf8'));
  });
  return new Promise((resolve) => {
    socket.addEventListener('close', (event) => {
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        exitCode,
        close: { code: event.code, reason: event.reason },
      });
    });
  });
}
