import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import type { Allocation, Deployment, DeploymentState, EventBatch, Job, Node } from '../types.js';
import { deriveEvents, type LoggedChange } from './events.js';
import { createStore } from './store.js';
import { serviceJob, testCluster } from '../test/helpers.js';

const WEB = { ID: 'web' } as unknown as Job;
const NO_TRANSITION = {};
const alloc = (fields: Partial<Allocation> = {}): Allocation =>
  ({
    ID: 'a1',
    Namespace: 'default',
    JobID: 'web',
    EvalID: 'e1',
    DeploymentID: '',
    ClientStatus: 'pending',
    DesiredStatus: 'run',
    DesiredDescription: '',
    DesiredTransition: NO_TRANSITION,
    NextAllocation: '',
    FollowupEvalID: '',
    TaskStates: null,
    ModifyIndex: 2,
    CreateIndex: 2,
    Job: WEB,
    ...fields,
  }) as unknown as Allocation;

const group = (fields: Partial<DeploymentState> = {}): DeploymentState =>
  ({
    HealthyAllocs: 0,
    UnhealthyAllocs: 0,
    Promoted: false,
    DesiredCanaries: 0,
    ...fields,
  }) as DeploymentState;
const deployment = (fields: Partial<Deployment> = {}): Deployment =>
  ({
    ID: 'd1',
    Namespace: 'default',
    JobID: 'web',
    Status: 'running',
    TaskGroups: { web: group() },
    ...fields,
  }) as unknown as Deployment;

const node = (fields: Partial<Node> = {}): Node =>
  ({
    ID: 'n1',
    Status: 'ready',
    Drain: false,
    DrainStrategy: null,
    SchedulingEligibility: 'eligible',
    Events: [],
    ...fields,
  }) as unknown as Node;

const job = (fields: Partial<Job> = {}): Job =>
  ({ ID: 'web', Namespace: 'default', Stop: false, ...fields }) as unknown as Job;

const types = (log: LoggedChange[], kind: Parameters<typeof deriveEvents>[0] = 'write'): string[] =>
  deriveEvents(kind, log, 7).map((e) => `${e.Topic}/${e.Type}`);

describe('deriveEvents', () => {
  it.each<[string, Allocation | undefined, Allocation, string[]]>([
    ['a new allocation', undefined, alloc(), ['Allocation/AllocationCreated']],
    ['its client status', alloc(), alloc({ ClientStatus: 'running' }), ['Allocation/AllocationUpdated']],
    ['a stop', alloc(), alloc({ DesiredStatus: 'stop' }), ['Allocation/AllocationUpdateDesiredStatus']],
    [
      'lost: client and desired status at once',
      alloc(),
      alloc({ DesiredStatus: 'stop', ClientStatus: 'lost' }),
      ['Allocation/AllocationUpdated'],
    ],
    ['its successor only', alloc(), alloc({ NextAllocation: 'a2', ModifyIndex: 3 }), []],
    ['its follow-up evaluation only', alloc(), alloc({ FollowupEvalID: 'e2' }), []],
    [
      'an in-place update of its job',
      alloc(),
      alloc({ Job: { ID: 'web', Version: 1 } as Job }),
      ['Allocation/AllocationUpdated'],
    ],
  ])('allocation: %s', (_what, before, after, expected) => {
    expect(types([{ table: 'allocs', before, after }])).toEqual(expected);
  });

  it('carries the allocation without its job, keyed by ID, filtered by job, evaluation and deployment', () => {
    const [event] = deriveEvents(
      'write',
      [{ table: 'allocs', before: undefined, after: alloc({ DeploymentID: 'd1' }) }],
      7,
    );
    expect(event).toMatchObject({ Key: 'a1', Namespace: 'default', FilterKeys: ['web', 'e1', 'd1'] });
    expect(event?.Topic).toBe('Allocation');
    expect(event?.Topic === 'Allocation' && event.Payload.Allocation).not.toHaveProperty('Job');
  });

  it.each<[string, Deployment | undefined, Deployment, string[]]>([
    ['a new deployment', undefined, deployment(), ['Deployment/PlanResult']],
    [
      'placements of the plan',
      deployment(),
      deployment({ TaskGroups: { web: group({ PlacedAllocs: 2 } as never) } }),
      ['Deployment/PlanResult'],
    ],
    [
      'a healthy allocation',
      deployment(),
      deployment({ TaskGroups: { web: group({ HealthyAllocs: 1 }) } }),
      ['Deployment/DeploymentAllocHealth'],
    ],
    [
      'health, promotion and completion at once, in that order',
      deployment(),
      deployment({ Status: 'successful', TaskGroups: { web: group({ HealthyAllocs: 1, Promoted: true }) } }),
      [
        'Deployment/DeploymentAllocHealth',
        'Deployment/DeploymentPromotion',
        'Deployment/DeploymentStatusUpdate',
      ],
    ],
    ['a failure', deployment(), deployment({ Status: 'failed' }), ['Deployment/DeploymentStatusUpdate']],
  ])('deployment: %s', (_what, before, after, expected) => {
    expect(types([{ table: 'deployments', before, after }])).toEqual(expected);
  });

  it('names a stopped or purged job by the kind of write, and keeps garbage collection silent', () => {
    const running = job();
    const stopped = job({ Stop: true });
    expect(types([{ table: 'jobs', before: running, after: stopped }], 'job-deregister')).toEqual([
      'Job/JobDeregistered',
    ]);
    expect(types([{ table: 'jobs', before: stopped, after: stopped }], 'job-batch-deregister')).toEqual([
      'Job/JobBatchDeregistered',
    ]);
    expect(types([{ table: 'jobs', before: running, after: undefined }], 'job-deregister')).toEqual([
      'Job/JobDeregistered',
    ]);
    expect(types([{ table: 'jobs', before: running, after: undefined }])).toEqual([]);
    expect(types([{ table: 'jobs', before: running, after: stopped }])).toEqual(['Job/JobRegistered']);
    // the status of a job stopped earlier in the same deregistration is a registration
    expect(
      types(
        [{ table: 'jobs', before: stopped, after: job({ Stop: true, Status: 'dead' }) }],
        'job-deregister',
      ),
    ).toEqual(['Job/JobRegistered']);
  });

  it('derives node registration, eligibility, drain (with NodeEvent) and deregistration as down', () => {
    const history = [{ Message: 'x' }] as unknown as Node['Events'];
    expect(types([{ table: 'nodes', before: undefined, after: node() }])).toEqual(['Node/NodeRegistration']);
    expect(
      types([
        {
          table: 'nodes',
          before: node(),
          after: node({ SchedulingEligibility: 'ineligible', Events: history }),
        },
      ]),
    ).toEqual(['Node/NodeEligibility', 'Node/NodeEvent']);
    expect(
      types([
        {
          table: 'nodes',
          before: node(),
          after: node({ Drain: true, SchedulingEligibility: 'ineligible', Events: history }),
        },
      ]),
    ).toEqual(['Node/NodeDrain', 'Node/NodeEvent']);
    const [gone] = deriveEvents('write', [{ table: 'nodes', before: node(), after: undefined }], 7);
    expect(gone).toMatchObject({ Type: 'NodeDeregistration', Namespace: '', FilterKeys: null });
    expect(gone?.Topic === 'Node' && gone.Payload.Node).toMatchObject({
      ID: 'n1',
      Status: 'down',
      ModifyIndex: 7,
    });
  });

  it('derives nothing for the tables without a topic', () => {
    expect(
      types([
        { table: 'summaries', before: undefined, after: {} as never },
        { table: 'jobVersions', before: undefined, after: job() },
        { table: 'volumes', before: undefined, after: {} as never },
      ]),
    ).toEqual([]);
  });
});

describe('the store derives the events of every write', () => {
  it('emits the events of a write that never named one, in the order of its changes', () => {
    // Arrange: a write site that only puts (as a new one would)
    const store = createStore();
    const batches: EventBatch[] = [];
    store.onEvents((b) => batches.push(b));
    // Act
    store.write((tx) => {
      tx.put('allocs', alloc());
      tx.put('deployments', deployment());
      tx.put('allocs', alloc({ ClientStatus: 'running' }));
    });
    // Assert
    expect(batches.map((b) => b.Events.map((e) => `${e.Index}/${e.Type}/${e.Key}`))).toEqual([
      ['2/AllocationCreated/a1', '2/PlanResult/d1', '2/AllocationUpdated/a1'],
    ]);
  });

  it('does not move a table for an item put again unchanged, but still derives its event', () => {
    const store = createStore();
    const stopped = job({ Stop: true });
    store.write((tx) => tx.put('jobs', stopped));
    const batches: EventBatch[] = [];
    store.onEvents((b) => batches.push(b));
    store.write((tx) => tx.put('jobs', stopped), 'job-deregister');
    expect(store.jobs.watch.current).toBe(2);
    expect(batches.map((b) => b.Events.map((e) => e.Type))).toEqual([['JobDeregistered']]);
  });

  test.prop([
    fc.array(
      fc.record({
        client: fc.constantFrom('pending', 'running', 'complete'),
        desired: fc.constantFrom('run', 'stop'),
        next: fc.constantFrom('', 'a2'),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  ])(
    'an allocation put in consecutive writes has an event for each write that changed more than its links',
    (steps) => {
      const store = createStore();
      const seen: string[] = [];
      store.onEvents((b) => seen.push(...b.Events.map((e) => e.Type)));
      let previous: Allocation | undefined;
      const expected: string[] = [];
      for (const s of steps) {
        const next = alloc({ ClientStatus: s.client, DesiredStatus: s.desired, NextAllocation: s.next });
        if (previous === undefined) expected.push('AllocationCreated');
        else if (previous.ClientStatus !== next.ClientStatus) expected.push('AllocationUpdated');
        else if (previous.DesiredStatus !== next.DesiredStatus)
          expected.push('AllocationUpdateDesiredStatus');
        // else: only its link to a successor changed, or nothing: no event
        store.write((tx) => tx.put('allocs', next));
        previous = next;
      }
      expect(seen).toEqual(expected);
    },
  );
});

describe('events of the cluster', () => {
  it('deregisters an already stopped job with JobDeregistered, without moving the jobs table', async () => {
    // Arrange
    const t = testCluster();
    t.cluster.registerJob({ job: serviceJob('web') });
    t.run(100);
    t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    t.run(100);
    const jobsIndex = t.cluster.store.jobs.watch.current;
    const from = t.batches.length;
    // Act
    const r = t.cluster.deregisterJob({ namespace: 'default', id: 'web' });
    // Assert
    const events = t.batches.slice(from).flatMap((b) => b.Events);
    expect(events.map((e) => `${e.Index}/${e.Type}/${e.Key}`).slice(0, 2)).toEqual([
      `${r.Index}/JobDeregistered/web`,
      `${r.Index}/EvaluationUpdated/${r.EvalID}`,
    ]);
    expect(t.cluster.store.jobs.watch.current).toBe(jobsIndex);
    await t.cluster.close();
  });
});
