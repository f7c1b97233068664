import { jobFactory } from '@sked/testkit';
import { describe, expect, it } from 'vitest';

import type { Allocation } from '../types.js';
import { schedulerHarness } from '../test/scheduler-harness.js';

const serviceJob = jobFactory({ task: { Name: 'srv', Config: { run_for: '1h' } } });

/** A service job with one group `web` of `count` mock tasks (100 MHz, 64 MB each). */
const service = (
  id: string,
  count: number,
  extra: Record<string, unknown> = {},
  group: Record<string, unknown> = {},
) => serviceJob(id, { ...extra, group: { Count: count, ...group } });

const running = (a: Allocation): Allocation => ({ ...a, ClientStatus: 'running' });

describe('the scheduler, called directly on a read-only state', () => {
  it('places a group over distinct nodes and writes nothing', () => {
    const h = schedulerHarness();
    const job = h.job(service('web', 3));
    const index = h.store.index;
    const plan = h.plan(job);
    expect(plan.place.map((a) => a.Name)).toEqual(['web.web[0]', 'web.web[1]', 'web.web[2]']);
    expect(new Set(plan.place.map((a) => a.NodeID)).size).toBe(3);
    expect(plan.desired['web']).toMatchObject({ Place: 3, Stop: 0 });
    expect(plan.failed).toEqual({});
    expect(h.store.index).toBe(index);
    expect(h.store.allocs.size).toBe(0);
  });

  it('filters nodes by constraints and reports the failure with its metric', () => {
    const h = schedulerHarness();
    const job = h.job(
      service('win', 2, {
        Constraints: [{ LTarget: '${attr.kernel.name}', Operand: '=', RTarget: 'windows' }],
      }),
    );
    const plan = h.plan(job);
    expect(plan.place).toEqual([]);
    expect(plan.queued['web']).toBe(2);
    const m = plan.failed['web'];
    expect(m?.NodesEvaluated).toBe(3);
    expect(m?.NodesFiltered).toBe(3);
    expect(m?.ConstraintFiltered).toEqual({ '${attr.kernel.name} = windows': 3 });
    expect(m?.CoalescedFailures).toBe(1);
  });

  it('pins to a node, and honours distinct_hosts', () => {
    const h = schedulerHarness();
    const node = h.nodes[1]!;
    const pinned = h.job(
      service('pinned', 2, {
        Constraints: [{ LTarget: '${node.unique.id}', Operand: '=', RTarget: node.ID }],
      }),
    );
    expect(h.plan(pinned).place.map((a) => a.NodeID)).toEqual([node.ID, node.ID]);
    const distinct = h.job(
      service('distinct', 4, { Constraints: [{ Operand: 'distinct_hosts', RTarget: 'true' }] }),
    );
    const plan = h.plan(distinct);
    expect(plan.place).toHaveLength(3);
    expect(plan.failed['web']?.ConstraintFiltered).toEqual({ distinct_hosts: 3 });
  });

  it('spreads over a node attribute when asked, and bin-packs by rack otherwise', () => {
    const h = schedulerHarness({ nodes: 3 });
    const rack = (id: string): string => h.nodes.find((n) => n.ID === id)?.Meta['rack'] ?? '';
    const spread = h.job(service('spread', 2, { Spreads: [{ Attribute: '${meta.rack}', Weight: 100 }] }));
    expect(
      h
        .plan(spread)
        .place.map((a) => rack(a.NodeID))
        .sort(),
    ).toEqual(['r1', 'r2']);
  });

  it('places canaries of a destructive update and leaves the old allocations running', () => {
    const h = schedulerHarness();
    const update = { MaxParallel: 1, Canary: 1, HealthCheck: 'task_states', MinHealthyTime: 1e9 };
    const v0 = h.job(service('canary', 2, { Update: update }));
    const first = h.plan(v0);
    h.apply(first);
    h.update(...first.place.map(running));
    const v1 = h.job(
      service('canary', 2, { Update: update, Meta: { v: '2' } }, { Meta: { changed: 'yes' } }),
    );
    const changed = {
      ...v1,
      TaskGroups: v1.TaskGroups.map((g) => ({
        ...g,
        Tasks: g.Tasks.map((t) => ({ ...t, Env: { V: '2' } })),
      })),
    };
    const plan = h.plan(changed);
    expect(plan.stop).toEqual([]);
    expect(plan.place).toHaveLength(1);
    expect(plan.place[0]?.DeploymentStatus?.Canary).toBe(true);
    expect(plan.desired['web']).toMatchObject({ Canary: 1, Ignore: 2 });
    expect(plan.deployment?.TaskGroups['web']).toMatchObject({ DesiredCanaries: 1, Promoted: false });
    expect(plan.deployment?.TaskGroups['web']?.PlacedCanaries).toEqual([plan.place[0]?.ID]);
  });

  it('updates in place a version whose task fields hold the same values with their keys in another order', () => {
    const h = schedulerHarness();
    const v0 = h.job(service('reorder', 2));
    const first = h.plan(v0);
    h.apply(first);
    h.update(...first.place.map(running));
    const v1 = h.job(service('reorder', 2, { Meta: { v: '2' } }));
    const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;
    const reordered = {
      ...v1,
      TaskGroups: v1.TaskGroups.map((g) => ({
        ...reversed(g),
        Tasks: g.Tasks.map((t) => ({
          ...t,
          Resources: reversed(t.Resources),
          Config: reversed(t.Config ?? {}),
        })),
      })),
    };
    const [task] = reordered.TaskGroups[0]?.Tasks ?? [];
    expect(JSON.stringify(task?.Resources)).not.toBe(JSON.stringify(v1.TaskGroups[0]?.Tasks[0]?.Resources));
    const plan = h.plan(reordered);
    expect(plan.inPlace).toHaveLength(2);
    expect(plan.place).toEqual([]);
    expect(plan.stop).toEqual([]);
  });

  it('reschedules a failed allocation on another node, linking the two, or later through a follow-up', () => {
    const h = schedulerHarness();
    const policy = {
      Attempts: 2,
      Interval: 3600e9,
      Delay: 0,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    };
    const job = h.job(service('resched', 1, {}, { ReschedulePolicy: policy }));
    const first = h.plan(job);
    h.apply(first);
    const failed: Allocation = { ...first.place[0]!, ClientStatus: 'failed', ModifyTime: h.now * 1e6 };
    h.update(failed);
    const now = h.plan(job);
    expect(now.place).toHaveLength(1);
    expect(now.place[0]?.NodeID).not.toBe(failed.NodeID);
    expect(now.place[0]?.PreviousAllocation).toBe(failed.ID);
    expect(now.place[0]?.RescheduleTracker?.Events).toHaveLength(1);
    expect(now.replaced.get(failed.ID)).toBe(now.place[0]?.ID);

    const delayed = h.job(service('resched', 1, {}, { ReschedulePolicy: { ...policy, Delay: 30e9 } }));
    const later = h.plan(delayed);
    expect(later.place).toEqual([]);
    expect(later.followups).toEqual([{ alloc: failed, at: h.now + 30_000 }]);
  });

  it('stops everything of a stopped job and cancels its running deployment', () => {
    const h = schedulerHarness();
    const job = h.job(service('stopme', 2));
    h.apply(h.plan(job));
    const stopped = h.job({ ...service('stopme', 2), Stop: true });
    const plan = h.plan(stopped);
    expect(plan.stop.map((s) => s.description)).toEqual([
      'alloc not needed due to job update',
      'alloc not needed due to job update',
    ]);
    expect(plan.desired['web']?.Stop).toBe(2);
    expect(plan.place).toEqual([]);
  });
});
