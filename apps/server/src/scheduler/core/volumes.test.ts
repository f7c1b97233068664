import type { JobInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import type { VolumeRegistration } from './api.js';
import { jobKey } from './state/store.js';
import { serviceJob, testCluster, withCount } from './test/helpers.js';

describe('volumes', () => {
  const vol: VolumeRegistration = {
    ID: 'data',
    Name: 'data',
    PluginID: 'ebs',
    AccessMode: 'single-node-writer',
    AttachmentMode: 'file-system',
  };
  const withVolume = (id: string): JobInput =>
    serviceJob(id, {
      group: { Count: 1, Volumes: { data: { Type: 'csi', Source: 'data', ReadOnly: false } } },
    });

  it('registers, refuses duplicates and in-use deletes, and frees after force', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [vol] });
    expect(() => t.cluster.registerVolume({ namespace: 'default', volumes: [vol] })).toThrow(
      'volume "data" already exists',
    );
    t.cluster.registerJob({ job: withVolume('db') });
    t.run(500);
    const claims = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims);
    expect(claims.map((c) => c.Mode)).toEqual(['write']);
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume "data" is in use',
    );
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data', force: true })).toThrow(
      'volume "data" is in use',
    );
    expect(() =>
      t.cluster.detachVolume({ namespace: 'default', id: 'data', node: claims[0]!.NodeID }),
    ).toThrow('volume "data" is in use');
    // A second writer cannot be placed.
    const second = t.cluster.registerJob({ job: withVolume('db2') });
    t.run(100);
    expect(t.cluster.store.evals.get(second.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      'CSI volume data has exhausted its available writer claims': 3,
    });
    t.cluster.deregisterJob({ namespace: 'default', id: 'db2', purge: true });
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(200);
    // The alloc is terminal but its claim is still held: force drops it.
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume "data" is in use',
    );
    t.cluster.deregisterVolume({ namespace: 'default', id: 'data', force: true });
    expect(t.cluster.store.volumes.size).toBe(0);
    expect(() => t.cluster.deregisterVolume({ namespace: 'default', id: 'data' })).toThrow(
      'volume not found',
    );
    await t.cluster.close();
  });

  it('validates registrations without storing anything', async () => {
    const t = testCluster();
    const index = t.cluster.store.index;
    expect(() => t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'x' }] })).toThrow(
      'Volume "x" is missing a PluginID',
    );
    expect(() =>
      t.cluster.registerVolume({
        namespace: 'default',
        volumes: [
          { ID: 'y', PluginID: 'p' },
          { ID: '', PluginID: 'p' },
        ],
      }),
    ).toThrow('Volume ID is required');
    expect(t.cluster.store.index).toBe(index);
    expect(t.cluster.store.volumes.size).toBe(0);
    await t.cluster.close();
  });
});

describe('volume detach', () => {
  it('drops the claims of finished allocations on a node, and names unknown volumes and nodes', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'data', PluginID: 'ebs' }] });
    const job = serviceJob('db', {
      group: { Count: 1, Volumes: { data: { Type: 'csi', Source: 'data', ReadOnly: true } } },
    });
    t.cluster.registerJob({ job });
    t.run(500);
    const claim = Object.values(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims)[0]!;
    expect(claim.Mode).toBe('read');
    expect(() => t.cluster.detachVolume({ namespace: 'default', id: 'nope', node: claim.NodeID })).toThrow(
      'volume not found',
    );
    expect(() => t.cluster.detachVolume({ namespace: 'default', id: 'data', node: 'ffff' })).toThrow(
      'node not found',
    );
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(200);
    t.cluster.detachVolume({ namespace: 'default', id: 'data', node: claim.NodeID.slice(0, 8) });
    expect(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims).toEqual({});
    t.cluster.deregisterVolume({ namespace: 'default', id: 'data' });
    expect(t.cluster.store.volumes.size).toBe(0);
    await t.cluster.close();
  });

  it('releases the claims of finished allocations by itself after a moment', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'data', PluginID: 'ebs' }] });
    const job = serviceJob('db', {
      group: { Count: 1, Volumes: { data: { Type: 'csi', Source: 'data', ReadOnly: false } } },
    });
    t.cluster.registerJob({ job });
    t.run(500);
    t.cluster.deregisterJob({ namespace: 'default', id: 'db' });
    t.run(2000);
    expect(t.cluster.store.volumes.get(jobKey('default', 'data'))!.Claims).toEqual({});
    await t.cluster.close();
  });
});

describe('events and nodes', () => {
  it('registers the simulated nodes with NodeRegistration events', async () => {
    const t = testCluster({ nodes: 2 });
    const nodes = [...t.cluster.store.nodes.items.values()];
    expect(nodes.map((n) => n.Attributes['driver.mock'])).toEqual(['1', '1']);
    expect(nodes[0]?.NodeResources.Cpu.CpuShares).toBe(4000);
    const r = t.cluster.setNodeEligibility({ nodeId: nodes[0]!.ID, eligible: false });
    expect(r.Index).toBe(t.cluster.store.index);
    expect(t.batches.flatMap((b) => b.Events).map((e) => e.Type)).toEqual(['NodeEligibility', 'NodeEvent']);
    await t.cluster.close();
  });

  it('emits job, evaluation and allocation events with filter keys, allocations without the job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(300);
    const events = t.batches.flatMap((b) => b.Events);
    const created = events.find((e) => e.Type === 'AllocationCreated');
    if (created?.Topic !== 'Allocation') throw new Error('no AllocationCreated event');
    const alloc = created.Payload.Allocation;
    expect(alloc).not.toHaveProperty('Job');
    // a service job gets the default update strategy, so its first allocations belong to a deployment
    expect(alloc.DeploymentID).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.FilterKeys).toEqual([alloc.JobID, alloc.EvalID, alloc.DeploymentID]);
    expect(events.slice(0, 2).map((e) => e.Type)).toEqual(['JobRegistered', 'EvaluationUpdated']);
    const indexes = t.batches.map((b) => b.Index);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    await t.cluster.close();
  });
});
