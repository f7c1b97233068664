/** Arbitraries of streamed frames: event stream envelopes and exec frames. */
import {
  EventTopic,
  EventType,
  type Event,
  type EventEnvelope,
  type ExecClientFrame,
  type ExecServerFrame,
} from '@sked/model';
import fc from 'fast-check';
import { indexArbitrary, nameArbitrary, nullable } from './common.js';
import { jobArbitrary } from './jobs.js';
import { allocationArbitrary, deploymentArbitrary, evaluationArbitrary } from './allocations.js';

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
