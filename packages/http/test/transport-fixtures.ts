/**
 * What the transport tests share: test servers closed after each test, canned handlers, and a way to
 * get the ApiError a promise rejects with.
 */
import { afterEach } from 'vitest';

import { ApiError, createTransport, type Transport, type TransportOptions } from '../src/index.js';
import { type Handler, startServer, type TestServer } from './server.js';

export const TOKEN = 'tok-8f1c2b5e-0d3a-4e7b-9c11-5a6b7c8d9e0f';

/** Starts test servers; each is closed after the test that started it. Call at a test file's top. */
export function serverPool(): (handler: Handler) => Promise<TestServer> {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return async (handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
}

/** A handler answering `status` with `body` as JSON. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** A handler answering `status` with `body` as plain text. */
export const text =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(body);
  };

/** A transport to `server`, environment variables ignored. */
export const transportFor = (server: TestServer, options: TransportOptions = {}): Transport =>
  createTransport({ address: server.url, env: false, ...options });

/** An address where nothing listens: a server's port, once it has closed. */
export const closedAddress = async (): Promise<string> => {
  const server = await startServer(() => undefined);
  await server.close();
  return server.url;
};

/** The ApiError `promise` rejects with (anything else fails the test). */
export const failure = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error: unknown = await promise.catch((e: unknown) => e);
  if (!ApiError.is(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
};
