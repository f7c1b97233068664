/**
 * The `LIST` verb at the connection level. Node's HTTP parser answers 400 to a method it does not
 * know before any handler runs, so every connection of the secrets listener goes through a framer
 * that follows HTTP/1.1 message framing (request line, headers, `Content-Length` or chunked body,
 * trailers) and rewrites each request line `LIST <target> HTTP/1.x` to
 * `GET <target>?list=true HTTP/1.x` (`&list=true` when the target has a query). Everything else
 * passes through byte for byte, so keep-alive, pipelining, bodies and chunked uploads are intact.
 * When the framing cannot be followed (a malformed message), the framer stops rewriting and passes
 * the rest through untouched: Node's parser then answers the error as it would have.
 */
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { Server } from 'node:http';

type State =
  | { kind: 'line' }
  | { kind: 'headers'; length: number; chunked: boolean; upgrade: boolean }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; remaining: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'passthrough' };

/** Longest line the framer buffers before it gives up and passes bytes through. */
const MAX_LINE = 2 * 1024 * 1024 + 1024;

const LIST_PREFIX = Buffer.from('LIST ');

/**
 * Rewrites `LIST` request lines in an HTTP/1.1 request byte stream, whatever the chunking of the
 * input. Feed it the bytes as they arrive; it returns the bytes to hand to the HTTP parser.
 */
export interface ListRewriter {
  /**
   * Takes the next bytes of the stream.
   * @param chunk - Bytes as received.
   * @returns The bytes to pass on (possibly empty while a line is incomplete).
   */
  push(chunk: Buffer): Buffer;
  /**
   * Ends the stream.
   * @returns Whatever was still buffered (an incomplete line), unchanged.
   */
  end(): Buffer;
}

function rewriteRequestLine(line: Buffer): Buffer {
  if (line.length < LIST_PREFIX.length || !line.subarray(0, LIST_PREFIX.length).equals(LIST_PREFIX)) {
    return line;
  }
  const text = line.toString('latin1');
  const match = /^LIST (\S+)( HTTP\/\d\.\d)(\r?\n)$/.exec(text);
  if (match === null) return line;
  const [, target = '', version = '', eol = ''] = match;
  const separator = target.includes('?') ? '&' : '?';
  return Buffer.from(`GET ${target}${separator}list=true${version}${eol}`, 'latin1');
}

/**
 * Creates a {@link ListRewriter}.
 * @returns A fresh rewriter for one connection.
 */
export function createListRewriter(): ListRewriter {
  let state: State = { kind: 'line' };
  let pending: Buffer = Buffer.alloc(0);

  /** Handles one complete line (with its line ending) in a line-oriented state. */
  function onLine(line: Buffer): Buffer {
    const text = line.toString('latin1').replace(/\r?\n$/, '');
    switch (state.kind) {
      case 'line':
        // Empty lines before a request line are tolerated by HTTP parsers (RFC 9112 §2.2).
        if (text === '') return line;
        state = { kind: 'headers', length: 0, chunked: false, upgrade: false };
        return rewriteRequestLine(line);
      case 'headers': {
        if (text === '') {
          if (state.upgrade) state = { kind: 'passthrough' };
          else if (state.chunked) state = { kind: 'chunk-size' };
          else if (state.length > 0) state = { kind: 'body', remaining: state.length };
          else state = { kind: 'line' };
          return line;
        }
        const colon = text.indexOf(':');
        if (colon <= 0) {
          state = { kind: 'passthrough' };
          return line;
        }
        const name = text.slice(0, colon).trim().toLowerCase();
        const value = text.slice(colon + 1).trim();
        if (name === 'content-length') {
          if (!/^\d{1,15}$/.test(value)) state = { kind: 'passthrough' };
          else state.length = Number(value);
        } else if (name === 'transfer-encoding') {
          if (value.toLowerCase().split(',').at(-1)?.trim() === 'chunked') state.chunked = true;
          else state = { kind: 'passthrough' };
        } else if (name === 'upgrade') {
          state.upgrade = true;
        }
        return line;
      }
      case 'chunk-size': {
        const size = /^([0-9a-fA-F]{1,12})(;.*)?$/.exec(text);
        if (size === null) {
          state = { kind: 'passthrough' };
          return line;
        }
        const bytes = Number.parseInt(size[1] ?? '0', 16);
        state = bytes === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', remaining: bytes };
        return line;
      }
      case 'chunk-end':
        state = text === '' ? { kind: 'chunk-size' } : { kind: 'passthrough' };
        return line;
      case 'trailers':
        if (text === '') state = { kind: 'line' };
        return line;
      default:
        return line;
    }
  }

  function push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let input = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    pending = Buffer.alloc(0);
    while (input.length > 0) {
      if (state.kind === 'passthrough') {
        out.push(input);
        break;
      }
      if (state.kind === 'body' || state.kind === 'chunk-data') {
        const take = Math.min(state.remaining, input.length);
        out.push(input.subarray(0, take));
        input = input.subarray(take);
        state.remaining -= take;
        if (state.remaining === 0) state = state.kind === 'body' ? { kind: 'line' } : { kind: 'chunk-end' };
        continue;
      }
      const newline = input.indexOf(0x0a);
      if (newline === -1) {
        if (input.length > MAX_LINE) {
          state = { kind: 'passthrough' };
          out.push(input);
        } else {
          pending = Buffer.from(input);
        }
        break;
      }
      out.push(onLine(input.subarray(0, newline + 1)));
      input = input.subarray(newline + 1);
    }
    return out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out);
  }

  return {
    push,
    end() {
      const rest = pending;
      pending = Buffer.alloc(0);
      return rest;
    },
  };
}

/**
 * A duplex stream in front of a socket: reads come through a {@link ListRewriter}, writes go to
 * the socket unchanged. It carries the socket's addresses, timeouts and keep-alive settings, so
 * Node's HTTP server treats it as the socket.
 */
class ListFront extends Duplex {
  readonly #socket: Socket;
  readonly #rewriter = createListRewriter();

  constructor(socket: Socket) {
    super({ allowHalfOpen: true });
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      const out = this.#rewriter.push(chunk);
      if (out.length > 0 && !this.push(out)) socket.pause();
    });
    socket.on('end', () => {
      const rest = this.#rewriter.end();
      if (rest.length > 0) this.push(rest);
      this.push(null);
    });
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => {
      if (!this.destroyed) this.destroy();
    });
    socket.on('drain', () => this.emit('drain'));
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
    this.#socket.resume();
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

/**
 * Puts a {@link ListRewriter} in front of every connection an HTTP server accepts, by wrapping the
 * socket before Node's own connection handler sees it.
 * @param server - An HTTP server (before it listens).
 */
export function acceptListVerb(server: Server): void {
  const handlers = server.listeners('connection') as ((socket: Duplex) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const front = new ListFront(socket);
    for (const handler of handlers) handler.call(server, front);
  });
}
