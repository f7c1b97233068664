import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { serviceJob, testCluster, withCount } from './test/helpers.js';

describe('placement', () => {
  it('spreads a group over the nodes and respects constraints', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 3) });
    t.run(100);
    const nodes = new Set(t.cluster.store.ofJob('allocs', 'default', 'web').map((a) => a.NodeID));
    expect(nodes.size).toBe(3);
    const node = [...t.cluster.store.nodes.items.values()][1]!;
    t.cluster.registerJob({
      job: withCount(
        serviceJob('pinned', {
          Constraints: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID }],
        }),
        2,
      ),
    });
    t.run(100);
    expect(t.cluster.store.ofJob('allocs', 'default', 'pinned').map((a) => a.NodeID)).toEqual([
      node.ID,
      node.ID,
    ]);
    await t.cluster.close();
  });

  it('blocks the evaluation with metrics when a constraint filters every node', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({
      job: serviceJob('win', {
        Constraints: [{ LTarget: '${attr.kernel.name}', Operand: '=', RTarget: 'windows' }],
      }),
    });
    t.run(100);
    const ev = t.cluster.store.evals.get(r.EvalID)!;
    expect(ev.Status).toBe('complete');
    expect(ev.FailedTGAllocs?.['web']).toMatchObject({
      NodesEvaluated: 3,
      NodesFiltered: 3,
      ConstraintFiltered: { '${attr.kernel.name} = windows': 3 },
      CoalescedFailures: 1,
    });
    const blocked = t.cluster.store.evals.get(ev.BlockedEval)!;
    expect(blocked.Status).toBe('blocked');
    expect(blocked.StatusDescription).toBe('created to place remaining allocations');
    expect(t.cluster.store.summaries.get(jobKey('default', 'win'))?.Summary['web']?.Queued).toBe(2);
    expect(t.cluster.store.jobs.get(jobKey('default', 'win'))?.Status).toBe('pending');
    await t.cluster.close();
  });

  it('honours distinct_hosts', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({
      job: withCount(
        serviceJob('d', { Constraints: [{ LTarget: '', Operand: 'distinct_hosts', RTarget: 'true' }] }),
        4,
      ),
    });
    t.run(100);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'd');
    expect(new Set(allocs.map((a) => a.NodeID)).size).toBe(3);
    expect(allocs).toHaveLength(3);
    expect(t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      distinct_hosts: 3,
    });
    await t.cluster.close();
  });

  it('honours distinct_property on node meta', async () => {
    const t = testCluster();
    t.cluster.registerJob({
      job: withCount(
        serviceJob('p', {
          Constraints: [{ LTarget: '${meta.rack}', Operand: 'distinct_property', RTarget: '1' }],
        }),
        3,
      ),
    });
    t.run(100);
    const racks = t.cluster.store
      .ofJob('allocs', 'default', 'p')
      .map((a) => t.cluster.store.nodes.get(a.NodeID)?.Meta['rack']);
    expect(racks.sort((a, b) => String(a).localeCompare(String(b)))).toEqual(['r1', 'r2']);
    await t.cluster.close();
  });

  it('blocks on exhausted resources and places once capacity frees up', async () => {
    const t = testCluster({ nodes: 1 });
    t.cluster.registerJob({
      job: withCount(serviceJob('hog', {}, { Resources: { CPU: 3000, MemoryMB: 64 } }), 1),
    });
    t.run(500);
    const r = t.cluster.registerJob({
      job: withCount(serviceJob('late', {}, { Resources: { CPU: 2000, MemoryMB: 64 } }), 1),
    });
    t.run(500);
    const ev = t.cluster.store.evals.get(r.EvalID)!;
    expect(ev.FailedTGAllocs?.['web']).toMatchObject({ NodesExhausted: 1, DimensionExhausted: { cpu: 1 } });
    const blockedId = ev.BlockedEval;
    expect(t.cluster.store.evals.get(blockedId)?.Status).toBe('blocked');
    expect(t.cluster.store.ofJob('allocs', 'default', 'late')).toHaveLength(0);
    // Act: free the capacity
    t.cluster.deregisterJob({ namespace: 'default', id: 'hog' });
    t.run(7000);
    // Assert
    expect(t.cluster.store.evals.get(blockedId)?.Status).toBe('complete');
    const late = t.cluster.store.ofJob('allocs', 'default', 'late');
    expect(late.map((a) => a.ClientStatus)).toEqual(['running']);
    await t.cluster.close();
  });

  it('stops extra allocations when the count goes down, and updates in place when only the count changes', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 3) });
    t.run(500);
    t.cluster.registerJob({ job: withCount(serviceJob('web'), 1) });
    t.run(7000);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    const live = allocs.filter((a) => a.DesiredStatus === 'run');
    expect(live.map((a) => a.Name)).toEqual(['web.web[0]']);
    expect(live[0]?.JobVersion).toBe(1);
    expect(allocs.filter((a) => a.DesiredStatus === 'stop').every((a) => a.ClientStatus === 'complete')).toBe(
      true,
    );
    await t.cluster.close();
  });

  it('runs one allocation per node for a system job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: { ...serviceJob('agent'), Type: 'system' } });
    t.run(300);
    expect(t.cluster.store.ofJob('allocs', 'default', 'agent')).toHaveLength(3);
    await t.cluster.close();
  });
});

describe('affinities', () => {
  it('prefer the nodes that match, without excluding the others', async () => {
    const t = testCluster();
    const node = [...t.cluster.store.nodes.items.values()][2]!;
    t.cluster.registerJob({
      job: withCount(
        serviceJob('aff', {
          Affinities: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID, Weight: 100 }],
        }),
        1,
      ),
    });
    t.run(100);
    expect(t.cluster.store.ofJob('allocs', 'default', 'aff')[0]?.NodeID).toBe(node.ID);
    t.cluster.registerJob({
      job: withCount(
        serviceJob('anti', {
          Affinities: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID, Weight: -100 }],
        }),
        2,
      ),
    });
    t.run(100);
    const nodes = t.cluster.store.ofJob('allocs', 'default', 'anti').map((a) => a.NodeID);
    expect(nodes).toHaveLength(2);
    expect(nodes).not.toContain(node.ID);
    await t.cluster.close();
  });
});

describe('ports', () => {
  it('gives dynamic ports, refuses reserved port collisions and passes the ports in the environment', async () => {
    const envs: Record<string, string>[] = [];
    const capture = {
      name: 'capture',
      start(spec: { env: Readonly<Record<string, string>> }, sink: { event(e: { Type: string }): void }) {
        envs.push({ ...spec.env });
        sink.event({ Type: 'Started' });
        return { signal: () => undefined, stop: () => Promise.resolve() };
      },
    };
    const t = testCluster({ drivers: [capture] });
    const job = serviceJob(
      'ports',
      {
        group: {
          Count: 4,
          Networks: [
            { ReservedPorts: [{ Label: 'admin', Value: 9000 }], DynamicPorts: [{ Label: 'http', To: 8080 }] },
          ],
        },
      },
      { Driver: 'capture' },
    );
    const r = t.cluster.registerJob({ job });
    t.run(300);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'ports');
    expect(allocs).toHaveLength(3);
    expect(t.cluster.store.evals.get(r.EvalID)?.FailedTGAllocs?.['web']?.ConstraintFiltered).toEqual({
      'network: reserved port collision admin=9000': 3,
    });
    const ports = (allocs[0]!.AllocatedResources!['Shared'] as { Ports: { Label: string; Value: number }[] })
      .Ports;
    expect(ports.map((p) => [p.Label, p.Value])).toEqual([
      ['admin', 9000],
      ['http', 20000],
    ]);
    expect(envs[0]).toMatchObject({
      SKED_PORT_http: '8080',
      SKED_HOST_PORT_http: '20000',
      SKED_PORT_admin: '9000',
    });
    expect(envs[0]!['SKED_ADDR_http']).toMatch(/^127\.0\.0\.\d+:20000$/);
    await t.cluster.close();
  });
});

describe('spreads', () => {
  const rackOf = (t: ReturnType<typeof testCluster>, job: string): string[] =>
    t.cluster.store
      .ofJob('allocs', 'default', job)
      .map((a) => t.cluster.store.nodes.get(a.NodeID)!.Meta['rack']!)
      .sort((a, b) => a.localeCompare(b));

  it.each([
    [undefined, ['r2', 'r2']],
    [[{ Attribute: '${meta.rack}', Weight: 100 }], ['r1', 'r2']],
  ])('with spreads %j the group lands on racks %j', async (spreads, want) => {
    // Arrange: 4 nodes on racks r1, r2, r1, r2; the r2 nodes are busy, so bin packing prefers them.
    const t = testCluster({ nodes: 4 });
    t.cluster.registerJob({
      job: withCount(
        serviceJob(
          'filler',
          { Constraints: [{ LTarget: '${meta.rack}', Operand: '=', RTarget: 'r2' }] },
          {
            Resources: { CPU: 3000, MemoryMB: 4000 },
          },
        ),
        2,
      ),
    });
    t.run(100);
    // Act
    t.cluster.registerJob({ job: withCount(serviceJob('s', spreads ? { Spreads: spreads } : {}), 2) });
    t.run(100);
    // Assert
    expect(rackOf(t, 's')).toEqual(want);
    await t.cluster.close();
  });
});
