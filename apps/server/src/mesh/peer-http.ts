import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';

/** Largest answer read from a peer's exchange or terminate endpoint, in bytes. */
export const MAX_PEER_ANSWER = 64 * 1024;

/** Why a call to a peer failed. */
export type PeerCallFailure = 'timeout' | 'aborted' | 'too-large' | 'network';

/** A call to a peer server that did not give a whole answer. */
export class PeerCallError extends Error {
  /** Literal class name. */
  override readonly name = 'PeerCallError' as const;
  /** What went wrong. */
  readonly reason: PeerCallFailure;

  /**
   * @param reason - What went wrong.
   * @param message - Says it, for the establish answer.
   */
  constructor(reason: PeerCallFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** One HTTP call to a peer server. */
export interface PeerCall {
  /** `host:port`, an IPv6 host in brackets. */
  readonly address: string;
  /** HTTP method. */
  readonly method: 'POST' | 'GET';
  /** Path, `/v1/...`. */
  readonly path: string;
  /** Request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body (JSON text). */
  readonly body?: string;
  /** The whole call, connect to last byte of the answer, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest answer body read, in bytes. @defaultValue {@link MAX_PEER_ANSWER} */
  readonly maxBytes?: number;
  /** The caller gives up. */
  readonly signal?: AbortSignal | undefined;
}

/** The peer's answer. */
export interface PeerAnswer {
  /** HTTP status. */
  readonly status: number;
  /** The body as UTF-8 text (at most `maxBytes`). */
  readonly text: string;
}

function networkMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}

function splitAddress(address: string): { host: string; port: number } {
  const cut = address.lastIndexOf(':');
  const host = address.slice(0, cut);
  return {
    host: host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host,
    port: Number(address.slice(cut + 1)),
  };
}

/**
 * Calls a peer server over plain HTTP with `node:http`, which dials any port (fetch refuses the
 * ports of its browser block-list, 6000 and 6665-6669 among them). The connection is not pooled:
 * it is closed when the answer is read, when `timeoutMs` passes, when the answer grows past
 * `maxBytes` (reading stops there, so the call never holds more) or when `signal` aborts.
 * @param call - Address, request, deadline, size limit and signal.
 * @returns The status and body.
 * @throws {@link PeerCallError} for each way the call can fail.
 */
export function callPeer(call: PeerCall): Promise<PeerAnswer> {
  const maxBytes = call.maxBytes ?? MAX_PEER_ANSWER;
  const { host, port } = splitAddress(call.address);
  return new Promise<PeerAnswer>((resolve, reject) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const settle = (error: PeerCallError | undefined, answer?: PeerAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      // agent: false, so the socket belongs to this call alone: close it whatever the outcome
      request?.destroy();
      if (error === undefined) resolve(answer as PeerAnswer);
      else reject(error);
    };
    const onAbort = (): void => settle(new PeerCallError('aborted', 'the caller gave up'));
    const timer = setTimeout(
      () => settle(new PeerCallError('timeout', 'no answer in time')),
      Math.max(1, call.timeoutMs),
    );
    if (call.signal?.aborted === true) return onAbort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const body = call.body === undefined ? undefined : Buffer.from(call.body, 'utf8');
    request = httpRequest({
      host,
      port,
      method: call.method,
      path: call.path,
      agent: false,
      headers: {
        ...call.headers,
        connection: 'close',
        ...(body === undefined ? {} : { 'content-length': String(body.length) }),
      },
    });
    request.on('error', (error) => settle(new PeerCallError('network', networkMessage(error))));
    request.on('response', (response: IncomingMessage) => {
      const tooLarge = (): void =>
        settle(
          new PeerCallError(
            'too-large',
            `the answer is larger than ${maxBytes} bytes; reading stopped there`,
          ),
        );
      const declared = Number(response.headers['content-length'] ?? '0');
      if (declared > maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return tooLarge();
        chunks.push(chunk);
        return undefined;
      });
      response.on('error', (error) => settle(new PeerCallError('network', networkMessage(error))));
      response.on('close', () => {
        if (!response.complete) {
          settle(new PeerCallError('network', 'the connection closed before the answer was complete'));
        }
      });
      response.on('end', () =>
        settle(undefined, {
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks, size).toString('utf8'),
        }),
      );
      return undefined;
    });
    request.end(body);
    return undefined;
  });
}
