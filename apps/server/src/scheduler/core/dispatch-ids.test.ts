// Dispatched child IDs pass the same checks as any job ID, or the dispatch is refused naming IdPrefixTemplate.
import { fc, test } from '@fast-check/vitest';
import { jobProblems } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { ClusterError } from './errors.js';
import { jobKey } from './state/store.js';
import { batchJob, testCluster } from './test/helpers.js';

/** What `fn` returned, or what it threw. */
function outcome(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    return e;
  }
}

const param = batchJob('report', { run_for: '1s' }, { ParameterizedJob: { Payload: 'optional' } });

describe('dispatchJob: IdPrefixTemplate', () => {
  it.each([
    ['a space', 'night ly', /contains a space/],
    ['200 characters', 'x'.repeat(200), /must be at most 128 characters/],
    ['a null character', 'a\u0000b', /null character/],
  ])(
    'refuses a template with %s with a 400 naming IdPrefixTemplate, storing nothing',
    async (_what, template, why) => {
      const t = testCluster();
      t.cluster.registerJob({ job: param });
      const before = { jobs: t.cluster.store.jobs.size, evals: t.cluster.store.evals.size };
      const error = outcome(() =>
        t.cluster.dispatchJob({ namespace: 'default', id: 'report', idPrefixTemplate: template }),
      );
      expect(ClusterError.is(error) && error.status).toBe(400);
      expect((error as Error).message).toMatch(/^Invalid IdPrefixTemplate "/);
      expect((error as Error).message).toMatch(why);
      expect({ jobs: t.cluster.store.jobs.size, evals: t.cluster.store.evals.size }).toEqual(before);
      await t.cluster.close();
    },
  );

  test.prop([fc.string({ maxLength: 140 })], { numRuns: 30 })(
    'any template gives a child whose ID registration accepts, or a 400 naming IdPrefixTemplate',
    async (template) => {
      const t = testCluster();
      t.cluster.registerJob({ job: param });
      try {
        const r = outcome(() =>
          t.cluster.dispatchJob({ namespace: 'default', id: 'report', idPrefixTemplate: template }),
        );
        if (ClusterError.is(r))
          expect([r.status, r.message.startsWith('Invalid IdPrefixTemplate ')]).toEqual([400, true]);
        else {
          const child = t.cluster.store.jobs.get(
            jobKey('default', (r as { DispatchedJobID: string }).DispatchedJobID),
          );
          expect(child && jobProblems(child).filter((p) => p.path === '/ID')).toEqual([]);
        }
      } finally {
        await t.cluster.close();
      }
    },
  );
});
