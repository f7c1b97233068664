// The examples of packages/mesh-client/README.md, run against two sample servers peering for real
// (in this process, each with its own mesh listener). A guard checks that every TypeScript block of
// the README appears here (up to formatting), so the README cannot drift from what runs.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, InvalidRequestError, createMeshClient } from '@sked/mesh-client';
import { startServer, type RunningServer } from '@sked/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '../../../packages/mesh-client/README.md'), 'utf8');

const servers: RunningServer[] = [];
const logged: unknown[][] = [];

beforeAll(async () => {
  const options = { bind: '127.0.0.1', schedulerPort: 0, nodes: 0, heartbeatMs: 100 } as const;
  servers.push(
    await startServer({ ...options, datacenter: 'dc1' }),
    await startServer({ ...options, datacenter: 'dc2' }),
  );
  process.env['DC1_MESH_ADDR'] = servers[0]?.mesh.url;
  process.env['DC2_MESH_ADDR'] = servers[1]?.mesh.url;
  process.env['DC1_MESH_TOKEN'] = 'unused-without-acl';
  process.env['DC2_MESH_TOKEN'] = 'unused-without-acl';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((server) => server.close()));
});

describe('the mesh client README', { timeout: 30_000 }, () => {
  it('quick example and walk-through', async () => {
    // Quick example
    // address and token default to SKED_MESH_ADDR and SKED_MESH_TOKEN, then http://127.0.0.1:8500
    const mesh = createMeshClient({ address: process.env.DC1_MESH_ADDR, token: process.env.DC1_MESH_TOKEN });

    const { data: peerings, meta } = await mesh.peerings.list();
    for (const peering of peerings) console.log(peering.Name, peering.State, peering.Remote.Datacenter);
    console.log('index', meta.index);
    expect(logged.at(-1)).toEqual(['index', 1]);

    // Two clusters peer
    {
      const dc1 = createMeshClient({ address: process.env.DC1_MESH_ADDR, token: process.env.DC1_MESH_TOKEN });
      const dc2 = createMeshClient({ address: process.env.DC2_MESH_ADDR, token: process.env.DC2_MESH_TOKEN });

      const { data: generated } = await dc1.peerings.generateToken({
        PeerName: 'dc2',
        Meta: { owner: 'platform' },
      });
      await dc2.peerings.establish({ PeerName: 'dc1', PeeringToken: generated.PeeringToken });

      // Wait until it is ACTIVE
      for await (const { data: peering } of dc1.peerings.read.watch('dc2', { wait: '30s' })) {
        if (peering.State === 'ACTIVE') {
          console.log('peered with', peering.PeerServerName, 'in', peering.Remote.Datacenter);
          break;
        }
      }
      expect(logged.at(-1)?.slice(0, 1)).toEqual(['peered with']);
      expect(logged.at(-1)?.at(-1)).toBe('dc2');

      // Read, list, delete
      const { data: peering } = await dc2.peerings.read('dc1');
      console.log(peering.State, peering.StreamStatus?.LastHeartbeat, peering.PeerServerAddresses);

      const { data: all, meta } = await dc2.peerings.list();
      console.log(all.length, 'peerings; some hidden by the ACL:', meta.filteredByAcls === true);

      // Either side may delete: the other learns it over the stream. The record turns TERMINATED
      // (with DeletedAt), stays readable for a while, then is gone.
      await dc1.peerings.delete('dc2');
      for await (const { data: deleted } of dc2.peerings.read.watch('dc1', { wait: '30s' })) {
        if (deleted.State === 'TERMINATED') break;
      }
      expect(logged.at(-1)).toEqual([1, 'peerings; some hidden by the ACL:', false]);
      expect((await dc2.peerings.read('dc1')).data.DeletedAt).toMatch(/^\d{4}-/);

      // Errors
      // Refused before any request: not a lowercase DNS label.
      const refused = await dc1.peerings.generateToken({ PeerName: 'DC2' }).catch((error: unknown) => error);
      if (InvalidRequestError.is(refused)) console.log(refused.parameter, refused.message);

      // Refused by the service: the status and its message.
      const missing = await dc1.peerings.read('nowhere').catch((error: unknown) => error);
      if (ApiError.is(missing)) console.log(missing.status, missing.message); // 404 Peering not found for "nowhere"
      expect(logged.at(-2)?.[0]).toBe('PeerName');
      expect(logged.at(-1)).toEqual([404, 'Peering not found for "nowhere"']);
    }
  });

  it('has every TypeScript block of the README in this file', () => {
    // compared without whitespace and trailing commas, which the formatter sets by indentation
    const normalise = (text: string): string =>
      text
        .split('\n')
        .filter((line) => !line.trim().startsWith('import '))
        .join('')
        .replace(/\s+/g, '')
        .replace(/,([)\]}])/g, '$1');
    const source = normalise(readFileSync(fileURLToPath(import.meta.url), 'utf8'));
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) expect(source).toContain(normalise(block));
  });
});
