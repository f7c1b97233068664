import { describe, expect, it } from 'vitest';

import type { FetchLike } from '@sked/http';

import { ApiError, createSecretsClient } from './index.js';

/** A fetch that answers every request 200 with `body` as JSON. */
function answering(body: unknown): FetchLike {
  return () =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
}

const envelope = (data: unknown, auth: unknown = null) => ({ data, auth, warnings: null });

describe('answers a client cannot use are errors, never an empty success', () => {
  it.each([
    ['null', null],
    ['a list', [1]],
    ['an envelope without data', envelope(undefined)],
    ['data without keys', envelope({})],
    ['keys that are not names', envelope({ keys: [1, 2] })],
  ])('a LIST answered with %s', async (_what, body) => {
    const client = createSecretsClient({ fetch: answering(body), env: false });
    const error = await client.ldap.users.list().catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).message).toMatch(/^The answer to LIST \/v1\/auth\/ldap\/users is not /);
  });

  it.each([
    ['token lookup', (c: ReturnType<typeof createSecretsClient>) => c.token.lookupSelf()],
    ['group read', (c: ReturnType<typeof createSecretsClient>) => c.ldap.groups.read('devs')],
    ['config read', (c: ReturnType<typeof createSecretsClient>) => c.ldap.config.read()],
    ['login', (c: ReturnType<typeof createSecretsClient>) => c.ldap.login('alice', 'pw')],
  ])('%s answered with null or with null data', async (_what, run) => {
    for (const body of [null, envelope(null), envelope('x', 'y')]) {
      const error = await run(createSecretsClient({ fetch: answering(body), env: false })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^(The answer to [A-Z]+ \/v1\/\S+ is not |.*without an auth)/);
    }
  });

  it('keeps the answers that are right', async () => {
    const client = createSecretsClient({ fetch: answering(envelope({ keys: ['a', 'b'] })), env: false });
    expect((await client.ldap.users.list()).data).toEqual(['a', 'b']);
  });
});
