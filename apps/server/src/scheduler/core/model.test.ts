import {
  Allocation,
  CsiVolume,
  Deployment,
  Evaluation,
  Event,
  formatProblems,
  Job,
  JobDiff,
  JobSubmission,
  JobSummary,
  Node,
  validate,
} from '@sked/model';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';

import { jobKey } from './state/store.js';
import { serviceJob, testCluster } from './test/helpers.js';

function conforms(schema: TSchema, value: unknown): string {
  const r = validate(schema, value);
  return r.ok ? '' : formatProblems(r.problems);
}

describe('stored objects conform to the @sked/model schemas', () => {
  it('jobs, evaluations, allocations, deployments, nodes, volumes, summaries, submissions, diffs and events', async () => {
    const t = testCluster();
    t.cluster.registerVolume({ namespace: 'default', volumes: [{ ID: 'v', PluginID: 'p' }] });
    const update = { MaxParallel: 1, MinHealthyTime: 1e9 };
    t.cluster.registerJob({
      job: serviceJob('web', { Update: update }),
      submission: { Source: 'job "web" {}', Format: 'hcl2' },
    });
    t.run(3000);
    t.cluster.registerJob({
      job: serviceJob('web', { Update: update, Priority: 70 }, { Config: { run_for: '1h' } }),
    });
    t.run(3000);
    const s = t.cluster.store;
    expect(conforms(Job, s.jobs.get(jobKey('default', 'web')))).toBe('');
    for (const e of s.evals.items.values()) expect(conforms(Evaluation, e)).toBe('');
    for (const a of s.allocs.items.values()) expect(conforms(Allocation, a)).toBe('');
    for (const d of s.deployments.items.values()) expect(conforms(Deployment, d)).toBe('');
    for (const n of s.nodes.items.values()) expect(conforms(Node, n)).toBe('');
    for (const v of s.volumes.items.values()) expect(conforms(CsiVolume, v)).toBe('');
    expect(conforms(JobSummary, s.summaries.get(jobKey('default', 'web')))).toBe('');
    for (const sub of s.submissions.items.values()) expect(conforms(JobSubmission, sub)).toBe('');
    for (const d of t.cluster.jobVersions({ namespace: 'default', id: 'web', diffs: true }).Diffs ?? [])
      expect(conforms(JobDiff, d)).toBe('');
    for (const b of t.batches) for (const e of b.Events) expect(conforms(Event, e)).toBe('');
    await t.cluster.close();
  });
});
