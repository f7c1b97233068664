import {
  createTransport,
  DEFAULT_ADDRESS,
  isTransport,
  type Transport,
  type TransportDefaults,
  type TransportOptions,
} from '@sked/http';
import type { TypedEvent } from '@sked/model';

import { createAllocationsApi, type AllocationsApi } from './allocations.js';
import { streamEvents, type EventStreamOptions } from './events.js';
import { execAllocation, type ExecOptions, type ExecSession } from './exec.js';
import { createJobsApi } from './jobs.js';
import type { JobsApi } from './jobs/api.js';
import { createVolumesApi, type VolumesApi } from './volumes.js';

/** Default address of the scheduling service (`http://127.0.0.1:4646`): `@sked/http`'s `DEFAULT_ADDRESS`, written once there. */
export const SCHEDULER_DEFAULT_ADDRESS: string = DEFAULT_ADDRESS;
/** Prefix of the environment variables the scheduling service client reads (`SKED_ADDR`, ...). */
export const SCHEDULER_ENV_PREFIX = 'SKED_';

/**
 * Options of {@link createSchedulerClient}: address, token, namespace, region, TLS, timeout, size
 * limit, fetch, headers, env, log. Each falls back to a `SKED_*` environment variable, then to the
 * defaults (`http://127.0.0.1:4646`).
 * @since 0.2.0
 */
export type SchedulerClientOptions = Omit<TransportOptions, 'envPrefix' | 'defaultAddress'>;

/**
 * Defaults a derived client applies to every request (see {@link SchedulerClient.withDefaults}).
 * @since 0.1.0
 */
export type ClientDefaults = Omit<TransportDefaults, 'defaultAddress'>;

/**
 * A client of the scheduling service: plain objects of functions grouped by resource. No method
 * depends on `this`, so `const { list } = client.jobs` works.
 * @since 0.1.0
 */
export interface SchedulerClient {
  /** The transport every call goes through. */
  readonly transport: Transport;
  /** Job endpoints. */
  readonly jobs: JobsApi;
  /** Allocation endpoints. */
  readonly allocations: AllocationsApi;
  /** CSI volume endpoints. */
  readonly volumes: VolumesApi;
  /**
   * `GET /v1/event/stream` as an async iterable of events, reconnecting from the last index + 1
   * (see {@link streamEvents}).
   * @param options - Start index, topics, namespace, signal, heartbeat timeout, retry policy.
   * @returns The events, in index order, typed by topic (`TypedEvent`: `Topic` narrows `Payload`).
   */
  events(this: void, options?: EventStreamOptions): AsyncIterable<TypedEvent>;
  /**
   * Runs a command in a task of an allocation over the exec WebSocket (see {@link execAllocation}).
   * @param allocId - Full allocation ID.
   * @param task - Task name.
   * @param command - Program and arguments.
   * @param options - tty, handshake, size, signal.
   * @returns The duplex session.
   */
  exec(
    this: void,
    allocId: string,
    task: string,
    command: readonly string[],
    options?: ExecOptions,
  ): ExecSession;
  /**
   * Derives a client whose requests use other defaults (namespace, region, token, headers,
   * timeout); this client is left unchanged.
   * @param defaults - The defaults to change.
   * @returns A new client.
   */
  withDefaults(this: void, defaults: ClientDefaults): SchedulerClient;
}

/**
 * Creates a client of the scheduling service.
 *
 * @param transportOrOptions - A transport from `@sked/http`'s `createTransport`, or the options
 *   to create one with (address, token, namespace, region, TLS, timeout, fetch). Anything not
 *   given comes from the `SKED_*` environment variables, then from the defaults
 *   (`http://127.0.0.1:4646`, namespace `default`).
 * @returns The client.
 * @throws {@link ConfigError} when the options (or the `SKED_*` variables) are invalid, such as
 *   an address that is not a URL or a TLS file that cannot be read.
 * @example
 * ```ts
 * import { createSchedulerClient } from '@sked/scheduler-client';
 *
 * const client = createSchedulerClient({ address: 'http://127.0.0.1:4646' });
 * const { data: jobs } = await client.jobs.list({ filter: 'Status == "running"' });
 * ```
 * @since 0.2.0
 */
export function createSchedulerClient(
  transportOrOptions: Transport | SchedulerClientOptions = {},
): SchedulerClient {
  const transport = isTransport(transportOrOptions)
    ? transportOrOptions
    : createTransport({
        ...transportOrOptions,
        envPrefix: SCHEDULER_ENV_PREFIX,
        defaultAddress: SCHEDULER_DEFAULT_ADDRESS,
      });
  return {
    transport,
    jobs: createJobsApi(transport),
    allocations: createAllocationsApi(transport),
    volumes: createVolumesApi(transport),
    events: (options) => streamEvents(transport, options),
    exec: (allocId, task, command, options) => execAllocation(transport, allocId, task, command, options),
    withDefaults: (defaults) => createSchedulerClient(transport.withDefaults(defaults)),
  };
}

/**
 * The former name of {@link createSchedulerClient}.
 * @deprecated Use {@link createSchedulerClient}; `createClient` is removed in a later release.
 * @since 0.1.0
 */
export const createClient: typeof createSchedulerClient = createSchedulerClient;
