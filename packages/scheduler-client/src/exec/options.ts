/** The options and the session of an exec WebSocket. */

/**
 * A terminal size, in characters.
 * @since 0.1.0
 */
export interface TerminalSize {
  /** Columns, 1 to 65535. */
  readonly width: number;
  /** Rows, 1 to 65535. */
  readonly height: number;
}

/**
 * Options of {@link execAllocation} (`client.exec`).
 * @since 0.1.0
 */
export interface ExecOptions {
  /**
   * Runs the command on a pseudo-terminal: output arrives on `stdout` only, with terminal control
   * sequences, and {@link ExecSession.resize} changes its size.
   * @defaultValue false
   */
  readonly tty?: boolean;
  /**
   * Sends the token in the first WebSocket frame (`ws_handshake=true`) instead of a header, for
   * environments where upgrade requests cannot carry headers.
   * @defaultValue false
   */
  readonly wsHandshake?: boolean;
  /**
   * Terminal size sent as soon as the socket opens (with `tty`).
   * @defaultValue none (the server's 80 x 24)
   */
  readonly size?: TerminalSize;
  /**
   * Interval of the heartbeat frames (`{}`) the client sends to keep the connection alive.
   * @defaultValue 10000
   */
  readonly heartbeatMs?: number;
  /**
   * Output buffered in `stdout` or `stderr` (bytes, per stream) before the client stops reading
   * the socket until the consumer catches up.
   * @defaultValue 1048576
   */
  readonly highWaterMark?: number;
  /**
   * Aborts the session: the socket closes, the command is killed by the server and `exitCode`
   * rejects with the signal's reason.
   * @defaultValue never aborted
   */
  readonly signal?: AbortSignal;
}

/**
 * A running command inside an allocation: a duplex of stdin, stdout and stderr, plus resize and
 * the exit code.
 * @since 0.1.0
 */
export interface ExecSession {
  /** Output of the command (everything, with `tty`), as chunks of bytes; ends when the server closes it. */
  readonly stdout: AsyncIterable<Uint8Array>;
  /** Error output of the command, as chunks of bytes; empty with `tty`. */
  readonly stderr: AsyncIterable<Uint8Array>;
  /**
   * The exit code reported by the server.
   * @throws (rejects with) {@link ExecError} when the server refuses the session or the connection
   * ends without an exit code; the signal's reason on abort.
   */
  readonly exitCode: Promise<number>;
  /**
   * Writes to the command's stdin (queued until the socket is open).
   * @param data - Bytes, or text sent as UTF-8.
   */
  write(data: string | Uint8Array): void;
  /** Closes the command's stdin (on a tty the server sends end-of-file). */
  closeStdin(): void;
  /**
   * Resizes the terminal (with `tty`).
   * @param width - Columns, 1 to 65535.
   * @param height - Rows, 1 to 65535.
   * @throws {@link InvalidRequestError} for a size out of range.
   */
  resize(width: number, height: number): void;
  /** Ends the session at once; the server kills the command and `exitCode` rejects. */
  close(): void;
}
