import { request as httpRequest } from 'node:http';

/** An answer read whole. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/**
 * Sends a request with its path exactly as given (no URL normalising: `..`, `%2e` and `//` reach
 * the server as written), within a deadline. An upgrade (`101`, a WebSocket accepted) is answered
 * with its status and headers and an empty body, its socket closed.
 * @param base - `http://HOST:PORT`.
 * @param method - The method.
 * @param path - The raw request target.
 * @param headers - Request headers.
 * @param body - A body, sent with its length.
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
        signal: AbortSignal.timeout(20_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
    });
    req.on('error', reject);
    req.end(body);
  });
}
