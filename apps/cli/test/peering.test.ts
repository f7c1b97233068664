import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, sked, startServer, type ServerProcess } from './harness.js';

let dc1: ServerProcess;
let dc2: ServerProcess;
/** sked against the mesh listener of `server`. */
const on = (server: ServerProcess, args: string[], input?: string) =>
  sked(args, { env: server.env, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  [dc1, dc2] = await Promise.all([
    startServer(['--datacenter', 'dc1', '--heartbeat-ms', '300']),
    startServer(['--datacenter', 'dc2', '--heartbeat-ms', '300']),
  ]);
});
afterAll(async () => {
  await Promise.all([dc1?.close(), dc2?.close()]);
});

describe('peering', () => {
  it('generates a token on one cluster, establishes on the other, and both see it ACTIVE', async () => {
    const generated = await on(dc1, ['peering', 'generate-token', 'dc2', '-m', 'env=test']);
    expect(generated.code).toBe(0);
    expect(generated.stderr).toBe('');
    const token = generated.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const established = await on(dc2, ['peering', 'establish', 'dc1', '-'], `${token}\n`);
    expect(established).toEqual({
      code: 0,
      stdout: 'Successfully established peering connection with dc1\n',
      stderr: '',
    });
    const list = await eventually(async () => {
      const { stdout } = await on(dc1, ['peering', 'list']);
      return /^dc2 +ACTIVE +dc2 +0 +0 +env=test$/m.test(stdout) ? stdout : undefined;
    }, 'dc2 ACTIVE on dc1');
    expect(list.split('\n')[0]).toMatch(
      /^Name +State +Remote Datacenter +Imported Svcs +Exported Svcs +Meta$/,
    );
    const read = await eventually(async () => {
      const { stdout } = await on(dc2, ['peering', 'read', 'dc1']);
      return stdout.includes('State:        ACTIVE') ? stdout : undefined;
    }, 'dc1 ACTIVE on dc2');
    expect(read).toMatch(/^Name: {9}dc1\nID: {11}[0-9a-f-]{36}\nState: {8}ACTIVE\n/);
    expect(read).toMatch(/^Remote Datacenter: {5}dc1$/m);
    expect(read).toContain(`Peer Server Addresses:\n    ${new URL(dc1.listeners['mesh']!).host}`);
    const json = JSON.parse((await on(dc1, ['peering', 'read', 'dc2', '--json'])).stdout);
    expect(json).toMatchObject({ Name: 'dc2', State: 'ACTIVE', Meta: { env: 'test' } });
    // A used token cannot establish again.
    const reused = await on(dc2, ['peering', 'establish', 'again', token]);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toMatch(/HTTP 400 from POST http:\/\/127\.0\.0\.1:\d+\/v1\/peering\/establish/);
    // Deleting on one side terminates it on both.
    const deleted = await on(dc1, ['peering', 'delete', 'dc2']);
    expect(deleted.stdout).toBe('Successfully submitted peering connection, dc2, for deletion\n');
    await eventually(async () => {
      const { stdout } = await on(dc2, ['peering', 'list', '--json']);
      const peerings = JSON.parse(stdout) as { Name: string; State: string }[];
      return peerings.every((p) => p.Name !== 'dc1' || p.State === 'TERMINATED') ? true : undefined;
    }, 'dc1 TERMINATED or gone on dc2');
  });

  it('says what was wrong: a bad name, an unknown peering, a token that is not one, no server', async () => {
    const [badName, unknown, badToken, empty, down] = await Promise.all([
      on(dc1, ['peering', 'generate-token', 'Not_A_Label']),
      on(dc1, ['peering', 'read', 'nowhere']),
      on(dc2, ['peering', 'establish', 'dc1', 'not-a-token!']),
      on(dc2, ['peering', 'list']),
      sked(['peering', 'list'], { env: { SKED_MESH_ADDR: 'http://127.0.0.1:9' } }),
    ]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('PeerName "Not_A_Label" is not a valid peer name');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error: Peering not found for "nowhere"\n {2}HTTP 404 from GET /);
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).not.toContain('not-a-token!');
    expect(empty.code).toBe(0);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      'Try: Is the mesh service running at http://127.0.0.1:9? Set --address or SKED_MESH_ADDR.',
    );
  });
});
