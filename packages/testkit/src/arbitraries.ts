/**
 * fast-check arbitraries for the model: every generated value matches its `@sked/model` schema.
 *
 * @packageDocumentation
 */
import {
  AllocClientStatus,
  AllocDesiredStatus,
  CsiVolumeAccessMode,
  CsiVolumeAttachmentMode,
  DeploymentStatus,
  EvalStatus,
  EvalTriggeredBy,
  EventTopic,
  EventType,
  JobStatus,
  JobType,
  NodeSchedulingEligibility,
  NodeStatus,
  PeeringState,
  TaskEventType,
  TaskStateName,
  canonicalizeJob,
  type Allocation,
  type AllocationMetric,
  type CsiVolume,
  type Deployment,
  type DeploymentState,
  type Evaluation,
  type Event,
  type EventEnvelope,
  type ExecClientFrame,
  type ExecServerFrame,
  type Job,
  type JobRegisterRequest,
  type LdapConfigRequest,
  type Node,
  type Peering,
  type JobInput,
  type JobListStub,
  type JobSummary,
  type TaskEvent,
  type TaskGroupInput,
  type TaskInput,
  type TaskState,
} from '@sked/model';
import fc from 'fast-check';

import { toJobListStub } from './dataset.js';

const SECOND = 1_000_000_000;

/** A name: lower-case letter, then letters, digits and hyphens. */
/** A JSON value as it comes back from the wire: `-0` is written as `0`, so it is never generated. */
function jsonValueArbitrary(): fc.Arbitrary<fc.JsonValue> {
  return fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as fc.JsonValue);
}

export function nameArbitrary(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
}

/** A duration in nanoseconds, whole seconds up to one day. */
export function nanosecondsArbitrary(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 86_400 }).map((seconds) => seconds * SECOND);
}

/** A Unix time in nanoseconds between 2020 and 2030. */
export function unixNanosecondsArbitrary(): fc.Arbitrary<number> {
  return fc
    .tuple(fc.integer({ min: 1_577_836_800, max: 1_893_456_000 }), fc.integer({ min: 0, max: 999 }))
    .map(([seconds, millis]) => seconds * SECOND + millis * 1_000_000);
}

/** An ISO 8601 timestamp between 2020 and 2030. */
export function isoTimeArbitrary(): fc.Arbitrary<string> {
  return fc
    .integer({ min: 1_577_836_800, max: 1_893_456_000 })
    .map((seconds) => new Date(seconds * 1000).toISOString());
}

/** A Raft index. */
export function indexArbitrary(): fc.Arbitrary<number> {
  return fc.integer({ min: 1, max: 1_000_000 });
}

/** A `Meta`-style map: keys like `owner`, `team`, `env`, values short strings. */
export function metaArbitrary(): fc.Arbitrary<Record<string, string>> {
  return fc.dictionary(
    fc.oneof(fc.constantFrom('owner', 'team', 'env', 'version', 'cost-center'), nameArbitrary()),
    fc.string({ maxLength: 12 }),
    { maxKeys: 4 },
  );
}

function nullable<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.option(arbitrary, { nil: null, freq: 3 });
}

function values<T extends Record<string, string>>(constants: T): fc.Arbitrary<T[keyof T]> {
  return fc.constantFrom(...(Object.values(constants) as T[keyof T][]));
}

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

/** Placement metrics ({@link AllocationMetric}). */
export function allocationMetricArbitrary(): fc.Arbitrary<AllocationMetric> {
  const count = fc.integer({ min: 0, max: 100 });
  const countMap = nullable(fc.dictionary(nameArbitrary(), count, { maxKeys: 3 }));
  return fc.record({
    NodesEvaluated: count,
    NodesFiltered: count,
    NodesInPool: count,
    NodesAvailable: countMap,
    ClassFiltered: countMap,
    ConstraintFiltered: countMap,
    NodesExhausted: count,
    ClassExhausted: countMap,
    DimensionExhausted: countMap,
    Scores: nullable(
      fc.dictionary(nameArbitrary(), fc.double({ min: 0, max: 1, noNaN: true }), { maxKeys: 3 }),
    ),
    AllocationTime: fc.integer({ min: 0, max: 10_000_000 }),
    CoalescedFailures: count,
  });
}

/** An {@link Evaluation}. */
export function evaluationArbitrary(): fc.Arbitrary<Evaluation> {
  return fc.record({
    ID: fc.uuid(),
    Namespace: fc.constantFrom('default', 'prod'),
    Priority: fc.integer({ min: 1, max: 100 }),
    Type: values(JobType),
    TriggeredBy: values(EvalTriggeredBy),
    JobID: nameArbitrary(),
    JobModifyIndex: indexArbitrary(),
    NodeID: fc.oneof(fc.constant(''), fc.uuid()),
    NodeModifyIndex: fc.integer({ min: 0, max: 1000 }),
    DeploymentID: fc.oneof(fc.constant(''), fc.uuid()),
    Status: values(EvalStatus),
    StatusDescription: fc.string({ maxLength: 20 }),
    Wait: nanosecondsArbitrary(),
    NextEval: fc.constant(''),
    PreviousEval: fc.oneof(fc.constant(''), fc.uuid()),
    BlockedEval: fc.oneof(fc.constant(''), fc.uuid()),
    FailedTGAllocs: nullable(fc.dictionary(nameArbitrary(), allocationMetricArbitrary(), { maxKeys: 2 })),
    ClassEligibility: nullable(fc.dictionary(nameArbitrary(), fc.boolean(), { maxKeys: 2 })),
    EscapedComputedClass: fc.boolean(),
    AnnotatePlan: fc.boolean(),
    QueuedAllocations: nullable(
      fc.dictionary(nameArbitrary(), fc.integer({ min: 0, max: 10 }), { maxKeys: 3 }),
    ),
    SnapshotIndex: indexArbitrary(),
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
    CreateTime: unixNanosecondsArbitrary(),
    ModifyTime: unixNanosecondsArbitrary(),
  });
}

/** A {@link Deployment}. */
export function deploymentArbitrary(): fc.Arbitrary<Deployment> {
  const count = fc.integer({ min: 0, max: 10 });
  const state: fc.Arbitrary<DeploymentState> = fc.record({
    AutoPromote: fc.boolean(),
    AutoRevert: fc.boolean(),
    DesiredCanaries: count,
    DesiredTotal: count,
    HealthyAllocs: count,
    UnhealthyAllocs: count,
    PlacedAllocs: count,
    PlacedCanaries: nullable(fc.array(fc.uuid(), { maxLength: 2 })),
    ProgressDeadline: nanosecondsArbitrary(),
    Promoted: fc.boolean(),
    RequireProgressBy: nullable(isoTimeArbitrary()),
  });
  return fc.record({
    ID: fc.uuid(),
    Namespace: fc.constantFrom('default', 'prod'),
    JobID: nameArbitrary(),
    JobVersion: fc.integer({ min: 0, max: 20 }),
    JobCreateIndex: indexArbitrary(),
    JobModifyIndex: indexArbitrary(),
    JobSpecModifyIndex: indexArbitrary(),
    EvalPriority: fc.integer({ min: 1, max: 100 }),
    IsMultiregion: fc.boolean(),
    Status: values(DeploymentStatus),
    StatusDescription: fc.string({ maxLength: 30 }),
    TaskGroups: fc.dictionary(nameArbitrary(), state, { maxKeys: 3 }),
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
  });
}

/** A {@link TaskEvent} of any type of {@link TaskEventType}. */
export function taskEventArbitrary(): fc.Arbitrary<TaskEvent> {
  const text = fc.string({ maxLength: 20 });
  return fc.record({
    Type: values(TaskEventType),
    Time: unixNanosecondsArbitrary(),
    FailsTask: fc.boolean(),
    RestartReason: text,
    SetupError: text,
    DriverError: text,
    Message: text,
    KillError: text,
    KillReason: text,
    DownloadError: text,
    ValidationError: text,
    FailedSibling: text,
    SecretsError: text,
    TaskSignalReason: text,
    TaskSignal: fc.constantFrom('', 'SIGHUP', 'SIGTERM'),
    DriverMessage: text,
    ExitCode: fc.integer({ min: -1, max: 255 }),
    Signal: fc.integer({ min: 0, max: 31 }),
    KillTimeout: nanosecondsArbitrary(),
    StartDelay: nanosecondsArbitrary(),
    DiskLimit: fc.integer({ min: 0, max: 1_000_000 }),
  });
}

/** A {@link TaskState} with up to 10 events. */
export function taskStateArbitrary(): fc.Arbitrary<TaskState> {
  return fc.record({
    State: values(TaskStateName),
    Failed: fc.boolean(),
    Restarts: fc.integer({ min: 0, max: 20 }),
    LastRestart: nullable(isoTimeArbitrary()),
    StartedAt: nullable(isoTimeArbitrary()),
    FinishedAt: nullable(isoTimeArbitrary()),
    Events: nullable(fc.array(taskEventArbitrary(), { maxLength: 10 })),
  });
}

/** An {@link Allocation} as lists return it (without `Job`; with `TaskStates` most of the time). */
export function allocationArbitrary(): fc.Arbitrary<Allocation> {
  const resources = fc.record({
    CPU: fc.integer({ min: 0, max: 8000 }),
    MemoryMB: fc.integer({ min: 0, max: 16384 }),
    DiskMB: fc.integer({ min: 0, max: 10000 }),
    Networks: fc.constant(null),
  });
  return fc.record(
    {
      ID: fc.uuid(),
      Namespace: fc.constantFrom('default', 'prod'),
      EvalID: fc.uuid(),
      Name: fc
        .tuple(nameArbitrary(), nameArbitrary(), fc.integer({ min: 0, max: 9 }))
        .map(([j, g, i]) => `${j}.${g}[${i}]`),
      NodeID: fc.uuid(),
      NodeName: nameArbitrary(),
      JobID: nameArbitrary(),
      TaskGroup: nameArbitrary(),
      Resources: nullable(resources),
      SharedResources: nullable(resources),
      TaskResources: nullable(fc.dictionary(nameArbitrary(), resources, { maxKeys: 2 })),
      Metrics: nullable(allocationMetricArbitrary()),
      DesiredStatus: values(AllocDesiredStatus),
      DesiredDescription: fc.string({ maxLength: 20 }),
      ClientStatus: values(AllocClientStatus),
      ClientDescription: fc.string({ maxLength: 20 }),
      TaskStates: nullable(fc.dictionary(nameArbitrary(), taskStateArbitrary(), { maxKeys: 2 })),
      PreviousAllocation: fc.oneof(fc.constant(''), fc.uuid()),
      NextAllocation: fc.oneof(fc.constant(''), fc.uuid()),
      RescheduleTracker: nullable(
        fc.record({
          Events: nullable(
            fc.array(
              fc.record({
                PrevAllocID: fc.uuid(),
                PrevNodeID: fc.uuid(),
                RescheduleTime: unixNanosecondsArbitrary(),
                Delay: nanosecondsArbitrary(),
              }),
              { maxLength: 2 },
            ),
          ),
        }),
      ),
      DeploymentID: fc.oneof(fc.constant(''), fc.uuid()),
      DeploymentStatus: nullable(
        fc.record({
          Healthy: nullable(fc.boolean()),
          Timestamp: nullable(isoTimeArbitrary()),
          Canary: fc.boolean(),
          ModifyIndex: indexArbitrary(),
        }),
      ),
      FollowupEvalID: fc.constant(''),
      CreateIndex: indexArbitrary(),
      ModifyIndex: indexArbitrary(),
      AllocModifyIndex: indexArbitrary(),
      CreateTime: unixNanosecondsArbitrary(),
      ModifyTime: unixNanosecondsArbitrary(),
    },
    {
      requiredKeys: [
        'ID',
        'Namespace',
        'EvalID',
        'Name',
        'NodeID',
        'NodeName',
        'JobID',
        'TaskGroup',
        'Resources',
        'SharedResources',
        'TaskResources',
        'Metrics',
        'DesiredStatus',
        'DesiredDescription',
        'ClientStatus',
        'ClientDescription',
        'PreviousAllocation',
        'NextAllocation',
        'RescheduleTracker',
        'DeploymentID',
        'DeploymentStatus',
        'FollowupEvalID',
        'CreateIndex',
        'ModifyIndex',
        'AllocModifyIndex',
        'CreateTime',
        'ModifyTime',
      ],
    },
  );
}

/** A {@link CsiVolume} as the single-volume read returns it. */
export function csiVolumeArbitrary(): fc.Arbitrary<CsiVolume> {
  const count = fc.integer({ min: 0, max: 5 });
  return fc.record({
    ID: nameArbitrary(),
    Name: nameArbitrary(),
    ExternalID: fc.string({ maxLength: 16 }),
    Namespace: fc.constantFrom('default', 'prod'),
    Topologies: nullable(
      fc.array(fc.dictionary(nameArbitrary(), nameArbitrary(), { maxKeys: 2 }), { maxLength: 2 }),
    ),
    AccessMode: fc.oneof(fc.constant(''), values(CsiVolumeAccessMode)),
    AttachmentMode: fc.oneof(fc.constant(''), values(CsiVolumeAttachmentMode)),
    Schedulable: fc.boolean(),
    PluginID: nameArbitrary(),
    Provider: fc.string({ maxLength: 16 }),
    ControllerRequired: fc.boolean(),
    ControllersHealthy: count,
    ControllersExpected: count,
    NodesHealthy: count,
    NodesExpected: count,
    ResourceExhausted: count,
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
    Version: fc.constantFrom('', '1.0.0'),
    Allocations: fc.array(allocationArbitrary(), { maxLength: 2 }),
    ReadAllocs: nullable(fc.dictionary(fc.uuid(), fc.constant(null), { maxKeys: 2 })),
    WriteAllocs: nullable(fc.dictionary(fc.uuid(), fc.constant(null), { maxKeys: 1 })),
  });
}

/** An {@link Event} of the job, allocation, evaluation or deployment topic, with its payload. */
export function eventArbitrary(): fc.Arbitrary<Event> {
  const base = (
    topic: string,
    type: fc.Arbitrary<string>,
    payload: fc.Arbitrary<Record<string, unknown>>,
  ): fc.Arbitrary<Event> =>
    fc.record({
      Topic: fc.constant(topic),
      Type: type,
      Key: nameArbitrary(),
      Namespace: fc.constantFrom('default', 'prod'),
      FilterKeys: nullable(fc.array(nameArbitrary(), { maxLength: 2 })),
      Index: indexArbitrary(),
      Payload: payload,
    });
  return fc.oneof(
    base(
      EventTopic.Job,
      fc.constantFrom(EventType.JobRegistered, EventType.JobDeregistered),
      jobArbitrary().map((Job) => ({ Job })),
    ),
    base(
      EventTopic.Allocation,
      fc.constantFrom(EventType.AllocationCreated, EventType.AllocationUpdated),
      allocationArbitrary().map((Allocation) => ({ Allocation })),
    ),
    base(
      EventTopic.Evaluation,
      fc.constant(EventType.EvaluationUpdated),
      evaluationArbitrary().map((Evaluation) => ({ Evaluation })),
    ),
    base(
      EventTopic.Deployment,
      fc.constant(EventType.DeploymentStatusUpdate),
      deploymentArbitrary().map((Deployment) => ({ Deployment })),
    ),
  );
}

/** An {@link EventEnvelope} with 0 to 3 events, or the `{}` heartbeat. */
export function eventEnvelopeArbitrary(): fc.Arbitrary<EventEnvelope> {
  return fc.oneof({ arbitrary: fc.constant({}), weight: 1 }, { arbitrary: eventBatchArbitrary(), weight: 4 });
}

function eventBatchArbitrary(): fc.Arbitrary<EventEnvelope> {
  return fc.record({
    Index: fc.integer({ min: 0, max: 1_000_000 }),
    Events: fc.array(eventArbitrary(), { maxLength: 3 }),
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

/** A {@link Node} as the `Node` event topic carries it. */
export function nodeArbitrary(): fc.Arbitrary<Node> {
  const size = fc.integer({ min: 0, max: 100_000 });
  return fc.record({
    ID: fc.uuid(),
    Datacenter: fc.constantFrom('dc1', 'dc2'),
    Name: nameArbitrary(),
    HTTPAddr: fc.integer({ min: 1, max: 254 }).map((n) => `10.0.0.${n}:4646`),
    TLSEnabled: fc.boolean(),
    Attributes: nullable(
      fc.dictionary(fc.constantFrom('kernel.name', 'cpu.arch', 'os.name'), nameArbitrary()),
    ),
    NodeResources: nullable(
      fc.record({
        Cpu: fc.record({ CpuShares: size }),
        Memory: fc.record({ MemoryMB: size }),
        Disk: fc.record({ DiskMB: size }),
        Networks: fc.constant(null),
        NodeNetworks: fc.constant(null),
        Devices: fc.constant(null),
      }),
    ),
    ReservedResources: fc.constant(null),
    Resources: nullable(
      fc.record({
        CPU: size,
        MemoryMB: size,
        DiskMB: size,
        IOPS: size,
        Networks: fc.constant(null),
        Devices: fc.constant(null),
      }),
    ),
    Reserved: fc.constant(null),
    Links: nullable(fc.dictionary(nameArbitrary(), nameArbitrary(), { maxKeys: 2 })),
    Meta: nullable(metaArbitrary()),
    NodeClass: fc.constantFrom('', 'big', 'small'),
    ComputedClass: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `v1:${n}`),
    Drain: fc.boolean(),
    DrainStrategy: fc.constant(null),
    SchedulingEligibility: values(NodeSchedulingEligibility),
    Status: values(NodeStatus),
    StatusDescription: fc.string({ maxLength: 20 }),
    StatusUpdatedAt: fc.integer({ min: 1_577_836_800, max: 1_893_456_000 }),
    Events: nullable(
      fc.array(
        fc.record({
          Message: fc.string({ maxLength: 20 }),
          Subsystem: fc.constantFrom('Cluster', 'Drain', 'Driver'),
          Details: fc.constant(null),
          Timestamp: isoTimeArbitrary(),
          CreateIndex: indexArbitrary(),
        }),
        { maxLength: 2 },
      ),
    ),
    Drivers: nullable(
      fc.dictionary(
        fc.constantFrom('mock', 'raw_exec'),
        fc.record({
          Attributes: fc.constant(null),
          Detected: fc.boolean(),
          Healthy: fc.boolean(),
          HealthDescription: fc.string({ maxLength: 10 }),
          UpdateTime: isoTimeArbitrary(),
        }),
      ),
    ),
    CSIControllerPlugins: fc.constant(null),
    CSINodePlugins: fc.constant(null),
    HostVolumes: fc.constant(null),
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
  });
}

/** A frame the exec client sends (authentication, stdin data or close, terminal size, heartbeat). */
export function execClientFrameArbitrary(): fc.Arbitrary<ExecClientFrame> {
  return fc.oneof(
    fc.record({ version: fc.constant(1 as const), auth_token: fc.uuid() }),
    fc
      .uint8Array({ maxLength: 64 })
      .map((bytes) => ({ stdin: { data: Buffer.from(bytes).toString('base64') } })),
    fc.constant({ stdin: { close: true } }),
    fc.record({
      tty_size: fc.record({
        height: fc.integer({ min: 1, max: 500 }),
        width: fc.integer({ min: 1, max: 500 }),
      }),
    }),
    fc.constant({}),
  );
}

/** A frame the exec server sends (stdout/stderr data or close, exit, heartbeat). */
export function execServerFrameArbitrary(): fc.Arbitrary<ExecServerFrame> {
  const data = fc
    .uint8Array({ maxLength: 64 })
    .map((bytes) => ({ data: Buffer.from(bytes).toString('base64') }));
  return fc.oneof(
    data.map((stdout) => ({ stdout })),
    data.map((stderr) => ({ stderr })),
    fc.constant({ stdout: { close: true } }),
    fc.constant({ stderr: { close: true } }),
    fc.integer({ min: 0, max: 255 }).map((code) => ({ exited: true, result: { exit_code: code } })),
    fc.constant({}),
  );
}

/** An LDAP configuration body: a random subset of the fields, in either accepted form. */
export function ldapConfigRequestArbitrary(): fc.Arbitrary<LdapConfigRequest> {
  const seconds = fc.oneof(fc.integer({ min: 0, max: 86_400 }), fc.constantFrom('90s', '1h', '30m'));
  const list = fc.oneof(fc.array(nameArbitrary(), { maxLength: 3 }), fc.constantFrom('', 'default', 'a,b'));
  return fc.record(
    {
      url: fc.constantFrom('ldap://127.0.0.1', 'ldaps://ldap.example.com'),
      case_sensitive_names: fc.boolean(),
      request_timeout: seconds,
      starttls: fc.boolean(),
      tls_min_version: fc.constantFrom('tls10', 'tls11', 'tls12', 'tls13'),
      tls_max_version: fc.constantFrom('tls12', 'tls13'),
      insecure_tls: fc.boolean(),
      binddn: fc.constant('cn=admin,dc=example,dc=com'),
      bindpass: fc.string({ maxLength: 12 }),
      userdn: fc.constant('ou=Users,dc=example,dc=com'),
      userattr: fc.constantFrom('cn', 'uid', 'sAMAccountName'),
      deny_null_bind: fc.boolean(),
      groupdn: fc.constant('ou=Groups,dc=example,dc=com'),
      token_ttl: seconds,
      token_policies: list,
      token_bound_cidrs: list,
      token_num_uses: fc.integer({ min: 0, max: 10 }),
      token_type: fc.constantFrom('', 'service', 'batch', 'default'),
    },
    { requiredKeys: [] },
  );
}

/** A {@link Peering} record, as read or listed. */
export function peeringArbitrary(): fc.Arbitrary<Peering> {
  return fc.record(
    {
      ID: fc.uuid(),
      Name: nameArbitrary(),
      State: values(PeeringState),
      Partition: fc.constant('default'),
      PeerID: fc.oneof(fc.constant(''), fc.uuid()),
      PeerServerName: fc.constantFrom('', 'server.dc1.peering.example'),
      PeerServerAddresses: nullable(
        fc.array(
          fc.integer({ min: 1, max: 254 }).map((n) => `10.0.0.${n}:8300`),
          { maxLength: 3 },
        ),
      ),
      Meta: nullable(metaArbitrary()),
      StreamStatus: nullable(
        fc.record({
          ImportedServices: nullable(fc.array(nameArbitrary(), { maxLength: 3 })),
          ExportedServices: nullable(fc.array(nameArbitrary(), { maxLength: 3 })),
          LastHeartbeat: nullable(isoTimeArbitrary()),
          LastReceive: nullable(isoTimeArbitrary()),
          LastSend: nullable(isoTimeArbitrary()),
        }),
      ),
      Remote: fc.record({ Partition: fc.constant('default'), Datacenter: fc.constantFrom('dc1', 'dc2') }),
      DeletedAt: nullable(isoTimeArbitrary()),
      CreateIndex: indexArbitrary(),
      ModifyIndex: indexArbitrary(),
    },
    {
      requiredKeys: [
        'ID',
        'Name',
        'State',
        'PeerID',
        'PeerServerName',
        'PeerServerAddresses',
        'Meta',
        'StreamStatus',
        'Remote',
        'CreateIndex',
        'ModifyIndex',
      ],
    },
  );
}
