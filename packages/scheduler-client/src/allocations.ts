import type { Transport } from '@sked/http';
import type { Allocation, AllocStopResponse, EmptyResponse } from '@sked/model';

import type { ListEndpoint, ReadEndpoint } from './endpoints.js';
import { attempt, listEndpoint, path, readEndpoint, requireBoolean, requireNonEmpty, send } from '@sked/http';
import { commonQuery, flag, listQuery } from './internal/query.js';
import { requireAllocId, requireHexPrefix } from './internal/ids.js';
import type { ListOptions, ReadOptions, RequestOptions, Result } from './options.js';

/**
 * Options of {@link AllocationsApi.list}.
 * @since 0.1.0
 */
export interface AllocationListOptions extends ListOptions {
  /**
   * Includes `AllocatedResources` in each item.
   * @defaultValue false
   */
  readonly resources?: boolean | undefined;
  /**
   * `false` leaves `TaskStates` out of each item, which shrinks large responses.
   * @defaultValue true
   */
  readonly taskStates?: boolean | undefined;
}

/**
 * Options of {@link AllocationsApi.stop}.
 * @since 0.1.0
 */
export interface AllocationStopOptions extends RequestOptions {
  /**
   * Ignores the group and task `shutdown_delay`.
   * @defaultValue false
   */
  readonly noShutdownDelay?: boolean | undefined;
}

/**
 * Options of {@link AllocationsApi.signal}.
 * @since 0.1.0
 */
export interface AllocationSignalOptions extends RequestOptions {
  /**
   * Task to signal.
   * @defaultValue every task of the allocation
   */
  readonly task?: string | undefined;
}

/**
 * Options of {@link AllocationsApi.restart}.
 * @since 0.1.0
 */
export interface AllocationRestartOptions extends RequestOptions {
  /**
   * Task to restart.
   * @defaultValue every task of the allocation
   */
  readonly task?: string | undefined;
}

/**
 * The allocation endpoints (spec document 2). Allocation IDs are full UUIDs: the service rejects
 * the 8-character short form, and so does the client, before any request.
 * @since 0.1.0
 */
export interface AllocationsApi {
  /**
   * `GET /v1/allocations`: lists allocations, without their `Job`. Blocking, paged, filterable.
   * `prefix` must have an even number of hexadecimal characters.
   */
  readonly list: ListEndpoint<AllocationListOptions, Allocation>;
  /** `GET /v1/allocation/:alloc_id`: reads one allocation, including its `Job`. Blocking. */
  readonly read: ReadEndpoint<ReadOptions, Allocation>;
  /**
   * `POST /v1/allocation/:alloc_id/stop`: stops the allocation; it is rescheduled.
   * @param allocId - The full allocation ID.
   * @param options - `noShutdownDelay` and request options.
   * @returns The evaluation created and the index.
   * @throws {@link InvalidRequestError} when `allocId` is not a full allocation ID.
   */
  stop(this: void, allocId: string, options?: AllocationStopOptions): Promise<Result<AllocStopResponse>>;
  /**
   * `POST /v1/client/allocation/:alloc_id/signal`: sends a signal to the allocation's tasks, or
   * to one task.
   * @param allocId - The full allocation ID.
   * @param signal - The signal's name, such as `SIGHUP`.
   * @param options - The task and request options.
   * @returns An empty object.
   * @throws {@link InvalidRequestError} when `allocId` is not a full allocation ID or `signal` is empty.
   */
  signal(
    this: void,
    allocId: string,
    signal: string,
    options?: AllocationSignalOptions,
  ): Promise<Result<EmptyResponse>>;
  /**
   * `POST /v1/client/allocation/:alloc_id/restart`: restarts the allocation's tasks, or one task,
   * in place.
   * @param allocId - The full allocation ID.
   * @param options - The task and request options.
   * @returns An empty object.
   * @throws {@link InvalidRequestError} when `allocId` is not a full allocation ID or `task` is empty.
   */
  restart(this: void, allocId: string, options?: AllocationRestartOptions): Promise<Result<EmptyResponse>>;
}

function allocIdOf(id: unknown): string {
  return requireAllocId(id);
}

/**
 * `POST /v1/client/allocation/:alloc_id/<action>` with the fields of `body` (checked after the ID)
 * and the optional `Task` of the options.
 */
function clientAction(
  transport: Transport,
  allocId: string,
  action: 'signal' | 'restart',
  options: RequestOptions & { readonly task?: string | undefined },
  body: () => Record<string, string> = () => ({}),
): Promise<Result<EmptyResponse>> {
  const id = allocIdOf(allocId);
  const fields = body();
  if (options.task !== undefined) fields['Task'] = requireNonEmpty(options.task, 'task');
  return send(
    transport,
    {
      method: 'POST',
      path: path`/v1/client/allocation/${id}/${action}`,
      query: commonQuery(options),
      body: fields,
    },
    options,
  );
}

/**
 * Builds the allocation endpoints on a transport.
 * @internal
 */
export function createAllocationsApi(transport: Transport): AllocationsApi {
  return {
    list: listEndpoint<AllocationListOptions, Allocation>(transport, (options) => ({
      method: 'GET',
      path: '/v1/allocations',
      query: {
        ...listQuery(
          options,
          options.prefix === undefined ? undefined : requireHexPrefix(options.prefix, 'prefix'),
        ),
        resources: flag(options.resources, 'resources'),
        task_states:
          options.taskStates === undefined || requireBoolean(options.taskStates, 'taskStates')
            ? undefined
            : 'false',
      },
    })),
    read: readEndpoint<ReadOptions, Allocation>(transport, (id, options) => ({
      method: 'GET',
      path: path`/v1/allocation/${allocIdOf(id)}`,
      query: commonQuery(options),
    })),
    stop: (allocId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'POST',
            path: path`/v1/allocation/${allocIdOf(allocId)}/stop`,
            query: {
              ...commonQuery(options),
              no_shutdown_delay: flag(options.noShutdownDelay, 'noShutdownDelay'),
            },
          },
          options,
        ),
      ),
    signal: (allocId, signal, options = {}) =>
      attempt(() =>
        clientAction(transport, allocId, 'signal', options, () => ({
          Signal: requireNonEmpty(signal, 'signal'),
        })),
      ),
    restart: (allocId, options = {}) => attempt(() => clientAction(transport, allocId, 'restart', options)),
  };
}
