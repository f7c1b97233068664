/**
 * The endpoint table test: each case's call sends exactly its request, answers `{ data, meta }`
 * with the X-Svc headers, and throws the ApiError of a 4xx with the server's message.
 */
import { describe, expect, it } from 'vitest';

import type { SchedulerClient } from '../src/index.js';
import { fakeClient } from './fake-fetch.js';

/** One endpoint call and the request it must send. */
export interface EndpointCase {
  readonly name: string;
  readonly call: (client: SchedulerClient) => Promise<unknown>;
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body?: unknown;
}

/** Declares the three table tests over `cases` in a describe block named `title`. */
export function describeEndpoints(title: string, cases: readonly EndpointCase[]): void {
  // oxlint-disable-next-line vitest/valid-title -- the title is the caller's string
  describe(title, () => {
    it.each(cases)('$name sends $method $path', async ({ call, method, path, query, body }) => {
      // Arrange
      const { client, calls } = fakeClient(() => ({ json: {} }));
      // Act
      await call(client);
      // Assert
      expect(calls).toHaveLength(1);
      const [sent] = calls;
      expect(sent?.method).toBe(method);
      expect(sent?.path).toBe(path);
      expect(sent?.query).toEqual(query);
      expect(sent?.body).toEqual(body);
      expect(sent?.headers.get('content-type')).toBe(body === undefined ? null : 'application/json');
    });

    it.each(cases)('$name answers { data, meta } with the X-Svc headers', async ({ call }) => {
      const { client } = fakeClient(() => ({
        json: { answer: 42 },
        headers: { 'X-Svc-Index': '1234', 'X-Svc-LastContact': '7', 'X-Svc-KnownLeader': 'true' },
      }));
      const result = (await call(client)) as { data: unknown; meta: Record<string, unknown> };
      expect(result.data).toEqual({ answer: 42 });
      expect(result.meta).toMatchObject({ index: 1234, lastContact: 7, knownLeader: true });
    });

    it.each(cases)('$name throws the ApiError of a 4xx with the server message', async ({ call }) => {
      const { client } = fakeClient(() => ({ status: 404, text: 'job not found' }));
      await expect(call(client)).rejects.toMatchObject({
        name: 'ApiError',
        status: 404,
        message: expect.stringContaining('job not found'),
      });
    });
  });
}
