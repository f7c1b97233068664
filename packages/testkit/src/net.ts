/**
 * Loopback helpers for tests (`@sked/testkit/net`): free ports for servers that cannot listen on
 * port 0 themselves and report the port they got (`slapd`, `verdaccio`), and a real HTTP server that
 * records the requests it receives.
 *
 * @packageDocumentation
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';

/**
 * A TCP port of 127.0.0.1 that was free a moment ago: listens on port 0, reads the port the system
 * chose, and closes. Another process may take it before the caller listens, so a caller retries on
 * `EADDRINUSE`.
 * @returns The port number.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One request a {@link RecordingServer} received. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** The body, as text (`""` for none). */
  readonly body: string;
}

/** A real HTTP server on 127.0.0.1 that records every request it receives. */
export interface RecordingServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** How a {@link RecordingServer} answers: status, headers and body text. */
export interface RecordedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Starts a real `node:http` server on a free port of 127.0.0.1 that records each request (method,
 * URL, body) and answers it with `answer(request)` (default: 200 `{}` as JSON), for tests that count
 * what a client really sent, over a real connection.
 * @param answer - The answer of a request.
 * @returns The server.
 */
export async function startRecordingServer(
  answer: (request: RecordedRequest) => RecordedAnswer = () => ({}),
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const { status = 200, headers = { 'content-type': 'application/json' }, body = '{}' } = answer(request);
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
