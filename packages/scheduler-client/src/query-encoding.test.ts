import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';

import { fakeClient } from '../test/fake-fetch.js';

// Any text, including characters that are special in URLs (&, =, +, %, #, ?, /, spaces, unicode).
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const tricky = fc.oneof(text, fc.constantFrom('a&b=c', '100%', 'x+y', '#frag', '?q', 'a/b', ' ', '"quoted"'));

describe('properties', () => {
  test.prop([
    fc.record(
      {
        namespace: tricky,
        region: tricky,
        filter: tricky,
        nextToken: tricky,
        perPage: fc.nat({ max: 10_000 }),
        reverse: fc.boolean(),
        stale: fc.boolean(),
        meta: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  ])('the server decodes exactly the list parameters the caller gave (round trip)', async (params) => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ json: [] }));
    // Act
    await client.jobs.list(params);
    // Assert: what the server reads back from the URL is what was given, flags only when true.
    const expected: Record<string, string> = {};
    if (params.namespace !== undefined) expected['namespace'] = params.namespace;
    if (params.region !== undefined) expected['region'] = params.region;
    if (params.filter !== undefined) expected['filter'] = params.filter;
    if (params.nextToken !== undefined) expected['next_token'] = params.nextToken;
    if (params.perPage !== undefined) expected['per_page'] = String(params.perPage);
    if (params.reverse === true) expected['reverse'] = 'true';
    if (params.stale === true) expected['stale'] = 'true';
    if (params.meta === true) expected['meta'] = 'true';
    expect(calls[0]?.query).toEqual(expected);
  });

  test.prop([tricky])(
    'any job ID reaches the server as one path segment, decoded back to itself',
    async (id) => {
      fc.pre(id !== '.' && id !== '..');
      const { client, calls } = fakeClient(() => ({ json: {} }));
      await client.jobs.summary(id);
      const segments = calls[0]?.url.pathname.split('/') ?? [];
      expect(segments).toHaveLength(5);
      expect(segments.slice(0, 3)).toEqual(['', 'v1', 'job']);
      expect(decodeURIComponent(segments[3] ?? '')).toBe(id);
      expect(segments[4]).toBe('summary');
    },
  );

  test.prop([fc.uint8Array({ maxLength: 16384 })])(
    'a dispatch payload of bytes arrives as their base64',
    async (bytes) => {
      const { client, calls } = fakeClient(() => ({ json: {} }));
      await client.jobs.dispatch('batch', { payload: bytes });
      const sent = (calls[0]!.body as { Payload: string }).Payload;
      expect(new Uint8Array(Buffer.from(sent, 'base64'))).toEqual(bytes);
    },
  );

  test.prop([fc.stringMatching(/^[0-9a-f]{0,32}$/)])(
    'a hex prefix is accepted exactly when its length is even',
    async (prefix) => {
      const { client, calls } = fakeClient(() => ({ json: [] }));
      const outcome = await client.allocations.list({ prefix }).then(
        () => 'sent',
        () => 'refused',
      );
      expect(outcome).toBe(prefix.length % 2 === 0 ? 'sent' : 'refused');
      expect(calls).toHaveLength(prefix.length % 2 === 0 ? 1 : 0);
    },
  );
});
