import { describe, expect, it } from 'vitest';

import type { FetchLike } from '@sked/http';

import { ApiError, createMeshClient } from './index.js';

/** A fetch that answers every request 200 with `body` as JSON. */
function answering(body: unknown): FetchLike {
  return () =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
}

type Client = ReturnType<typeof createMeshClient>;

describe('answers the client cannot use are errors', () => {
  it.each([
    [
      'list',
      (c: Client) => c.peerings.list(),
      [null, {}, [null], 'x'],
      'GET /v1/peerings is not a list of peerings',
    ],
    [
      'read',
      (c: Client) => c.peerings.read('dc2'),
      [null, [], {}, { Name: 1 }, 'x'],
      'GET /v1/peering/dc2 is not a peering',
    ],
    [
      'generateToken',
      (c: Client) => c.peerings.generateToken({ PeerName: 'dc2' }),
      [null, {}, { PeeringToken: 1 }],
      'POST /v1/peering/token is not a generated token',
    ],
  ])('%s', async (_name, run, bodies, message) => {
    for (const body of bodies) {
      const error = await run(createMeshClient({ fetch: answering(body), env: false })).catch(
        (e: unknown) => e,
      );
      expect(ApiError.is(error)).toBe(true);
      expect((error as ApiError).message).toContain(`The answer to ${message}`);
      expect((error as ApiError).status).toBe(200);
    }
  });

  it('watch rejects an unusable answer too', async () => {
    const client = createMeshClient({ fetch: answering(null), env: false });
    const iterator = client.peerings.list.watch({ maxRetries: 0 })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow('is not a list of peerings');
  });
});
