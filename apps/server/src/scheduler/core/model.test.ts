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
    expect(conforms(JobSummary, s.summaries.get(jobKey('default', 'web')))).toBe('');
    const diffs = t.cluster.jobVersions({ namespace: 'default', id: 'web', diffs: true }).Diffs ?? [];
    const events = t.batches.flatMap((b) => b.Events);
    // Each collection is checked item by item: none may be empty, or its loop would check nothing.
    const collections: [string, TSchema, readonly unknown[]][] = [
      ['evaluations', Evaluation, [...s.evals.items.values()]],
      ['allocations', Allocation, [...s.allocs.items.values()]],
      ['deployments', Deployment, [...s.deployments.items.values()]],
      ['nodes', Node, [...s.nodes.items.values()]],
      ['volumes', CsiVolume, [...s.volumes.items.values()]],
      ['submissions', JobSubmission, [...s.submissions.items.values()]],
      ['diffs', JobDiff, diffs],
      ['events', Event, events],
    ];
    for (const [name, schema, items] of collections) {
      const problems = items.map((item) => conforms(schema, item)).filter(Boolean);
      expect({ name, empty: items.length === 0, problems }).toEqual({ name, empty: false, problems: [] });
    }
    await t.cluster.close();
  });
});
