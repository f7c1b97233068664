/**
 * The fields of a canonicalized job that the semantic checks (`jobProblems`) read, with their JSON types
 * only (no ranges, no enumerations: reporting those is the checks' job). A value that is not of this
 * shape is not a canonicalized job, and is refused before any check reads it.
 *
 * @internal
 * @packageDocumentation
 */
import Type from 'typebox';

import { Nullable } from './schema.js';
import { lazySchema } from './lazy.js';

const Constraints = lazySchema(() =>
  Type.Optional(Nullable(Type.Array(Type.Object({ Operand: Type.String(), RTarget: Type.String() })))),
);
const RestartPolicy = lazySchema(() => Type.Optional(Nullable(Type.Object({ Mode: Type.String() }))));

const Paths = (field: string) =>
  Type.Optional(Nullable(Type.Array(Type.Object({ [field]: Type.Optional(Type.String()) }))));

const TaskShape = lazySchema(() =>
  Type.Object({
    Name: Type.String(),
    Driver: Type.String(),
    DispatchPayload: Type.Optional(Nullable(Type.Object({ File: Type.Optional(Type.String()) }))),
    Templates: Paths('DestPath'),
    Artifacts: Paths('RelativeDest'),
    VolumeMounts: Paths('Destination'),
    Leader: Type.Optional(Type.Boolean()),
    Resources: Type.Object({ CPU: Type.Number(), MemoryMB: Type.Number() }),
    Constraints,
    RestartPolicy,
  }),
);

const GroupShape = lazySchema(() =>
  Type.Object({
    Name: Type.String(),
    Count: Type.Number(),
    Tasks: Type.Array(TaskShape),
    Constraints,
    RestartPolicy,
    ReschedulePolicy: Type.Optional(Nullable(Type.Object({ DelayFunction: Type.String() }))),
    Update: Type.Optional(Nullable(Type.Object({ Canary: Type.Number() }))),
  }),
);

/**
 * What `jobProblems` needs of a job.
 *
 * @internal
 */
export const JobShape = lazySchema(() =>
  Type.Object({
    ID: Type.String(),
    Namespace: Type.Optional(Type.String()),
    Type: Type.String(),
    Priority: Type.Number(),
    Constraints,
    ParameterizedJob: Type.Optional(Nullable(Type.Object({ Payload: Type.String() }))),
    Periodic: Type.Optional(
      Nullable(
        Type.Object({
          Enabled: Type.Boolean(),
          Spec: Type.String(),
          SpecType: Type.String(),
          TimeZone: Type.Optional(Type.String()),
        }),
      ),
    ),
    TaskGroups: Type.Array(GroupShape),
  }),
);
