import { describe, expect, it } from 'vitest';

import { filter, filterBuilder, parseFilter, printFilter } from '@sked/filter';

import { address, fakeClient, fakeFetch } from '../test/fake-fetch.js';
import { ApiError, createClient, createSchedulerClient, createTransport } from './index.js';

describe('createClient', () => {
  it('builds its transport from options', async () => {
    const { fetch, calls } = fakeFetch(() => ({ json: [] }));
    const client = createClient({ address, fetch, env: false, token: 'secret-token', namespace: 'prod' });
    await client.jobs.list();
    expect(calls[0]?.url.origin).toBe(address);
    expect(calls[0]?.query).toEqual({ namespace: 'prod' });
    expect(calls[0]?.headers.get('x-svc-token')).toBe('secret-token');
  });

  it('uses a transport as given', async () => {
    const { fetch, calls } = fakeFetch(() => ({ json: [] }));
    const transport = createTransport({
      address,
      fetch,
      env: false,
      tokenHeader: 'Authorization',
      token: 't0k',
    });
    const client = createClient(transport);
    expect(client.transport).toBe(transport);
    await client.volumes.list();
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer t0k');
  });

  it('reads SKED_* environment variables through the transport', async () => {
    const { fetch, calls } = fakeFetch(() => ({ json: [] }));
    const client = createClient({
      fetch,
      env: { SKED_ADDR: 'http://from-env.test:4646', SKED_NAMESPACE: 'ops', SKED_TOKEN: 'env-token' },
    });
    await client.jobs.list();
    expect(calls[0]?.url.host).toBe('from-env.test:4646');
    expect(calls[0]?.query).toEqual({ namespace: 'ops' });
    expect(calls[0]?.headers.get('x-svc-token')).toBe('env-token');
  });

  it('lets a call override the default namespace and region', async () => {
    const { client, calls } = fakeClient(() => ({ json: {} }), { namespace: 'prod', region: 'eu' });
    await client.jobs.read('web', { namespace: 'dev', region: 'us' });
    expect(calls[0]?.query).toEqual({ namespace: 'dev', region: 'us' });
  });

  it('has methods that work destructured (no this)', async () => {
    const { client, calls } = fakeClient(() => ({ json: [] }));
    const { list } = client.jobs;
    const { read } = client.allocations;
    const { detach } = client.volumes;
    await list();
    await read('5456bd7a-9fc0-c0dd-6131-cbee77f57577');
    await detach('vol', 'node');
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/jobs',
      '/v1/allocation/5456bd7a-9fc0-c0dd-6131-cbee77f57577',
      '/v1/volume/csi/vol/detach',
    ]);
  });

  it('passes extra headers and the signal of a call', async () => {
    const { client, calls } = fakeClient(() => ({ json: {} }));
    const controller = new AbortController();
    await client.jobs.summary('web', { headers: { 'X-Request-Id': 'r1' }, signal: controller.signal });
    expect(calls[0]?.headers.get('x-request-id')).toBe('r1');
    controller.abort();
    expect(calls[0]?.signal?.aborted).toBe(true);
  });

  it('rejects with the signal reason when aborted before the answer', async () => {
    const { client } = fakeClient(
      (call) => new Promise((resolve) => call.signal?.addEventListener('abort', () => resolve({ json: {} }))),
    );
    const controller = new AbortController();
    const pending = client.jobs.read('web', { signal: controller.signal });
    const reason = new DOMException('stop', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('createSchedulerClient', () => {
  it('is the factory; createClient is its deprecated alias', async () => {
    expect(createClient).toBe(createSchedulerClient);
    const { fetch, calls } = fakeFetch(() => ({ json: [] }));
    await createSchedulerClient({ fetch, env: { SKED_ADDR: address } }).jobs.list();
    expect(calls[0]?.url.origin).toBe(address);
  });
});

describe('withDefaults', () => {
  it('derives a client with other defaults and leaves the original unchanged', async () => {
    const { client, calls } = fakeClient(() => ({ json: [] }), { namespace: 'default' });
    const prod = client.withDefaults({ namespace: 'prod', token: 'prod-token' });
    await prod.jobs.list();
    await client.jobs.list();
    expect(calls[0]?.query).toEqual({ namespace: 'prod' });
    expect(calls[0]?.headers.get('x-svc-token')).toBe('prod-token');
    expect(calls[1]?.query).toEqual({ namespace: 'default' });
    expect(calls[1]?.headers.get('x-svc-token')).toBeNull();
    expect(prod).not.toBe(client);
  });
});

describe('errors', () => {
  it('turns a plain-text 400 into an ApiError with the server message, status and method', async () => {
    const { client } = fakeClient(() => ({
      status: 400,
      text: 'failed to read filter expression: 1:8: unexpected end of input',
    }));
    const error: unknown = await client.jobs.list({ filter: 'Status ==' }).catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      method: 'GET',
      message: expect.stringContaining('failed to read filter expression: 1:8: unexpected end of input'),
    });
  });

  it('never shows the token in an error', async () => {
    const { client } = fakeClient(() => ({ status: 403, text: 'Permission denied' }), {
      token: 'very-secret-token',
    });
    const error = (await client.jobs.stop('web').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(403);
    expect(JSON.stringify({ message: error.message, url: error.url, body: error.body })).not.toContain(
      'very-secret-token',
    );
  });

  it('reports a network failure as ApiError status 0', async () => {
    const client = createClient({
      address,
      env: false,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(client.jobs.list()).rejects.toMatchObject({ name: 'ApiError', status: 0 });
  });

  it('does not retry a 5xx', async () => {
    const { client, calls } = fakeClient(() => ({ status: 500, text: 'internal error' }));
    await expect(client.jobs.create({ ID: 'web' } as never)).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });
});

describe('filters', () => {
  it('sends a built expression as its printed text, which parses back to the same expression', async () => {
    // Arrange
    const f = filterBuilder<{ Status: string; Meta: Record<string, string>; Datacenters: string[] }>();
    const expression = f.and(
      f.eq('Status', 'running'),
      f.contains('Datacenters', 'dc1'),
      f.eq('Meta.owner', 'team "a"'),
    );
    const { client, calls } = fakeClient(() => ({ json: [] }));
    // Act
    await client.jobs.list({ filter: expression });
    // Assert
    const sent = calls[0]?.query['filter'] ?? '';
    expect(sent).toBe(printFilter(expression));
    const reparsed = parseFilter(sent);
    expect(reparsed.ok).toBe(true);
    expect(reparsed.ok && printFilter(reparsed.ast)).toBe(sent);
  });

  it('refuses a built expression together with a prefix, like text', async () => {
    const { client, calls } = fakeClient(() => ({ json: [] }));
    await expect(
      client.allocations.list({ prefix: 'ab', filter: filter.eq('JobID', 'web') }),
    ).rejects.toThrow('Filter expression cannot be used with other filter parameters');
    expect(calls).toHaveLength(0);
  });
});
