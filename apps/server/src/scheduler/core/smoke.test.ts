import { describe, expect, it } from 'vitest';
import { serviceJob, testCluster } from './test/helpers.js';
import { jobKey } from './store.js';

describe('smoke', () => {
  it('runs a service job', async () => {
    const t = testCluster();
    const r = t.cluster.registerJob({ job: serviceJob('web') });
    expect(r.EvalID).not.toBe('');
    t.run(1000);
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.map((a) => a.ClientStatus)).toEqual(['running', 'running']);
    expect(t.cluster.store.jobs.get(jobKey('default', 'web'))?.Status).toBe('running');
    console.log(JSON.stringify(allocs[0]?.TaskStates, null, 1));
    console.log(t.batches.map((b) => `${b.Index}:${b.Events.map((e) => e.Type).join(',')}`).join('\n'));
    await t.cluster.close();
  });
});
