import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { generateCerts, type TestCerts } from '../test/certs.js';
import { startServer, type TestServer } from '../test/server.js';
import { ApiError, createTransport } from './index.js';

let certs: TestCerts;
let server: TestServer | undefined;

beforeAll(() => {
  certs = generateCerts();
});
afterAll(() => {
  certs.remove();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const hello = (req: IncomingMessage, res: ServerResponse) => {
  const socket = req.socket as TLSSocket;
  res.writeHead(200, { 'content-type': 'application/json', 'x-svc-index': '1' });
  res.end(
    JSON.stringify({ authorized: socket.authorized, peer: socket.getPeerCertificate().subject?.CN ?? null }),
  );
};

describe('TLS', () => {
  it('refuses a server whose CA is not trusted, as a status-0 ApiError with the cause', async () => {
    server = await startServer(hello, { cert: certs.serverCert, key: certs.serverKey });
    const transport = createTransport({ address: server.url, env: false });
    const error: unknown = await transport.request({ path: '/v1/x' }).catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).message).toMatch(
      /^The request GET https:\/\/127\.0\.0\.1:\d+\/v1\/x failed before an answer arrived: /,
    );
    expect((error as Error).cause).toBeDefined();
  });

  it('trusts the CA of tls.caFile', async () => {
    server = await startServer(hello, { cert: certs.serverCert, key: certs.serverKey });
    const transport = createTransport({ address: server.url, tls: { caFile: certs.caFile }, env: false });
    await expect(transport.request({ path: '/v1/x' })).resolves.toMatchObject({ meta: { index: 1 } });
  });

  it('trusts the CA of SKED_CACERT', async () => {
    server = await startServer(hello, { cert: certs.serverCert, key: certs.serverKey });
    const transport = createTransport({ env: { SKED_ADDR: server.url, SKED_CACERT: certs.caFile } });
    expect(transport.config.tls?.ca).toBe(certs.ca);
    await expect(transport.request({ path: '/v1/x' })).resolves.toMatchObject({ meta: { index: 1 } });
  });

  it('accepts any certificate with skipVerify (option or SKED_SKIP_VERIFY)', async () => {
    server = await startServer(hello, { cert: certs.serverCert, key: certs.serverKey });
    await expect(
      createTransport({ address: server.url, tls: { skipVerify: true }, env: false }).request({
        path: '/v1/x',
      }),
    ).resolves.toBeDefined();
    const fromEnv = createTransport({ env: { SKED_ADDR: server.url, SKED_SKIP_VERIFY: 'true' } });
    expect(fromEnv.config.tls?.rejectUnauthorized).toBe(false);
    await expect(fromEnv.request({ path: '/v1/x' })).resolves.toBeDefined();
  });

  it('presents a client certificate for mutual TLS', async () => {
    // Arrange
    server = await startServer(hello, {
      cert: certs.serverCert,
      key: certs.serverKey,
      ca: certs.ca,
      requestCert: true,
      rejectUnauthorized: true,
    });
    const withCert = createTransport({
      address: server.url,
      env: false,
      tls: { caFile: certs.caFile, certFile: certs.clientCertFile, keyFile: certs.clientKeyFile },
    });
    const withoutCert = createTransport({ address: server.url, env: false, tls: { caFile: certs.caFile } });
    // Act
    const ok = await withCert.request<{ authorized: boolean; peer: string }>({ path: '/v1/x' });
    const refused: unknown = await withoutCert.request({ path: '/v1/x' }).catch((e: unknown) => e);
    // Assert
    expect(ok.data).toEqual({ authorized: true, peer: 'sked test client' });
    expect(refused).toMatchObject({ name: 'ApiError', status: 0 });
  });

  it('reads SKED_CLIENT_CERT and SKED_CLIENT_KEY and exposes the PEM material for WebSockets', () => {
    const transport = createTransport({
      env: {
        SKED_ADDR: 'https://127.0.0.1:4646',
        SKED_CACERT: certs.caFile,
        SKED_CLIENT_CERT: certs.clientCertFile,
        SKED_CLIENT_KEY: certs.clientKeyFile,
      },
    });
    expect(transport.config.tls).toEqual({
      ca: certs.ca,
      cert: expect.stringContaining('BEGIN CERTIFICATE') as unknown,
      key: expect.stringContaining('PRIVATE KEY') as unknown,
      rejectUnauthorized: true,
    });
  });

  it('keeps TLS in a transport derived with withDefaults', async () => {
    server = await startServer(hello, { cert: certs.serverCert, key: certs.serverKey });
    const base = createTransport({ address: server.url, tls: { caFile: certs.caFile }, env: false });
    await expect(base.withDefaults({ namespace: 'prod' }).request({ path: '/v1/x' })).resolves.toBeDefined();
    expect(server.requests[0]?.url).toBe('/v1/x?namespace=prod');
  });
});
