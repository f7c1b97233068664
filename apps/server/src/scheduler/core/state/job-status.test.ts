import { describe, expect, it } from 'vitest';

import { prepareJob } from '../defaults.js';
import type { Allocation, Job } from '../types.js';
import { deriveJobStatus } from './job-status.js';
import { jobKey } from './keys.js';
import { createStore } from './store.js';

const job = (id: string, extra: Record<string, unknown> = {}): Job => ({
  ...prepareJob(
    {
      ID: id,
      Type: 'batch',
      TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock' }] }],
      ...extra,
    },
    { region: 'global' },
  ),
  CreateIndex: 2,
  Status: 'pending',
});

const alloc = (j: Job, id: string, clientStatus: string): Allocation =>
  ({
    ID: id,
    Namespace: j.Namespace,
    JobID: j.ID,
    Job: j,
    TaskGroup: 'g',
    ClientStatus: clientStatus,
    CreateIndex: 3,
  }) as unknown as Allocation;

describe('deriveJobStatus', () => {
  it('keeps status, summary and events in step with any write, without a call at the write site', () => {
    const store = createStore();
    store.derive(deriveJobStatus);
    const types: string[] = [];
    const j = job('web');
    store.write((tx) => tx.put('jobs', j));
    // the job's own registration above has its event too: these are the ones its status derives
    store.onEvents((b) =>
      types.push(
        ...b.Events.filter((e) => e.Topic === 'Job').map((e) => `${e.Type}:${e.Payload.Job.Status}`),
      ),
    );
    expect(store.summaries.get(jobKey('default', 'web'))?.Summary['g']).toMatchObject({
      Starting: 0,
      Running: 0,
    });
    store.write((tx) => tx.put('allocs', alloc(j, 'a1', 'running')));
    expect(store.jobs.get(jobKey('default', 'web'))?.Status).toBe('running');
    expect(store.summaries.get(jobKey('default', 'web'))?.Summary['g']?.Running).toBe(1);
    store.write((tx) => tx.put('allocs', alloc(j, 'a1', 'complete')));
    expect(store.jobs.get(jobKey('default', 'web'))?.Status).toBe('dead');
    expect(store.summaries.get(jobKey('default', 'web'))?.Summary['g']).toMatchObject({
      Running: 0,
      Complete: 1,
    });
    expect(types).toEqual(['JobRegistered:running', 'JobRegistered:dead']);
  });

  it("refreshes a parent's children counts when a child is written or purged", () => {
    const store = createStore();
    store.derive(deriveJobStatus);
    const parent = job('p', {
      Periodic: {
        Enabled: true,
        Spec: '0 * * * *',
        SpecType: 'cron',
        ProhibitOverlap: false,
        TimeZone: 'UTC',
      },
    });
    const child = { ...job('p/periodic-1'), ParentID: 'p' };
    store.write((tx) => tx.put('jobs', parent));
    store.write((tx) => tx.put('jobs', child));
    expect(store.summaries.get(jobKey('default', 'p'))?.Children).toEqual({
      Pending: 1,
      Running: 0,
      Dead: 0,
    });
    store.write((tx) => tx.delete('jobs', jobKey('default', 'p/periodic-1')));
    expect(store.summaries.get(jobKey('default', 'p'))?.Children).toEqual({
      Pending: 0,
      Running: 0,
      Dead: 0,
    });
  });
});
