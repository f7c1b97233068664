/**
 * One table of hostile JSON bodies against the JSON endpoints of all three listeners: each is a
 * clear 400 that says what was wrong and where, and changes nothing stored. JSON answers carry
 * `Content-Type: application/json` exactly on every listener.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../wiring/server.js';
import { MAX_JSON_NESTING, jsonNestingProblem } from './json-nesting.js';

const DEEP = 10_000;
const objects = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const arrays = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`;
const mixed = (n: number): string => `${'{"a":['.repeat(n / 2)}1${']}'.repeat(n / 2)}`;

/** Hostile bodies: `property` is the top-level property named in the answer (undefined: none). */
const BODIES: { name: string; body: (property: string) => string; property: boolean }[] = [
  { name: '10,000 nested objects in a property', body: (p) => `{"${p}":${objects(DEEP)}}`, property: true },
  { name: '10,000 nested arrays in a property', body: (p) => `{"${p}":${arrays(DEEP)}}`, property: true },
  { name: 'objects and arrays alternating', body: (p) => `{"${p}":${mixed(DEEP)}}`, property: true },
  { name: '10,000 nested arrays as the body', body: () => arrays(DEEP), property: false },
  {
    name: 'deep nesting after a string holding brackets and an escaped quote',
    body: (p) => `{"x":"{[\\"{[","${p}":${objects(DEEP)}}`,
    property: true,
  },
  { name: 'deep and unterminated', body: (p) => `{"${p}":${'{"a":'.repeat(DEEP)}`, property: true },
];

interface Target {
  readonly listener: 'scheduler' | 'secrets' | 'mesh';
  readonly method: 'POST' | 'PUT';
  readonly path: string;
  readonly property: string;
}

const TARGETS: readonly Target[] = [
  { listener: 'scheduler', method: 'PUT', path: '/v1/jobs', property: 'Job' },
  { listener: 'scheduler', method: 'POST', path: '/v1/jobs/parse', property: 'JobHCL' },
  { listener: 'scheduler', method: 'POST', path: '/v1/search', property: 'Prefix' },
  { listener: 'secrets', method: 'POST', path: '/v1/auth/ldap/config', property: 'token_policies' },
  { listener: 'secrets', method: 'PUT', path: '/v1/auth/ldap/config', property: 'url' },
  { listener: 'secrets', method: 'POST', path: '/v1/auth/ldap/groups/devs', property: 'policies' },
  { listener: 'secrets', method: 'PUT', path: '/v1/auth/ldap/users/bob', property: 'groups' },
  { listener: 'secrets', method: 'POST', path: '/v1/auth/ldap/login/bob', property: 'password' },
  { listener: 'mesh', method: 'POST', path: '/v1/peering/token', property: 'Meta' },
  { listener: 'mesh', method: 'POST', path: '/v1/peering/establish', property: 'PeeringToken' },
];

let server: RunningServer;
const base = (listener: Target['listener']): string => server[listener].url;
const headers = (listener: Target['listener']): Record<string, string> =>
  listener === 'secrets' ? { 'x-secrets-token': server.secrets.rootToken } : {};

/** What a user could have stored on the three listeners. */
async function snapshot(): Promise<string> {
  const reads = [
    ['scheduler', '/v1/jobs'],
    ['secrets', '/v1/auth/ldap/config'],
    ['secrets', '/v1/auth/ldap/groups?list=true'],
    ['secrets', '/v1/auth/ldap/users?list=true'],
    ['mesh', '/v1/peerings'],
  ] as const;
  const texts: string[] = [];
  for (const [listener, path] of reads) {
    const res = await fetch(`${base(listener)}${path}`, { headers: headers(listener) });
    texts.push(`${res.status} ${(await res.text()).replace(/"request_id":"[^"]*"/, '')}`);
  }
  return texts.join('\n');
}

beforeAll(async () => {
  server = await startServer({ schedulerPort: 0, nodes: 1, heartbeatMs: 1000 });
});
afterAll(async () => {
  await server.close();
});

describe('hostile JSON bodies on the three listeners', () => {
  for (const target of TARGETS) {
    it(`${target.listener} ${target.method} ${target.path}: every hostile body is a 400 saying where, nothing stored`, async () => {
      const before = await snapshot();
      for (const hostile of BODIES) {
        const res = await fetch(`${base(target.listener)}${target.path}`, {
          method: target.method,
          headers: { 'content-type': 'application/json', ...headers(target.listener) },
          body: hostile.body(target.property),
        });
        const raw = await res.text();
        const text =
          target.listener === 'secrets' ? ((JSON.parse(raw) as { errors: string[] }).errors[0] ?? '') : raw;
        expect([hostile.name, res.status]).toEqual([hostile.name, 400]);
        expect(text).toContain(`nested more than ${MAX_JSON_NESTING} levels deep`);
        expect(text).toMatch(/at position \d+ \(line 1 column \d+\)/);
        const where = hostile.property ? `in property "${target.property}" ` : '';
        expect(text).toContain(`nested more than ${MAX_JSON_NESTING} levels deep ${where}at position`);
      }
      expect(await snapshot()).toBe(before);
    });
  }

  it('a body nested to the limit is judged by the endpoint, not the guard', async () => {
    const res = await fetch(`${server.secrets.url}/v1/auth/ldap/users/bob`, {
      method: 'POST',
      headers: headers('secrets'),
      body: `{"policies":${arrays(MAX_JSON_NESTING - 1)}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid value for \\"policies\\"');
  });
});

describe('jsonNestingProblem', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonNestingProblem(`{"a":"${'['.repeat(DEEP)}"}`, 4)).toBeUndefined();
    expect(jsonNestingProblem('[[[1]]]', 3)).toBeUndefined();
    expect(jsonNestingProblem('[[[[1]]]]', 3)).toEqual({
      position: 3,
      line: 1,
      column: 4,
      property: undefined,
    });
    expect(jsonNestingProblem('{"k\\"":\n [[[1]]]}', 3)).toEqual({
      position: 11,
      line: 2,
      column: 4,
      property: 'k"',
    });
  });
});

describe('Content-Type of JSON answers', () => {
  it('is application/json exactly on the three listeners, errors of the secrets listener included', async () => {
    const reads: [Target['listener'], string, string?][] = [
      ['scheduler', '/v1/jobs'],
      ['scheduler', '/v1/status/leader'],
      ['mesh', '/v1/peerings'],
      ['secrets', '/v1/auth/ldap/config'],
      ['secrets', '/v1/auth/ldap/users/nobody'],
      ['secrets', '/v1/auth/ldap/config', 'not-the-root-token'],
    ];
    for (const [listener, path, token] of reads) {
      const res = await fetch(`${base(listener)}${path}`, {
        headers: token === undefined ? headers(listener) : { 'x-secrets-token': token },
      });
      await res.arrayBuffer();
      expect([listener, path, res.headers.get('content-type')]).toEqual([listener, path, 'application/json']);
    }
  });
});
