import { fc, test } from '@fast-check/vitest';
import { jobFactory } from '@sked/testkit';
import { describe, expect } from 'vitest';

import { schedulerHarness } from '../test/scheduler-harness.js';
import type { Allocation, Job } from '../types.js';

/**
 * Laws of the scheduler, over random clusters and jobs, beside the example tests of
 * schedule.test.ts: placement never exceeds a node's resources, every placed allocation satisfies
 * its job's constraints, a group's count is placed or queued (never more, never lost), and a spread
 * over racks is even when nothing else limits it.
 */
const jobOf = jobFactory({ task: { Name: 'srv', Config: { run_for: '1h' } } });

const NODE_CPU = 4000;
const NODE_MEMORY = 8192;

interface JobDraw {
  readonly count: number;
  readonly cpu: number;
  readonly memory: number;
  /** Index of a node the job must avoid (`${node.unique.name} != node-N`), if any. */
  readonly avoid: number | undefined;
  readonly distinct: boolean;
}

const jobDraw = fc.record({
  count: fc.integer({ min: 1, max: 8 }),
  cpu: fc.integer({ min: 100, max: 3000 }),
  memory: fc.integer({ min: 64, max: 6000 }),
  avoid: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  distinct: fc.boolean(),
});

function jobInput(id: string, draw: JobDraw) {
  const constraints = [
    ...(draw.avoid === undefined
      ? []
      : [{ LTarget: '${node.unique.name}', Operand: '!=', RTarget: `node-${draw.avoid}` }]),
    ...(draw.distinct ? [{ Operand: 'distinct_hosts', RTarget: 'true' }] : []),
  ];
  return jobOf(id, {
    Constraints: constraints,
    group: { Count: draw.count },
    task: { Resources: { CPU: draw.cpu, MemoryMB: draw.memory } },
  });
}

/** CPU and memory a job's allocation asks for (the sum over its group's tasks). */
function ask(job: Job): { cpu: number; memory: number } {
  const tasks = job.TaskGroups[0]?.Tasks ?? [];
  return {
    cpu: tasks.reduce((sum, t) => sum + (t.Resources.CPU ?? 0), 0),
    memory: tasks.reduce((sum, t) => sum + (t.Resources.MemoryMB ?? 0), 0),
  };
}

describe('scheduler laws', () => {
  test.prop([fc.integer({ min: 1, max: 5 }), fc.array(jobDraw, { minLength: 1, maxLength: 4 })], {
    numRuns: 60,
  })(
    'placements fit the nodes, satisfy the constraints, and place or queue exactly the count',
    (nodeCount, draws) => {
      const h = schedulerHarness({ nodes: nodeCount });
      const placed: { job: Job; draw: JobDraw; alloc: Allocation }[] = [];
      draws.forEach((draw, i) => {
        const job = h.job(jobInput(`job-${i}`, draw));
        const plan = h.plan(job);
        // Count: every wanted allocation is placed or queued, none twice.
        expect(plan.place.length + (plan.queued['web'] ?? 0)).toBe(draw.count);
        expect(plan.stop).toEqual([]);
        h.apply(plan);
        for (const alloc of plan.place) placed.push({ job, draw, alloc });
      });
      // The first job fits on an empty node (at most 3000 MHz and 6000 MB), unless it avoids the only one.
      const firstBlocked = nodeCount === 1 && draws[0]?.avoid === 1;
      if (!firstBlocked) expect(placed.some((p) => p.job.ID === 'job-0')).toBe(true);
      // Resources: no node holds more than it has.
      const used = new Map<string, { cpu: number; memory: number }>();
      for (const { job, alloc } of placed) {
        const u = used.get(alloc.NodeID) ?? { cpu: 0, memory: 0 };
        const a = ask(job);
        used.set(alloc.NodeID, { cpu: u.cpu + a.cpu, memory: u.memory + a.memory });
      }
      for (const [node, u] of used) {
        const fits = { node, cpu: u.cpu <= NODE_CPU, memory: u.memory <= NODE_MEMORY };
        expect(fits).toEqual({ node, cpu: true, memory: true });
      }
      // Constraints: the avoided node gets none of the job's allocations; distinct_hosts holds.
      const nameOf = new Map(h.nodes.map((n) => [n.ID, n.Name]));
      for (const { draw, alloc } of placed) {
        if (draw.avoid !== undefined) expect(nameOf.get(alloc.NodeID)).not.toBe(`node-${draw.avoid}`);
        expect(h.nodes.some((n) => n.ID === alloc.NodeID)).toBe(true);
      }
      draws.forEach((draw, i) => {
        if (!draw.distinct) return;
        const nodes = placed.filter((p) => p.job.ID === `job-${i}`).map((p) => p.alloc.NodeID);
        expect(new Set(nodes).size).toBe(nodes.length);
      });
    },
  );

  test.prop([fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 8 })], { numRuns: 40 })(
    'a spread over racks places evenly when capacity does not limit it',
    (nodeCount, count) => {
      const h = schedulerHarness({ nodes: nodeCount });
      const job = h.job(
        jobOf('spread', {
          Spreads: [{ Attribute: '${meta.rack}', Weight: 100 }],
          group: { Count: count },
          task: { Resources: { CPU: 100, MemoryMB: 64 } },
        }),
      );
      const plan = h.plan(job);
      expect(plan.place).toHaveLength(count);
      const rackOf = new Map(h.nodes.map((n) => [n.ID, n.Meta['rack']]));
      const perRack = new Map<string, number>();
      for (const a of plan.place) {
        const rack = rackOf.get(a.NodeID) ?? '';
        perRack.set(rack, (perRack.get(rack) ?? 0) + 1);
      }
      const counts = ['r1', 'r2'].map((r) => perRack.get(r) ?? 0);
      expect(Math.abs((counts[0] ?? 0) - (counts[1] ?? 0))).toBeLessThanOrEqual(1);
    },
  );
});
