/** Arbitraries of what scheduling produces: evaluations, deployments, allocations, task states, volumes. */
import {
  AllocClientStatus,
  AllocDesiredStatus,
  CsiVolumeAccessMode,
  CsiVolumeAttachmentMode,
  DeploymentStatus,
  EvalStatus,
  EvalTriggeredBy,
  JobType,
  TaskEventType,
  TaskStateName,
  type Allocation,
  type AllocationMetric,
  type CsiVolume,
  type Deployment,
  type DeploymentState,
  type Evaluation,
  type TaskEvent,
  type TaskState,
} from '@sked/model';
import fc from 'fast-check';
import {
  indexArbitrary,
  isoTimeArbitrary,
  nameArbitrary,
  nanosecondsArbitrary,
  nullable,
  unixNanosecondsArbitrary,
  values,
} from './common.js';

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
