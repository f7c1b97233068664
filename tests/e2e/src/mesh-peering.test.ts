// Two real sked-server processes peering: generate, establish, heartbeats, a SIGKILLed and
// restarted peer, deletion reaching the other side, a replayed token, ACL 403s.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, createMeshClient, type MeshClient } from '@sked/mesh-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'sked-mesh-e2e-'));
const tokensFile = join(dir, 'tokens.json');
writeFileSync(
  tokensFile,
  JSON.stringify({
    tokens: [
      { name: 'ops', secret: 'ops-secret', management: true },
      { name: 'writer', secret: 'write-secret', peering: 'write' },
      { name: 'reader', secret: 'read-secret', peering: 'read' },
    ],
  }),
);

interface Proc {
  readonly child: ChildProcess;
  readonly mesh: string;
}
const children: ChildProcess[] = [];

async function start(args: string[]): Promise<Proc> {
  const started = await spawnServer(
    [
      '--scheduler-port',
      '0',
      '--nodes',
      '0',
      '--heartbeat-ms',
      '100',
      '--acl',
      '--acl-tokens',
      tokensFile,
      ...args,
    ],
    'mesh',
    (child) => children.push(child),
  );
  return { child: started.child, mesh: started.url };
}

const client = (proc: Proc, token = 'write-secret'): MeshClient =>
  createMeshClient({ address: proc.mesh, token, env: false, timeout: 20_000 });

async function heartbeat(mesh: MeshClient, name: string): Promise<string | null | undefined> {
  return (await mesh.peerings.read(name)).data.StreamStatus?.LastHeartbeat;
}

let a: Proc;
let b: Proc;
const dataA = join(dir, 'a-data');

beforeAll(async () => {
  [a, b] = await Promise.all([
    start(['--datacenter', 'dc1', '--mesh-port', '0', '--data-dir', dataA]),
    start(['--datacenter', 'dc2', '--mesh-port', '0']),
  ]);
}, 40_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('two sked-server processes', { timeout: 40_000 }, () => {
  let token = '';

  it('peer: generate on one, establish on the other, both ACTIVE with moving heartbeats', async () => {
    const { data } = await client(a).peerings.generateToken({ PeerName: 'dc2' });
    token = data.PeeringToken;
    await client(b).peerings.establish({ PeerName: 'dc1', PeeringToken: token });
    await expect.poll(async () => (await client(a).peerings.read('dc2')).data.State).toBe('ACTIVE');
    await expect.poll(async () => (await client(b).peerings.read('dc1')).data.State).toBe('ACTIVE');
    const onA = (await client(a).peerings.read('dc2')).data;
    const onB = (await client(b).peerings.read('dc1')).data;
    expect(onA.PeerID).toBe(onB.ID);
    expect(onB.PeerID).toBe(onA.ID);
    expect(onA.Remote.Datacenter).toBe('dc2');
    expect(onB.Remote.Datacenter).toBe('dc1');
    expect(onB.PeerServerAddresses).toEqual([new URL(a.mesh).host]);
    await expect.poll(() => heartbeat(client(b), 'dc1')).toMatch(/^\d{4}-/);
    const first = await heartbeat(client(b), 'dc1');
    await expect.poll(() => heartbeat(client(b), 'dc1')).not.toBe(first);
    const firstOnA = await heartbeat(client(a), 'dc2');
    await expect.poll(() => heartbeat(client(a), 'dc2')).not.toBe(firstOnA);
  });

  it('refuse a replayed token', async () => {
    const error = await client(b)
      .peerings.establish({ PeerName: 'again', PeeringToken: token })
      .catch((e: unknown) => e);
    expect(ApiError.is(error) && error.status).toBe(400);
    expect((error as Error).message).toContain('already used or rotated');
  });

  it('answer 403 to a read token writing and to no token', async () => {
    const reader = client(a, 'read-secret');
    for (const call of [
      () => reader.peerings.generateToken({ PeerName: 'x' }),
      () => reader.peerings.establish({ PeerName: 'x', PeeringToken: token }),
      () => reader.peerings.delete('dc2'),
    ]) {
      await expect(call()).rejects.toMatchObject({ status: 403, message: 'Permission denied' });
    }
    expect((await reader.peerings.read('dc2')).data.State).toBe('ACTIVE');
    expect((await reader.peerings.list()).data).toHaveLength(1);
    const anonymous = createMeshClient({ address: a.mesh, env: false });
    await expect(anonymous.peerings.list()).rejects.toMatchObject({
      status: 403,
      message: 'ACL token not found',
    });
  });

  it('stop the heartbeats when a peer is SIGKILLed, and resume them when it is restarted', async () => {
    const port = new URL(a.mesh).port;
    a.child.kill('SIGKILL');
    await new Promise((resolve) => a.child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = await heartbeat(client(b), 'dc1');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await heartbeat(client(b), 'dc1')).toBe(stopped);
    expect((await client(b).peerings.read('dc1')).data.State).toBe('ACTIVE');
    a = await start(['--datacenter', 'dc1', '--mesh-port', port, '--data-dir', dataA]);
    await expect.poll(() => heartbeat(client(b), 'dc1'), { timeout: 20_000 }).not.toBe(stopped);
    await expect.poll(() => heartbeat(client(a), 'dc2'), { timeout: 20_000 }).toMatch(/^\d{4}-/);
  });

  it('wake a blocking read on one side with a delete on the other', async () => {
    const { meta } = await client(b).peerings.read('dc1');
    const woken = client(b).peerings.read('dc1', { index: meta.index ?? 1, wait: '30s' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client(a).peerings.delete('dc2');
    const { data } = await woken;
    expect(data.State).toBe('TERMINATED');
    expect(data.DeletedAt).toMatch(/^\d{4}-/);
    expect((await client(a).peerings.read('dc2')).data.State).toBe('TERMINATED');
  });
});
