import type {
  Allocation,
  CsiVolume,
  CsiVolumeListStub,
  Deployment,
  Evaluation,
  Event,
  Job,
  JobListStub,
  JobRegisterResponse,
  JobSubmission,
} from '@sked/model';
import { describe, expectTypeOf, it } from 'vitest';

import {
  createClient,
  isEventOf,
  streamEvents,
  type EventOf,
  type Result,
  type SchedulerClient,
  type TypedEvent,
} from './index.js';

// Checked by `tsc` (the typecheck script); at run time these assertions do nothing.
describe('public types', () => {
  const client: SchedulerClient = createClient({ address: 'http://127.0.0.1:1', env: false });

  it('types each result with the model', () => {
    expectTypeOf(client.jobs.list).returns.toEqualTypeOf<Promise<Result<JobListStub[]>>>();
    expectTypeOf(client.jobs.read).returns.toEqualTypeOf<Promise<Result<Job>>>();
    expectTypeOf(client.jobs.create).returns.toEqualTypeOf<Promise<Result<JobRegisterResponse>>>();
    expectTypeOf(client.jobs.submission).returns.toEqualTypeOf<Promise<Result<JobSubmission>>>();
    expectTypeOf(client.jobs.latestDeployment).returns.toEqualTypeOf<Promise<Result<Deployment | null>>>();
    expectTypeOf(client.allocations.read).returns.toEqualTypeOf<Promise<Result<Allocation>>>();
    expectTypeOf(client.volumes.list).returns.toEqualTypeOf<Promise<Result<CsiVolumeListStub[]>>>();
    expectTypeOf(client.volumes.read).returns.toEqualTypeOf<Promise<Result<CsiVolume>>>();
  });

  it('types the iterators', () => {
    expectTypeOf(client.jobs.list.items).returns.toEqualTypeOf<AsyncIterable<JobListStub>>();
    expectTypeOf(client.allocations.list.pages).returns.toEqualTypeOf<AsyncIterable<Result<Allocation[]>>>();
    expectTypeOf(client.jobs.read.watch).returns.toEqualTypeOf<AsyncIterable<Result<Job>>>();
  });

  it('accepts text or a built expression as a filter, and nothing else', () => {
    expectTypeOf(client.jobs.list).toBeCallableWith({ filter: 'Status == "running"' });
    // @ts-expect-error a number is not a filter
    void client.jobs.list({ filter: 42 }).catch(() => undefined);
    // @ts-expect-error volumes support only the csi type
    void client.volumes.list({ type: 'host' }).catch(() => undefined);
  });

  it('types the event stream by topic: Topic narrows Payload', () => {
    expectTypeOf(client.events).returns.toEqualTypeOf<AsyncIterable<TypedEvent>>();
    expectTypeOf(streamEvents).returns.toEqualTypeOf<AsyncIterable<TypedEvent>>();
    const check = async (): Promise<void> => {
      for await (const e of client.events({ topics: ['Job', 'Allocation', 'Evaluation'] })) {
        if (e.Topic === 'Job') expectTypeOf(e.Payload.Job.ID).toEqualTypeOf<string>();
        if (e.Topic === 'Allocation') {
          expectTypeOf(e.Payload.Allocation).toEqualTypeOf<Omit<Allocation, 'Job'>>();
          // @ts-expect-error an allocation in an event has no Job
          void e.Payload.Allocation.Job;
        }
        if (e.Topic === 'Evaluation') expectTypeOf(e.Payload.Evaluation).toEqualTypeOf<Evaluation>();
        // @ts-expect-error the payload of an event of unknown topic has no typed Job
        void e.Payload.Job.ID;
        if (isEventOf(e, 'Deployment')) expectTypeOf(e).toEqualTypeOf<EventOf<'Deployment'>>();
        else expectTypeOf(e.Topic).toEqualTypeOf<string>();
        // every event is still a plain Event of the model
        expectTypeOf(e).toExtend<Event>();
      }
    };
    expectTypeOf(check).returns.toEqualTypeOf<Promise<void>>();
  });
});
