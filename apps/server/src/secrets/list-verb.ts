/**
 * The `LIST` verb at the connection level. Node's HTTP parser answers 400 to a method it does not
 * know before any handler runs, so every connection of the secrets listener goes through a framer
 * that follows HTTP/1.1 message framing (request line, headers, `Content-Length` or chunked body,
 * trailers) and rewrites each request line `LIST <target> HTTP/1.x` to
 * `GET <target>?list=true HTTP/1.x` (`&list=true` when the target has a query). Everything else
 * passes through byte for byte, so keep-alive, pipelining, bodies and chunked uploads are intact.
 *
 * The framer also marks where each request ends, so that the connection applies a request only
 * after the previous one has been answered (see `list-front.ts`), and it refuses a request line
 * plus headers longer than the limit as soon as the limit is passed, newline or not. It keeps at
 * most one incomplete line (bounded by the limit) and copies each byte of it once: its work is
 * linear in the bytes received, whatever their chunking.
 *
 * When the framing cannot be followed (a malformed message), the framer stops rewriting and passes
 * the rest through untouched: Node's parser then answers the error as it would have.
 */

/** Where a framer is in the request stream. */
type State =
  | { kind: 'line' }
  | { kind: 'headers'; length: number; chunked: boolean; upgrade: boolean }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; remaining: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'passthrough' }
  | { kind: 'refused' };

/** Default limit of a request line plus headers (and of a chunked body's trailers), in bytes. */
export const MAX_HEAD_BYTES = 64 * 1024;

/**
 * What the framer hands on: bytes for the HTTP parser, where a request ends, or the refusal of an
 * over-long head (nothing more follows a refusal).
 */
export type FramerOutput =
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'end' }
  | { readonly kind: 'too-large' };

/** Options of {@link createListRewriter}. */
export interface ListRewriterOptions {
  /** Longest request line plus headers (or trailers). @defaultValue {@link MAX_HEAD_BYTES} */
  readonly maxHeadBytes?: number;
}

/**
 * Rewrites `LIST` request lines in an HTTP/1.1 request byte stream, whatever the chunking of the
 * input. Feed it the bytes as they arrive.
 */
export interface ListRewriter {
  /**
   * Takes the next bytes of the stream.
   * @param chunk - Bytes as received.
   * @returns The bytes to pass on (possibly empty while a line is incomplete), request ends and
   *   the refusal of an over-long head, in stream order.
   */
  feed(chunk: Buffer): FramerOutput[];
  /**
   * Takes the next bytes and returns only the bytes to pass on (ends and refusals dropped).
   * @param chunk - Bytes as received.
   * @returns The bytes to pass on.
   */
  push(chunk: Buffer): Buffer;
  /**
   * Ends the stream.
   * @returns Whatever was still buffered (an incomplete line), unchanged.
   */
  end(): Buffer;
}

const LIST_PREFIX = Buffer.from('LIST ');
const HEAD_STATES: ReadonlySet<State['kind']> = new Set(['line', 'headers', 'trailers']);

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
 * Notes a framing header of the head being read.
 * @returns False when the framing cannot be followed (a malformed length or coding).
 */
function readHeader(state: State & { kind: 'headers' }, name: string, value: string): boolean {
  if (name === 'content-length') {
    if (!/^\d{1,15}$/.test(value)) return false;
    state.length = Number(value);
  } else if (name === 'transfer-encoding') {
    if (value.toLowerCase().split(',').at(-1)?.trim() !== 'chunked') return false;
    state.chunked = true;
  } else if (name === 'upgrade') {
    state.upgrade = true;
  }
  return true;
}

/**
 * Creates a {@link ListRewriter}.
 * @param options - The head limit.
 * @returns A fresh rewriter for one connection.
 */
export function createListRewriter(options: ListRewriterOptions = {}): ListRewriter {
  const maxHead = options.maxHeadBytes ?? MAX_HEAD_BYTES;
  let state: State = { kind: 'line' };
  /** The incomplete line: its pieces (each byte copied once, when the line completes). */
  let pending: Buffer[] = [];
  let pendingLength = 0;
  /** Bytes of the current head (request line and headers, or trailers) already handed on. */
  let headBytes = 0;

  /** Bytes of the current head so far (none before a request line). */
  const used = (): number => (state.kind === 'line' ? 0 : headBytes);

  /** Handles one complete line (with its line ending) in a line-oriented state. */
  function onLine(line: Buffer, out: FramerOutput[]): Buffer {
    const text = line.toString('latin1').replace(/\r?\n$/, '');
    switch (state.kind) {
      case 'line':
        // Empty lines before a request line are tolerated by HTTP parsers (RFC 9112 §2.2).
        if (text === '') return line;
        state = { kind: 'headers', length: 0, chunked: false, upgrade: false };
        // Counted as rewritten, so that Node's parser (same limit) never overflows first.
        line = rewriteRequestLine(line);
        headBytes = line.length;
        return line;
      case 'headers':
        headBytes += line.length;
        return onHeaderLine(text, line, out);
      case 'chunk-size': {
        const size = /^([0-9a-fA-F]{1,12})(;.*)?$/.exec(text);
        if (size === null) {
          state = { kind: 'passthrough' };
          return line;
        }
        const bytes = Number.parseInt(size[1] ?? '0', 16);
        state = bytes === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', remaining: bytes };
        headBytes = 0;
        return line;
      }
      case 'chunk-end':
        state = text === '' ? { kind: 'chunk-size' } : { kind: 'passthrough' };
        return line;
      case 'trailers':
        headBytes += line.length;
        if (text === '') {
          state = { kind: 'line' };
          out.push({ kind: 'bytes', bytes: line }, { kind: 'end' });
          return Buffer.alloc(0);
        }
        return line;
      default:
        return line;
    }
  }

  function onHeaderLine(text: string, line: Buffer, out: FramerOutput[]): Buffer {
    if (state.kind !== 'headers') return line;
    if (text === '') {
      if (state.upgrade) state = { kind: 'passthrough' };
      else if (state.chunked) state = { kind: 'chunk-size' };
      else if (state.length > 0) state = { kind: 'body', remaining: state.length };
      else {
        state = { kind: 'line' };
        out.push({ kind: 'bytes', bytes: line }, { kind: 'end' });
        return Buffer.alloc(0);
      }
      return line;
    }
    const colon = text.indexOf(':');
    if (colon <= 0) {
      state = { kind: 'passthrough' };
      return line;
    }
    if (!readHeader(state, text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim())) {
      state = { kind: 'passthrough' };
    }
    return line;
  }

  /** Keeps an incomplete line, or refuses it (or gives up framing) once it is over the limit. */
  function hold(piece: Buffer, out: FramerOutput[]): void {
    pending.push(piece);
    pendingLength += piece.length;
    const limit = HEAD_STATES.has(state.kind) ? maxHead - used() : maxHead;
    if (pendingLength <= limit) return;
    if (HEAD_STATES.has(state.kind)) {
      state = { kind: 'refused' };
      out.push({ kind: 'too-large' });
    } else {
      // An endless chunk-size line: Node's parser judges it.
      state = { kind: 'passthrough' };
      out.push({ kind: 'bytes', bytes: Buffer.concat(pending, pendingLength) });
    }
    pending = [];
    pendingLength = 0;
  }

  function feed(chunk: Buffer): FramerOutput[] {
    const out: FramerOutput[] = [];
    const emit = (bytes: Buffer): void => {
      if (bytes.length > 0) out.push({ kind: 'bytes', bytes });
    };
    let input = chunk;
    while (input.length > 0) {
      if (state.kind === 'refused') break;
      if (state.kind === 'passthrough') {
        emit(input);
        break;
      }
      if (state.kind === 'body' || state.kind === 'chunk-data') {
        const take = Math.min(state.remaining, input.length);
        emit(input.subarray(0, take));
        input = input.subarray(take);
        state.remaining -= take;
        if (state.remaining === 0) {
          if (state.kind === 'body') {
            state = { kind: 'line' };
            out.push({ kind: 'end' });
          } else state = { kind: 'chunk-end' };
        }
        continue;
      }
      const newline = input.indexOf(0x0a);
      if (newline === -1) {
        hold(input, out);
        break;
      }
      const tail = input.subarray(0, newline + 1);
      input = input.subarray(newline + 1);
      const line =
        pendingLength === 0 ? tail : Buffer.concat([...pending, tail], pendingLength + tail.length);
      pending = [];
      pendingLength = 0;
      if (HEAD_STATES.has(state.kind) && used() + line.length > maxHead) {
        state = { kind: 'refused' };
        out.push({ kind: 'too-large' });
        break;
      }
      emit(onLine(line, out));
    }
    return out;
  }

  return {
    feed,
    push(chunk) {
      const bytes: Buffer[] = [];
      for (const item of feed(chunk)) if (item.kind === 'bytes') bytes.push(item.bytes);
      return bytes.length === 1 ? (bytes[0] as Buffer) : Buffer.concat(bytes);
    },
    end() {
      const rest = Buffer.concat(pending, pendingLength);
      pending = [];
      pendingLength = 0;
      return rest;
    },
  };
}
