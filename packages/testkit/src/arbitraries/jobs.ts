/** Arbitraries of submitted and stored jobs, their summaries, list items and register bodies. */
import {
  canonicalizeJob,
  JobStatus,
  JobType,
  type Job,
  type JobRegisterRequest,
  type JobInput,
  type JobListStub,
  type JobSummary,
  type TaskGroupInput,
  type TaskInput,
} from '@sked/model';
import fc from 'fast-check';
import { toJobListStub } from '../dataset/jobs.js';
import {
  indexArbitrary,
  jsonValueArbitrary,
  metaArbitrary,
  nameArbitrary,
  nanosecondsArbitrary,
  nullable,
  unixNanosecondsArbitrary,
  values,
} from './common.js';

/** A submitted task: `Name` and `Driver`, and a random subset of the other fields. */
export function taskInputArbitrary(): fc.Arbitrary<TaskInput> {
  return fc.record(
    {
      Name: nameArbitrary(),
      Driver: fc.constantFrom('mock', 'raw_exec', 'docker', 'exec'),
      User: fc.constantFrom('', 'nobody'),
      Config: nullable(fc.dictionary(nameArbitrary(), jsonValueArbitrary(), { maxKeys: 3 })),
      Env: nullable(
        fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), fc.string({ maxLength: 10 }), {
          maxKeys: 3,
        }),
      ),
      Meta: nullable(metaArbitrary()),
      KillTimeout: nanosecondsArbitrary(),
      KillSignal: fc.constantFrom('', 'SIGTERM', 'SIGINT'),
      Leader: fc.boolean(),
      Resources: fc.record(
        {
          CPU: fc.integer({ min: 0, max: 8000 }),
          MemoryMB: fc.integer({ min: 0, max: 16384 }),
          DiskMB: fc.integer({ min: 0, max: 1000 }),
        },
        { requiredKeys: [] },
      ),
      RestartPolicy: fc.record(
        {
          Attempts: fc.integer({ min: 0, max: 10 }),
          Interval: nanosecondsArbitrary(),
          Delay: nanosecondsArbitrary(),
          Mode: fc.constantFrom('fail', 'delay'),
        },
        { requiredKeys: [] },
      ),
      LogConfig: fc.record(
        { MaxFiles: fc.integer({ min: 1, max: 20 }), MaxFileSizeMB: fc.integer({ min: 1, max: 100 }) },
        { requiredKeys: [] },
      ),
      Templates: nullable(
        fc.array(
          fc.record({ DestPath: fc.constant('local/file'), EmbeddedTmpl: fc.string({ maxLength: 20 }) }),
          {
            maxLength: 2,
          },
        ),
      ),
      Services: nullable(
        fc.array(
          fc.record({ Name: nameArbitrary(), PortLabel: fc.constantFrom('http', '') }, { requiredKeys: [] }),
          {
            maxLength: 2,
          },
        ),
      ),
      Lifecycle: nullable(
        fc.record({ Hook: fc.constantFrom('prestart', 'poststart', 'poststop'), Sidecar: fc.boolean() }),
      ),
    },
    { requiredKeys: ['Name', 'Driver'] },
  );
}

/** A submitted task group: `Name` and a random subset of the other fields. */
export function taskGroupInputArbitrary(): fc.Arbitrary<TaskGroupInput> {
  return fc.record(
    {
      Name: nameArbitrary(),
      Count: fc.integer({ min: 0, max: 10 }),
      Tasks: fc.uniqueArray(taskInputArbitrary(), {
        minLength: 1,
        maxLength: 3,
        selector: (task) => task.Name,
      }),
      Meta: nullable(metaArbitrary()),
      Constraints: nullable(
        fc.array(
          fc.record(
            {
              LTarget: fc.constant('${attr.kernel.name}'),
              RTarget: fc.constant('linux'),
              Operand: fc.constantFrom('=', '!='),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      ),
      EphemeralDisk: fc.record(
        { SizeMB: fc.integer({ min: 10, max: 1000 }), Sticky: fc.boolean() },
        { requiredKeys: [] },
      ),
      Networks: nullable(
        fc.array(
          fc.record({
            Mode: fc.constantFrom('host', 'bridge'),
            DynamicPorts: fc.array(
              fc.record({ Label: nameArbitrary(), To: fc.integer({ min: 0, max: 65535 }) }),
              {
                maxLength: 2,
              },
            ),
          }),
          { maxLength: 1 },
        ),
      ),
      ShutdownDelay: nullable(nanosecondsArbitrary()),
    },
    { requiredKeys: ['Name'] },
  );
}

/** A submitted job ({@link JobInput}): `ID` and a random subset of the other fields. */
export function jobInputArbitrary(): fc.Arbitrary<JobInput> {
  return fc.record(
    {
      ID: nameArbitrary(),
      Name: nameArbitrary(),
      Namespace: fc.constantFrom('default', 'prod', 'dev'),
      Region: fc.constantFrom('global', 'eu'),
      Type: values(JobType),
      Priority: fc.integer({ min: 1, max: 100 }),
      AllAtOnce: fc.boolean(),
      Datacenters: nullable(fc.uniqueArray(fc.constantFrom('dc1', 'dc2', 'dc3'), { maxLength: 3 })),
      Meta: nullable(metaArbitrary()),
      TaskGroups: fc.uniqueArray(taskGroupInputArbitrary(), {
        maxLength: 3,
        selector: (group) => group.Name,
      }),
      Update: fc.record(
        {
          MaxParallel: fc.integer({ min: 0, max: 5 }),
          Canary: fc.integer({ min: 0, max: 3 }),
          AutoRevert: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
      Periodic: nullable(
        fc.record({ Spec: fc.constant('*/5 * * * *'), ProhibitOverlap: fc.boolean() }, { requiredKeys: [] }),
      ),
      ParameterizedJob: nullable(
        fc.record(
          {
            Payload: fc.constantFrom('optional', 'required', 'forbidden'),
            MetaRequired: fc.array(nameArbitrary(), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ['ID'] },
  );
}

/** A complete stored {@link Job}: a canonicalized {@link jobInputArbitrary} with server-set fields. */
export function jobArbitrary(): fc.Arbitrary<Job> {
  return fc
    .record({
      input: jobInputArbitrary(),
      status: values(JobStatus),
      version: fc.integer({ min: 0, max: 20 }),
      createIndex: indexArbitrary(),
      extra: fc.integer({ min: 0, max: 1000 }),
      submitTime: unixNanosecondsArbitrary(),
      stable: fc.boolean(),
    })
    .map(({ input, status, version, createIndex, extra, submitTime, stable }) => ({
      ...canonicalizeJob(input),
      Status: status,
      Version: version,
      Stable: stable,
      SubmitTime: submitTime,
      CreateIndex: createIndex,
      JobModifyIndex: createIndex + extra,
      ModifyIndex: createIndex + extra,
    }));
}

function groupSummaryArbitrary(): fc.Arbitrary<JobSummary['Summary'][string]> {
  const count = fc.integer({ min: 0, max: 50 });
  return fc.record({
    Queued: count,
    Complete: count,
    Failed: count,
    Running: count,
    Starting: count,
    Lost: count,
  });
}

/** A {@link JobSummary}. */
export function jobSummaryArbitrary(): fc.Arbitrary<JobSummary> {
  const count = fc.integer({ min: 0, max: 50 });
  return fc.record({
    JobID: nameArbitrary(),
    Namespace: fc.constantFrom('default', 'prod'),
    Summary: fc.dictionary(nameArbitrary(), groupSummaryArbitrary(), { maxKeys: 3 }),
    Children: fc.record({ Pending: count, Running: count, Dead: count }),
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
  });
}

/** A {@link JobListStub} (with `Meta` half of the time). */
export function jobListStubArbitrary(): fc.Arbitrary<JobListStub> {
  return fc
    .record({ job: jobArbitrary(), summary: jobSummaryArbitrary(), withMeta: fc.boolean() })
    .map(({ job, summary, withMeta }) => {
      const stub = toJobListStub(job, { ...summary, JobID: job.ID, Namespace: job.Namespace });
      if (!withMeta) delete stub.Meta;
      return stub;
    });
}

/** A {@link JobRegisterRequest} body: a submitted job and some of the optional flags. */
export function jobRegisterRequestArbitrary(): fc.Arbitrary<JobRegisterRequest> {
  return fc.record(
    {
      Job: jobInputArbitrary(),
      Submission: nullable(
        fc.record(
          { Source: fc.string({ maxLength: 40 }), Format: fc.constantFrom('hcl2', 'hcl1', 'json') },
          { requiredKeys: ['Source'] },
        ),
      ),
      EnforceIndex: fc.boolean(),
      EvalPriority: fc.integer({ min: 0, max: 100 }),
      JobModifyIndex: fc.integer({ min: 0, max: 1_000_000 }),
      PolicyOverride: fc.boolean(),
      PreserveCounts: fc.boolean(),
    },
    { requiredKeys: ['Job'] },
  );
}
