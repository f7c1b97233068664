/**
 * Public-API type tests, checked by `tsc` (`pnpm typecheck`): the static types follow the schemas.
 */
import { expectTypeOf } from 'vitest';

import {
  canonicalizeJob,
  validate,
  type Allocation,
  type Job,
  type JobInput,
  type SchedulerJob,
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
