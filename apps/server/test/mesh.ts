import { afterAll } from 'vitest';
import { createAcl, parseAclConfig } from '../src/scheduler/acl/index.js';
import { startMeshService, type RunningMesh, type StartMeshOptions } from '../src/mesh/index.js';

const started: RunningMesh[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((listener) => listener.close()));
});

/** A mesh listener on a free port, closed after the test file, with a fetch shorthand. */
export interface TestMesh {
  readonly listener: RunningMesh;
  readonly url: string;
  /** Calls the listener over real HTTP; `body` is sent as JSON (a string as is). */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; json: () => unknown; headers: Headers }>;
}

/** ACL tokens used by the tests. */
export const TOKENS = {
  tokens: [
    { name: 'ops', secret: 'ops-secret', management: true },
    { name: 'reader', secret: 'read-secret', peering: 'read' },
    { name: 'writer', secret: 'write-secret', peering: 'write' },
    { name: 'partial', secret: 'partial-secret', peering: { 'dc2-*': 'read', 'dc2-east': 'write' } },
    { name: 'jobs-only', secret: 'jobs-secret', namespaces: { default: ['read-job'] } },
  ],
};

/**
 * Starts a mesh listener on 127.0.0.1:0.
 * @param options - Overrides (`acl: true` turns on {@link TOKENS}).
 * @returns The test mesh.
 */
export async function startTestMesh(
  options: Partial<Omit<StartMeshOptions, 'acl'>> & { acl?: boolean } = {},
): Promise<TestMesh> {
  const { acl, ...rest } = options;
  const listener = await startMeshService({
    host: '127.0.0.1',
    port: 0,
    datacenter: 'dc1',
    heartbeatMs: 50,
    cleanupMs: 400,
    ...rest,
    acl: createAcl(acl === true ? parseAclConfig(TOKENS) : undefined),
  });
  started.push(listener);
  return {
    listener,
    url: listener.url,
    async call(method, path, { body, token, headers = {} } = {}) {
      const response = await fetch(`${listener.url}${path}`, {
        method,
        headers: { ...(token === undefined ? {} : { 'X-Mesh-Token': token }), ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        text,
        json: () => JSON.parse(text) as unknown,
        headers: response.headers,
      };
    },
  };
}

/**
 * Generates a token on `acceptor` for `dialerName` and establishes it on `dialer` as `acceptorName`.
 * @returns The token.
 */
export async function peer(
  acceptor: TestMesh,
  dialer: TestMesh,
  names: { onAcceptor: string; onDialer: string },
  token?: string,
): Promise<string> {
  const generated = await acceptor.call('POST', '/v1/peering/token', {
    body: { PeerName: names.onAcceptor },
    ...(token === undefined ? {} : { token }),
  });
  if (generated.status !== 200) throw new Error(`generate: ${generated.status} ${generated.text}`);
  const peeringToken = (generated.json() as { PeeringToken: string }).PeeringToken;
  const established = await dialer.call('POST', '/v1/peering/establish', {
    body: { PeerName: names.onDialer, PeeringToken: peeringToken },
    ...(token === undefined ? {} : { token }),
  });
  if (established.status !== 200) throw new Error(`establish: ${established.status} ${established.text}`);
  return peeringToken;
}

/** Reads a peering record (or the status when it is not 200). */
export async function readPeering(
  mesh: TestMesh,
  name: string,
  token?: string,
): Promise<Record<string, unknown> & { State?: string; StreamStatus?: Record<string, string | null> }> {
  const res = await mesh.call('GET', `/v1/peering/${name}`, token === undefined ? {} : { token });
  if (res.status !== 200) return { status: res.status, text: res.text };
  return res.json() as Record<string, unknown>;
}
