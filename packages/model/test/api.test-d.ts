/**
 * Public-API type tests, checked by `tsc` (`pnpm typecheck`): the static types follow the schemas.
 */
import { expectTypeOf } from 'vitest';

import {
  canonicalizeJob,
  isEventOf,
  validate,
  type Allocation,
  type Deployment,
  type Evaluation,
  type Event,
  type EventOf,
  type EventTopic,
  type KnownEvent,
  type Node,
  type SchedulerJob,
  type TypedEvent,
  type TypedEventTopic,
  type Job,
  type JobInput,
  type SchedulerJobInput,
  type SchedulerJobType,
  type JobRegisterRequest as JobRegisterRequestType,
  JobRegisterRequest,
  type JobStatus,
  JobType,
  type TaskEventType,
  type TaskState,
  type ValidationProblem,
} from '../src/index.js';

// Stored shapes: every field present; absent objects and lists are null.
expectTypeOf<Job['Priority']>().toEqualTypeOf<number>();
expectTypeOf<Job['Type']>().toEqualTypeOf<JobType>();
expectTypeOf<Job['Status']>().toEqualTypeOf<JobStatus>();
expectTypeOf<Job['Meta']>().toEqualTypeOf<Record<string, string> | null>();
expectTypeOf<Job['Periodic']>().toExtend<object | null>();
expectTypeOf<Job['TaskGroups'][number]['Count']>().toEqualTypeOf<number>();

// Input shapes: only the ID (and group/task names, task driver) are required.
expectTypeOf<{ ID: string }>().toExtend<JobInput>();
expectTypeOf<JobInput['Priority']>().toEqualTypeOf<number | undefined>();
expectTypeOf<{ Job: { ID: string } }>().toExtend<JobRegisterRequestType>();

// Lists leave out the job and may leave out task states.
expectTypeOf<Allocation['Job']>().toEqualTypeOf<Job | undefined>();
expectTypeOf<TaskState['State']>().toEqualTypeOf<'pending' | 'running' | 'dead'>();
expectTypeOf<'Started'>().toExtend<TaskEventType>();

// Constants are literal unions.
expectTypeOf<JobType>().toEqualTypeOf<'service' | 'batch' | 'sysbatch'>();
expectTypeOf(JobType.Batch).toEqualTypeOf<'batch'>();

// validate narrows to the schema's static type.
const result = validate(JobRegisterRequest, {});
if (result.ok) expectTypeOf(result.value).toEqualTypeOf<JobRegisterRequestType>();
else expectTypeOf(result.problems).toEqualTypeOf<readonly ValidationProblem[]>();

// canonicalizeJob keeps the family of its input: a JobInput gives a Job, a SchedulerJobInput (whose
// Type may be `system`) a SchedulerJob; every JobInput is a SchedulerJobInput.
declare const submitted: JobInput;
declare const scheduled: SchedulerJobInput;
expectTypeOf(canonicalizeJob(submitted)).toEqualTypeOf<Job>();
expectTypeOf(canonicalizeJob(scheduled)).toEqualTypeOf<SchedulerJob>();
expectTypeOf<JobInput>().toExtend<SchedulerJobInput>();
expectTypeOf<SchedulerJobInput['Type']>().toEqualTypeOf<SchedulerJobType | undefined>();

// Typed events: Topic narrows Payload; a topic this version does not know stays a plain string.
declare const streamed: TypedEvent;
if (streamed.Topic === 'Job') {
  // the same fields as a SchedulerJob (its Type may be `system`), flattened
  expectTypeOf(streamed.Payload.Job).toExtend<SchedulerJob>();
  expectTypeOf<SchedulerJob>().toExtend<typeof streamed.Payload.Job>();
}
if (streamed.Topic === 'Allocation') {
  expectTypeOf(streamed.Payload.Allocation).toEqualTypeOf<Omit<Allocation, 'Job'>>();
  // @ts-expect-error an allocation in an event has no Job
  void streamed.Payload.Allocation.Job;
}
switch (streamed.Topic) {
  case 'Node':
  case 'NodeDrain':
    expectTypeOf(streamed.Payload.Node).toEqualTypeOf<Node>();
    break;
  case 'Evaluation':
    expectTypeOf(streamed.Payload.Evaluation).toEqualTypeOf<Evaluation>();
    break;
  case 'ACLToken':
    expectTypeOf(streamed.Payload.ACLToken).toEqualTypeOf<Record<string, unknown>>();
    break;
  default:
    // every other topic, including ones a newer server adds, still has its fields
    expectTypeOf(streamed.Topic).toEqualTypeOf<string>();
}
expectTypeOf<TypedEvent>().toExtend<Event>();
expectTypeOf<EventOf<'Deployment'>['Payload']>().toEqualTypeOf<{ Deployment: Deployment }>();
expectTypeOf<EventOf<'Deployment'>['Type']>().toEqualTypeOf<string>();
expectTypeOf<TypedEventTopic>().toEqualTypeOf<Exclude<EventTopic, '*'>>();
expectTypeOf<KnownEvent['Topic']>().toEqualTypeOf<TypedEventTopic>();
// @ts-expect-error `*` is a subscription, not the topic of an event
expectTypeOf<EventOf<'*'>>();

// isEventOf narrows a plain Event and a TypedEvent to the topic's event.
declare const plain: Event;
if (isEventOf(plain, 'Deployment')) expectTypeOf(plain).toEqualTypeOf<EventOf<'Deployment'>>();
if (isEventOf(streamed, 'NodeDrain')) expectTypeOf(streamed).toEqualTypeOf<EventOf<'NodeDrain'>>();
