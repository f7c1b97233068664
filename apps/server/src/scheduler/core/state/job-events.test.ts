// One Job event per job per index, showing the state reads show after the commit.
import { describe, expect, it } from 'vitest';

import { jobKey } from './keys.js';
import { serviceJob, testCluster } from '../test/helpers.js';

describe('job events', () => {
  it('re-registering a stopped job emits one JobRegistered, as reads show the job', async () => {
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(100);
    t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    t.run(2000);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Status).toBe('dead');
    const from = t.batches.length;
    const r = t.cluster.registerJob({ job: serviceJob('web') });
    const jobEvents = t.batches
      .slice(from)
      .flatMap((b) => b.Events)
      .filter((e) => e.Topic === 'Job' && e.Index === r.Index);
    const read = t.cluster.store.jobs.get(jobKey('default', 'web'));
    expect(jobEvents.map((e) => e.Type)).toEqual(['JobRegistered']);
    const payload = jobEvents[0]?.Payload as { Job: { Status: string; Stop: boolean } } | undefined;
    expect({ Status: payload?.Job.Status, Stop: payload?.Job.Stop }).toEqual({
      Status: read?.Status,
      Stop: false,
    });
    expect(payload?.Job.Status).not.toBe('dead');
    await t.cluster.close();
  });

  it('every write has at most one Job event per job, whatever it did', async () => {
    const t = testCluster();
    const from = t.batches.length;
    for (let round = 0; round < 3; round++) {
      t.cluster.registerJob({ job: serviceJob('web', { Priority: 50 + round }) });
      t.run(200);
      t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
      t.run(200);
    }
    for (const batch of t.batches.slice(from)) {
      const keys = batch.Events.filter((e) => e.Topic === 'Job').map((e) => `${e.Namespace}/${e.Key}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    await t.cluster.close();
  });
});
