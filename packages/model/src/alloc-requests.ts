/**
 * Request and response bodies of the allocation endpoints.
 *
 * @packageDocumentation
 */
import Type, { type Static } from 'typebox';
import { SafeInteger } from './internal/schema.js';
import { lazySchema } from './internal/lazy.js';

/**
 * Response of `POST /v1/allocation/:alloc_id/stop`.
 *
 * @since 0.1.0
 */
export const AllocStopResponse = lazySchema(() =>
  Type.Object({
    /** ID of the evaluation created to replace the allocation. */
    EvalID: Type.String(),
    /** Raft index of the write. */
    Index: SafeInteger({ minimum: 0 }),
  }),
);
/** A value matching the {@link AllocStopResponse} schema. */
export type AllocStopResponse = Static<typeof AllocStopResponse>;

/**
 * Body of `POST /v1/client/allocation/:alloc_id/signal`.
 *
 * @since 0.1.0
 */
export const AllocSignalRequest = lazySchema(() =>
  Type.Object({
    /** Signal name, for example `SIGHUP`. Absent or `""` = `SIGKILL`. */
    Signal: Type.Optional(Type.String()),
    /** Task to signal. Absent or `""` = every task of the allocation. */
    Task: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link AllocSignalRequest} schema. */
export type AllocSignalRequest = Static<typeof AllocSignalRequest>;

/**
 * Body of `POST /v1/client/allocation/:alloc_id/restart`.
 *
 * @since 0.1.0
 */
export const AllocRestartRequest = lazySchema(() =>
  Type.Object({
    /** Task to restart. Absent or `""` = every running task of the allocation. */
    Task: Type.Optional(Type.String()),
  }),
);
/** A value matching the {@link AllocRestartRequest} schema. */
export type AllocRestartRequest = Static<typeof AllocRestartRequest>;

/**
 * Response of signal and restart: an empty JSON object.
 *
 * @since 0.1.0
 */
export const EmptyResponse = lazySchema(() => Type.Object({}));
/** A value matching the {@link EmptyResponse} schema. */
export type EmptyResponse = Static<typeof EmptyResponse>;
