import { makeWideJob } from '@sked/testkit';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/server.js';

const GROUPS = 2000;

interface Observation {
  /** The index the read answered at. */
  readonly index: number;
  /** Allocations of the job seen, per evaluation that placed them. */
  readonly perEval: Map<string, number>;
  readonly total: number;
}

describe('placing a job of 2,000 groups', () => {
  it('answers other requests while it places, and no read sees part of an evaluation’s plan', async () => {
    // Arrange: a real listener, 6 nodes (every allocation fits), and a reader of the job's
    // allocations and of the leader over HTTP for as long as the placement goes on.
    const t = await startTestServer({ nodes: 6 });
    const { url } = t.server.scheduler;
    const store = t.server.scheduler.cluster.store;
    const placed = (): number => store.ofJob('allocs', 'default', 'big').length;
    const observations: Observation[] = [];
    const leaderAnswersWhilePlacing: number[] = [];
    let placing = true;
    const readAllocs = async (): Promise<void> => {
      while (placing) {
        const res = await fetch(`${url}/v1/job/big/allocations`, {
          headers: { 'accept-encoding': 'identity' },
        });
        const allocs = (await res.json()) as { EvalID: string }[];
        const perEval = new Map<string, number>();
        for (const a of allocs) perEval.set(a.EvalID, (perEval.get(a.EvalID) ?? 0) + 1);
        observations.push({ index: Number(res.headers.get('x-svc-index')), perEval, total: allocs.length });
        await new Promise((r) => setTimeout(r, 50)); // a read of up to 2,000 allocations costs the server too
      }
    };
    const readLeader = async (): Promise<void> => {
      while (placing) {
        const res = await fetch(`${url}/v1/status/leader`);
        expect(res.status).toBe(200);
        await res.text();
        const n = placed();
        if (n > 0 && n < GROUPS) leaderAnswersWhilePlacing.push(n);
      }
    };

    // Act
    const res = await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      body: JSON.stringify({ Job: makeWideJob('big', GROUPS) }),
    });
    expect(res.status).toBe(200);
    const readers = Promise.all([readAllocs(), readLeader()]);
    const deadline = Date.now() + 120_000;
    while (placed() < GROUPS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    placing = false;
    await readers;

    // Assert: every group placed, in more than one evaluation (slices) ...
    const final = new Map<string, number>();
    for (const a of store.ofJob('allocs', 'default', 'big'))
      final.set(a.EvalID, (final.get(a.EvalID) ?? 0) + 1);
    expect([...final.values()].reduce((x, y) => x + y, 0)).toBe(GROUPS);
    expect(final.size).toBeGreaterThan(1);
    // ... other requests answered between the slices: the leader, and reads of the job itself that
    // saw it partly placed ...
    expect(leaderAnswersWhilePlacing.length).toBeGreaterThanOrEqual(3);
    const partial = observations.filter((o) => o.total > 0 && o.total < GROUPS);
    expect(new Set(partial.map((o) => o.total)).size).toBeGreaterThanOrEqual(2);
    // ... and each read saw every evaluation's placements whole or not at all: a plan is one commit.
    for (const o of observations)
      for (const [evalId, n] of o.perEval)
        expect({ index: o.index, evalId, n }).toEqual({ index: o.index, evalId, n: final.get(evalId) });
  }, 180_000);
});
