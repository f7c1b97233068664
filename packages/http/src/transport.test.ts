import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { failure, json, serverPool, text, TOKEN, transportFor } from '../test/transport-fixtures.js';
import { createTransport, type FetchInit } from './index.js';

const serve = serverPool();

describe('requests', () => {
  it('sends the token, defaults and reads data and meta', async () => {
    // Arrange
    const server = await serve(
      json(200, [{ ID: 'a' }], {
        'x-svc-index': '42',
        'x-svc-lastcontact': '0',
        'x-svc-knownleader': 'true',
        'x-svc-nexttoken': 'default.b',
      }),
    );
    const transport = transportFor(server, { token: TOKEN, namespace: 'prod', region: 'global' });
    // Act
    const result = await transport.request<{ ID: string }[]>({ path: '/v1/jobs', query: { per_page: 1 } });
    // Assert
    expect(result).toEqual({
      data: [{ ID: 'a' }],
      meta: { index: 42, lastContact: 0, knownLeader: true, nextToken: 'default.b' },
    });
    const [req] = server.requests;
    expect(req?.method).toBe('GET');
    expect(req?.url).toBe('/v1/jobs?namespace=prod&region=global&per_page=1');
    expect(req?.headers['x-svc-token']).toBe(TOKEN);
    expect(req?.headers['accept-encoding']).toBe('gzip');
    expect(req?.headers['accept']).toBe('application/json');
  });

  it('lets a request name its own namespace and encodes query values', async () => {
    const server = await serve(json(200, {}));
    await transportFor(server, { namespace: 'prod' }).request({
      path: '/v1/jobs',
      query: {
        namespace: '*',
        filter: 'Status == "running"',
        reverse: true,
        stale: false,
        prefix: undefined,
        x: null,
        task: ['a', 'b'],
      },
    });
    const url = new URL(server.requests[0]?.url ?? '', server.url);
    expect(url.searchParams.get('namespace')).toBe('*');
    expect(url.searchParams.get('filter')).toBe('Status == "running"');
    expect(url.searchParams.get('reverse')).toBe('true');
    expect(url.searchParams.getAll('task')).toEqual(['a', 'b']);
    expect([...url.searchParams.keys()]).toEqual(['namespace', 'filter', 'reverse', 'task', 'task']);
  });

  it('sends the token as a Bearer credential when the header is Authorization', async () => {
    const server = await serve(json(200, {}));
    await transportFor(server, { token: TOKEN, tokenHeader: 'Authorization' }).request({ path: '/v1/jobs' });
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[0]?.headers['x-svc-token']).toBeUndefined();
  });

  it('sends the token in the header of the secrets or mesh service', async () => {
    const server = await serve(json(200, {}));
    await transportFor(server, { token: TOKEN, tokenHeader: 'X-Mesh-Token' }).request({
      path: '/v1/peerings',
    });
    expect(server.requests[0]?.headers['x-mesh-token']).toBe(TOKEN);
  });

  it('sends objects as JSON and strings as they are, with transport and request headers', async () => {
    const server = await serve(json(200, { ok: true }));
    const transport = transportFor(server, { headers: { 'x-trace': 'a', 'x-both': 'transport' } });
    await transport.request({
      method: 'put',
      path: '/v1/jobs',
      body: { Job: { ID: 'web' } },
      headers: { 'x-both': 'request' },
    });
    await transport.request({
      method: 'POST',
      path: '/v1/raw',
      body: 'plain text',
      headers: { 'content-type': 'text/plain' },
    });
    expect(server.requests[0]).toMatchObject({ method: 'PUT', body: '{"Job":{"ID":"web"}}' });
    expect(server.requests[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-trace': 'a',
      'x-both': 'request',
    });
    expect(server.requests[1]).toMatchObject({ method: 'POST', body: 'plain text' });
    expect(server.requests[1]?.headers['content-type']).toBe('text/plain');
  });

  it('returns undefined data for an empty answer and text with parse: text', async () => {
    const server = await serve((req, res) => {
      if (req.url?.startsWith('/empty') === true) {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('job "web" {}');
      }
    });
    const transport = transportFor(server);
    expect(await transport.request({ method: 'DELETE', path: '/empty' })).toEqual({
      data: undefined,
      meta: {},
    });
    expect((await transport.request({ path: '/hcl', parse: 'text' })).data).toBe('job "web" {}');
  });

  it('decompresses gzip answers', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-svc-index': '3',
      });
      res.end(gzipSync(JSON.stringify({ ok: true })));
    });
    expect(await transportFor(server).request({ path: '/v1/x' })).toEqual({
      data: { ok: true },
      meta: { index: 3 },
    });
  });

  it('returns the body unread with parse: stream, with a timeout that ends at the headers', async () => {
    // Arrange: headers and a first line at once; the rest only when the test says so, after the timeout
    let finish: () => void = () => undefined;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{}\n');
      finish = () => res.end('{"Index":1}\n');
    });
    // Act
    const { data } = await transportFor(server, { timeout: 500 }).request<ReadableStream<Uint8Array>>({
      path: '/v1/event/stream',
      parse: 'stream',
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    finish();
    const body = await new Response(data).text();
    // Assert
    expect(body).toBe('{}\n{"Index":1}\n');
  });

  it('reads lastContact, knownLeader false and the ACL-filtered flag', async () => {
    const server = await serve(
      json(200, [], {
        'x-svc-lastcontact': '25',
        'x-svc-knownleader': 'false',
        'x-mesh-results-filtered-by-acls': 'true',
      }),
    );
    expect((await transportFor(server).request({ path: '/v1/peerings' })).meta).toEqual({
      lastContact: 25,
      knownLeader: false,
      filteredByAcls: true,
    });
  });

  it('uses an injected fetch, without a dispatcher when no TLS is set', async () => {
    const seen: [string, FetchInit][] = [];
    const transport = createTransport({
      env: false,
      token: TOKEN,
      fetch: async (url, init) => {
        seen.push([url, init]);
        await Promise.resolve();
        return new Response('{"a":1}', { headers: { 'x-svc-index': '9' } });
      },
    });
    expect(await transport.request({ path: '/v1/jobs' })).toEqual({ data: { a: 1 }, meta: { index: 9 } });
    expect(seen[0]?.[0]).toBe('http://127.0.0.1:4646/v1/jobs');
    expect(seen[0]?.[1].dispatcher).toBeUndefined();
    expect(seen[0]?.[1].redirect).toBe('manual');
  });
});

describe('indexes stay exact', () => {
  it.each([
    ['9007199254740991', 9007199254740991],
    ['0', 0],
  ])('reads X-Svc-Index %s exactly', async (header, index) => {
    const server = await serve(json(200, {}, { 'x-svc-index': header }));
    expect((await transportFor(server).request({ path: '/v1/x' })).meta.index).toBe(index);
  });

  it.each([
    ['9007199254740993', 'beyond Number.MAX_SAFE_INTEGER (2^53-1), so it cannot be represented exactly.'],
    ['18446744073709551615', 'beyond Number.MAX_SAFE_INTEGER (2^53-1), so it cannot be represented exactly.'],
    ['12abc', 'which is not a decimal integer.'],
    ['-1', 'which is not a decimal integer.'],
    ['1e3', 'which is not a decimal integer.'],
  ])('fails a 2xx answer with X-Svc-Index %s rather than round it', async (header, tail) => {
    const server = await serve(json(200, {}, { 'x-svc-index': header }));
    const error = await failure(transportFor(server).request({ path: '/v1/x' }));
    expect(error.status).toBe(200);
    expect(error.message).toBe(`The server answered X-Svc-Index ${JSON.stringify(header)}, ${tail}`);
  });

  it('reads the mesh service’s X-Mesh-* headers and names X-Mesh-Index when it is bad', async () => {
    const server = await serve(
      json(200, [], {
        'x-mesh-index': '7',
        'x-mesh-lastcontact': '0',
        'x-mesh-knownleader': 'true',
        'x-mesh-results-filtered-by-acls': 'true',
      }),
    );
    expect((await transportFor(server).request({ path: '/v1/peerings' })).meta).toEqual({
      index: 7,
      lastContact: 0,
      knownLeader: true,
      filteredByAcls: true,
    });
    const bad = await serve(json(200, {}, { 'x-mesh-index': 'x' }));
    const error = await failure(transportFor(bad).request({ path: '/v1/peerings' }));
    expect(error.message).toBe('The server answered X-Mesh-Index "x", which is not a decimal integer.');
  });

  it('keeps the server’s message on an error answer with a bad index', async () => {
    const server = await serve(text(404, 'job not found', { 'x-svc-index': '99999999999999999999' }));
    const error = await failure(transportFor(server).request({ path: '/v1/job/x' }));
    expect(error.message).toBe('job not found');
    expect(error.meta).toEqual({});
  });
});
