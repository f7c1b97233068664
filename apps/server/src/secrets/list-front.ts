/**
 * The connection side of the `LIST` framer: a duplex stream in front of each socket of the
 * secrets listener. Reads come through the framer (`list-verb.ts`); writes go to the socket.
 *
 * Requests of one connection are applied in order: the bytes of a request reach Node's HTTP parser
 * only after every earlier request of the connection has been answered (its response finished).
 * Node parses pipelined requests at once and runs their handlers concurrently, so without this a
 * `DELETE` sent after a `POST` on one connection could run first. While a request waits, the
 * socket is not read (what is held is at most one chunk).
 *
 * A request line plus headers over the limit is answered `431` as soon as the limit is passed
 * (with or without a newline), with the real service's bytes, and the connection is closed.
 */
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createListRewriter, type FramerOutput } from './list-verb.js';

/** The real service's answer to an over-long head (Go's `net/http`), byte for byte. */
export const HEAD_TOO_LARGE_ANSWER =
  'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large';

/**
 * A duplex stream in front of a socket. It carries the socket's addresses, timeouts and keep-alive
 * settings, so Node's HTTP server treats it as the socket.
 */
export class ListFront extends Duplex {
  readonly #socket: Socket;
  readonly #rewriter;
  /** Framer output not handed on yet (waiting for an answer). */
  readonly #queue: FramerOutput[] = [];
  /** Requests handed on completely, and requests answered. */
  #sent = 0;
  #answered = 0;
  #ended = false;
  #refused = false;
  /** Whether the HTTP parser wants more bytes (no backpressure). */
  #wanted = true;

  /**
   * @param socket - The accepted socket.
   * @param maxHeadBytes - Longest request line plus headers.
   */
  constructor(socket: Socket, maxHeadBytes?: number) {
    super({ allowHalfOpen: true });
    this.#socket = socket;
    this.#rewriter = createListRewriter(maxHeadBytes === undefined ? {} : { maxHeadBytes });
    socket.on('data', (chunk: Buffer) => {
      if (this.#refused) return;
      this.#queue.push(...this.#rewriter.feed(chunk));
      this.#flush();
    });
    socket.on('end', () => {
      this.#ended = true;
      this.#flush();
    });
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => {
      if (!this.destroyed) this.destroy();
    });
    socket.on('drain', () => this.emit('drain'));
  }

  /** One more request of this connection has been answered: the next one may go on. */
  answered(): void {
    this.#answered++;
    this.#flush();
  }

  /** Hands on queued output up to the end of a request that is not answered yet. */
  #flush(): void {
    while (this.#queue.length > 0 && !this.destroyed) {
      if (this.#answered < this.#sent) {
        this.#socket.pause();
        return;
      }
      const item = this.#queue.shift() as FramerOutput;
      if (item.kind === 'end') this.#sent++;
      else if (item.kind === 'too-large') {
        this.#refuse();
        return;
      } else if (!this.push(item.bytes)) {
        this.#wanted = false;
        this.#socket.pause();
      }
    }
    if (this.#queue.length === 0 && this.#wanted && !this.#refused) this.#socket.resume();
    // The client's end goes on once every byte before it has (as without the framer: Node then
    // answers what it has and closes; a handler can see that its client went away).
    if (this.#ended && this.#queue.length === 0) {
      const rest = this.#rewriter.end();
      if (rest.length > 0) this.push(rest);
      this.push(null);
      this.#ended = false;
    }
  }

  #refuse(): void {
    this.#refused = true;
    this.#queue.length = 0;
    this.#socket.pause();
    this.#socket.end(HEAD_TOO_LARGE_ANSWER, () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.#socket.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.#socket.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.#socket.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.#socket.localAddress;
  }
  get localPort(): number | undefined {
    return this.#socket.localPort;
  }
  get bytesWritten(): number {
    return this.#socket.bytesWritten;
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.#socket.setTimeout(ms);
    if (callback !== undefined) this.once('timeout', callback);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.#socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.#socket.setKeepAlive(enable, delay);
    return this;
  }
  destroySoon(): void {
    this.end();
  }

  override _read(): void {
    this.#wanted = true;
    this.#flush();
  }
  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#socket.write(chunk, encoding, callback);
  }
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.#socket.cork();
    for (const { chunk, encoding } of chunks) this.#socket.write(chunk, encoding);
    this.#socket.uncork();
    // written in order: the last write's completion stands for all of them
    this.#socket.write(Buffer.alloc(0), callback);
  }
  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end(() => callback());
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#socket.destroy(error ?? undefined);
    callback(error);
  }
}

/** Counts a response of a {@link ListFront} connection once it is finished (or abandoned). */
function countAnswer(request: IncomingMessage, response: ServerResponse, counted: WeakSet<object>): void {
  const front = request.socket as unknown;
  if (!(front instanceof ListFront) || counted.has(response)) return;
  counted.add(response);
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    front.answered();
  };
  response.once('finish', once);
  response.once('close', once);
}

/**
 * Puts a {@link ListFront} in front of every connection an HTTP server accepts, by wrapping the
 * socket before Node's own connection handler sees it, and counts each answer so that requests of
 * one connection are applied in order. A request with an `Expect` other than `100-continue` is
 * answered 417 as Node does, and counted.
 * @param server - An HTTP server (before it listens).
 * @param maxHeadBytes - Longest request line plus headers. @defaultValue 65536
 */
export function acceptListVerb(server: Server, maxHeadBytes?: number): void {
  const handlers = server.listeners('connection') as ((socket: Duplex) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const front = new ListFront(socket, maxHeadBytes);
    for (const handler of handlers) handler.call(server, front);
  });
  const counted = new WeakSet<object>();
  server.prependListener('request', (request, response) => countAnswer(request, response, counted));
  // Only beside a listener already there: adding one would stop Node's own `100 Continue`.
  if (server.listenerCount('checkContinue') > 0) {
    server.prependListener('checkContinue', (request, response) => countAnswer(request, response, counted));
  }
  if (server.listenerCount('checkExpectation') === 0) {
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      countAnswer(request, response, counted);
      response.writeHead(417);
      response.end();
    });
  } else {
    server.prependListener('checkExpectation', (request, response) =>
      countAnswer(request, response, counted),
    );
  }
}
