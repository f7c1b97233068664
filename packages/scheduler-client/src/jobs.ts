import type { Transport } from '@sked/http';
import type {
  Allocation,
  Deployment,
  Evaluation,
  Job,
  JobDeregisterResponse,
  JobDispatchResponse,
  JobEvalResponse,
  JobInput,
  JobListStub,
  JobParseResponse,
  JobPeriodicForceResponse,
  JobPlanResponse,
  JobRegisterRequest,
  JobRegisterResponse,
  JobStabilityResponse,
  JobSubmission,
  JobSummary,
  JobVersionsResponse,
} from '@sked/model';

import { InvalidRequestError } from './errors.js';
import type { ListEndpoint, ReadEndpoint } from './endpoints.js';
import {
  attempt,
  commonQuery,
  flag,
  lazy,
  listEndpoint,
  listQuery,
  path,
  readEndpoint,
  send,
  type RequestSpec,
  watchSpec,
} from './internal/request.js';
import {
  quote,
  requireBoolean,
  requireId,
  requireInteger,
  requireNonEmpty,
  requireObject,
  requireString,
  requireStringMap,
} from './internal/validate.js';
import type { ListOptions, ReadOptions, RequestOptions, Result, WatchOptions } from './options.js';

/**
 * Options of {@link JobsApi.list}.
 * @since 0.1.0
 */
export interface JobListOptions extends ListOptions {
  /**
   * Adds each job's `Meta` to the list items.
   * @defaultValue false
   */
  readonly meta?: boolean | undefined;
}

/**
 * Options of the job reads that take only the common read options.
 * @since 0.1.0
 */
export type JobReadOptions = ReadOptions;

/**
 * Options of {@link JobsApi.allocations}.
 * @since 0.1.0
 */
export interface JobAllocationsOptions extends ReadOptions {
  /**
   * Includes allocations of an earlier job with the same ID (after a deregister and re-register).
   * @defaultValue false
   */
  readonly all?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.deployments}.
 * @since 0.1.0
 */
export interface JobDeploymentsOptions extends ReadOptions {
  /**
   * Includes deployments of an earlier job with the same ID.
   * @defaultValue false
   */
  readonly all?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.versions}.
 * @since 0.1.0
 */
export interface JobVersionsOptions extends ReadOptions {
  /**
   * Fills `Diffs` with the structured diff between each version and the one before.
   * @defaultValue false
   */
  readonly diffs?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.create} and {@link JobsApi.update}.
 * @since 0.1.0
 */
export interface JobRegisterOptions extends RequestOptions {
  /**
   * Check-and-set: register only if the current job's `JobModifyIndex` equals this value; `0`
   * means "only if the job is new". Sends `EnforceIndex: true` with `JobModifyIndex`.
   * @defaultValue no check
   */
  readonly enforceIndex?: number | undefined;
  /**
   * Priority of the resulting evaluations.
   * @defaultValue the job's priority
   */
  readonly evalPriority?: number | undefined;
  /**
   * Overrides soft-mandatory policy rules that would deny the registration.
   * @defaultValue false
   */
  readonly policyOverride?: boolean | undefined;
  /**
   * Keeps the existing task group counts instead of those of the new job.
   * @defaultValue false
   */
  readonly preserveCounts?: boolean | undefined;
  /**
   * The original job source, kept for reference (see {@link JobsApi.submission}).
   * @defaultValue none
   */
  readonly submission?: JobRegisterRequest['Submission'] | undefined;
}

/**
 * Options of {@link JobsApi.parse}.
 * @since 0.1.0
 */
export interface JobParseOptions extends RequestOptions {
  /**
   * Fills unset fields with their defaults.
   * @defaultValue false
   */
  readonly canonicalize?: boolean | undefined;
  /**
   * Variables in var-file format.
   * @defaultValue none
   */
  readonly variables?: string | undefined;
  /**
   * Variables as key = value pairs.
   * @defaultValue none
   */
  readonly variableFlags?: Readonly<Record<string, string>> | undefined;
  /**
   * Uses the legacy parser.
   * @defaultValue false
   */
  readonly hclv1?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.dispatch}.
 * @since 0.1.0
 */
export interface JobDispatchOptions extends RequestOptions {
  /**
   * Payload: bytes (encoded to base64 by the client) or a base64 string. At most 16384 bytes once
   * decoded.
   * @defaultValue none
   */
  readonly payload?: Uint8Array | string | undefined;
  /**
   * Meta of the dispatched job.
   * @defaultValue none
   */
  readonly meta?: Readonly<Record<string, string>> | undefined;
  /**
   * Prefix of the dispatched job's ID.
   * @defaultValue the parent job's ID
   */
  readonly idPrefixTemplate?: string | undefined;
  /**
   * At most one dispatch happens per token.
   * @defaultValue none
   */
  readonly idempotencyToken?: string | undefined;
}

/**
 * Options of {@link JobsApi.revert}.
 * @since 0.1.0
 */
export interface JobRevertOptions extends RequestOptions {
  /**
   * Check-and-set: revert only if the job's current version is this one.
   * @defaultValue no check
   */
  readonly enforcePriorVersion?: number | undefined;
  /**
   * Token of the mesh service for service-identity checks.
   * @defaultValue none
   */
  readonly meshToken?: string | undefined;
  /**
   * Token of the secrets service for policy checks.
   * @defaultValue none
   */
  readonly secretsToken?: string | undefined;
}

/**
 * Options of {@link JobsApi.evaluate}.
 * @since 0.1.0
 */
export interface JobEvaluateOptions extends RequestOptions {
  /**
   * Reschedules failed allocations at once, even past their reschedule limit or delay.
   * @defaultValue false
   */
  readonly forceReschedule?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.plan}.
 * @since 0.1.0
 */
export interface JobPlanOptions extends RequestOptions {
  /**
   * Includes the diff between the submitted job and the server's version.
   * @defaultValue false
   */
  readonly diff?: boolean | undefined;
  /**
   * Overrides soft-mandatory policy rules.
   * @defaultValue false
   */
  readonly policyOverride?: boolean | undefined;
}

/**
 * Options of {@link JobsApi.stop}.
 * @since 0.1.0
 */
export interface JobStopOptions extends RequestOptions {
  /**
   * Purges the job at once: it is no longer readable afterwards.
   * @defaultValue false
   */
  readonly purge?: boolean | undefined;
  /**
   * Stops a multi-region job in every region.
   * @defaultValue false
   */
  readonly global?: boolean | undefined;
  /**
   * Priority of the resulting evaluation.
   * @defaultValue the job's priority
   */
  readonly evalPriority?: number | undefined;
  /**
   * Ignores the group and task `shutdown_delay`.
   * @defaultValue false
   */
  readonly noShutdownDelay?: boolean | undefined;
}

/**
 * The stability to set with {@link JobsApi.stable}.
 * @since 0.1.0
 */
export interface JobStability {
  /** The job version to mark. */
  readonly version: number;
  /** `true` marks the version stable, `false` not stable. */
  readonly stable: boolean;
}

/**
 * The Read Job Submission endpoint: the call and its `watch`.
 * @since 0.1.0
 */
export interface JobSubmissionEndpoint {
  /**
   * Reads the source a job version was submitted with (only when it was supplied at registration;
   * the service keeps the 6 most recent).
   * @param jobId - The job's ID.
   * @param version - The job version.
   * @param options - Request options.
   * @returns The submission.
   * @throws {@link InvalidRequestError} when `jobId` is empty or `version` is not an integer of at least 0.
   */
  (jobId: string, version: number, options?: JobReadOptions): Promise<Result<JobSubmission>>;
  /**
   * Watches the submission with blocking queries.
   * @param jobId - The job's ID.
   * @param version - The job version.
   * @param options - Request options and blocking-query options.
   * @returns An async iterable of results.
   */
  watch(
    this: void,
    jobId: string,
    version: number,
    options?: JobReadOptions & WatchOptions,
  ): AsyncIterable<Result<JobSubmission>>;
}

/**
 * The job endpoints (spec document 1).
 * @since 0.1.0
 */
export interface JobsApi {
  /** `GET /v1/jobs`: lists jobs. Blocking, paged, filterable. */
  readonly list: ListEndpoint<JobListOptions, JobListStub>;
  /**
   * `POST /v1/jobs`: registers a job.
   * @param job - The job; its `Namespace`, when set, is the namespace of the request unless
   *   `options.namespace` says otherwise.
   * @param options - Check-and-set and other registration options.
   * @returns The evaluation created and the new modify index.
   * @throws {@link InvalidRequestError} when the job has no ID or an option is malformed.
   */
  create(this: void, job: JobInput, options?: JobRegisterOptions): Promise<Result<JobRegisterResponse>>;
  /**
   * `POST /v1/jobs/parse`: turns job text in the configuration language into a job.
   * @param source - The job text.
   * @param options - Parser options.
   * @returns The job as JSON.
   * @throws {@link InvalidRequestError} when `source` is empty.
   */
  parse(this: void, source: string, options?: JobParseOptions): Promise<Result<JobParseResponse>>;
  /** `GET /v1/job/:job_id`: reads a job. Blocking. */
  readonly read: ReadEndpoint<JobReadOptions, Job>;
  /** `GET /v1/job/:job_id/submission`: reads the original source of a job version. Blocking. */
  readonly submission: JobSubmissionEndpoint;
  /** `GET /v1/job/:job_id/versions`: lists the job's versions, newest first. Blocking. */
  readonly versions: ReadEndpoint<JobVersionsOptions, JobVersionsResponse>;
  /** `GET /v1/job/:job_id/allocations`: lists the job's allocations. Blocking. */
  readonly allocations: ReadEndpoint<JobAllocationsOptions, Allocation[]>;
  /** `GET /v1/job/:job_id/evaluations`: lists the job's evaluations. Blocking. */
  readonly evaluations: ReadEndpoint<JobReadOptions, Evaluation[]>;
  /** `GET /v1/job/:job_id/deployments`: lists the job's deployments. Blocking. */
  readonly deployments: ReadEndpoint<JobDeploymentsOptions, Deployment[]>;
  /** `GET /v1/job/:job_id/deployment`: reads the job's most recent deployment (`null` if none). Blocking. */
  readonly latestDeployment: ReadEndpoint<JobReadOptions, Deployment | null>;
  /** `GET /v1/job/:job_id/summary`: reads the job's summary. Blocking. */
  readonly summary: ReadEndpoint<JobReadOptions, JobSummary>;
  /**
   * `POST /v1/job/:job_id`: registers a new version of a job (or a new job).
   * @param jobId - The job's ID; `job.ID` must be the same when set.
   * @param job - The job.
   * @param options - Check-and-set and other registration options.
   * @returns The evaluation created and the new modify index.
   * @throws {@link InvalidRequestError} when `jobId` is empty or differs from `job.ID`.
   */
  update(
    this: void,
    jobId: string,
    job: JobInput,
    options?: JobRegisterOptions,
  ): Promise<Result<JobEvalResponse>>;
  /**
   * `POST /v1/job/:job_id/dispatch`: dispatches an instance of a parameterized job.
   * @param jobId - The parameterized job's ID.
   * @param options - Payload, meta and request options.
   * @returns The dispatched job's ID and its evaluation.
   * @throws {@link InvalidRequestError} when `jobId` is empty, the payload is over 16384 bytes or
   *   not base64, or meta is not a map of strings.
   */
  dispatch(this: void, jobId: string, options?: JobDispatchOptions): Promise<Result<JobDispatchResponse>>;
  /**
   * `POST /v1/job/:job_id/revert`: reverts the job to an earlier version.
   * @param jobId - The job's ID.
   * @param version - The version to revert to.
   * @param options - Check-and-set and request options.
   * @returns The evaluation created and the new modify index.
   * @throws {@link InvalidRequestError} when `jobId` is empty or `version` is not an integer of at least 0.
   */
  revert(
    this: void,
    jobId: string,
    version: number,
    options?: JobRevertOptions,
  ): Promise<Result<JobEvalResponse>>;
  /**
   * `POST /v1/job/:job_id/stable`: marks a job version stable or not stable.
   * @param jobId - The job's ID.
   * @param stability - The version and whether it is stable.
   * @param options - Request options.
   * @returns The job's new modify index.
   * @throws {@link InvalidRequestError} when `jobId` is empty or `stability` is malformed.
   */
  stable(
    this: void,
    jobId: string,
    stability: JobStability,
    options?: RequestOptions,
  ): Promise<Result<JobStabilityResponse>>;
  /**
   * `POST /v1/job/:job_id/evaluate`: forces the scheduler to run for the job.
   * @param jobId - The job's ID.
   * @param options - Evaluation and request options.
   * @returns The evaluation created.
   * @throws {@link InvalidRequestError} when `jobId` is empty.
   */
  evaluate(this: void, jobId: string, options?: JobEvaluateOptions): Promise<Result<JobEvalResponse>>;
  /**
   * `POST /v1/job/:job_id/plan`: a dry run of the scheduler for a job (the path uses `job.ID`).
   * @param job - The job to plan.
   * @param options - Plan and request options.
   * @returns What the scheduler would do.
   * @throws {@link InvalidRequestError} when the job has no ID.
   */
  plan(this: void, job: JobInput, options?: JobPlanOptions): Promise<Result<JobPlanResponse>>;
  /**
   * `POST /v1/job/:job_id/periodic/force`: launches an instance of a periodic job now.
   * @param jobId - The periodic job's ID.
   * @param options - Request options.
   * @returns The evaluation created.
   * @throws {@link InvalidRequestError} when `jobId` is empty.
   */
  periodicForce(
    this: void,
    jobId: string,
    options?: RequestOptions,
  ): Promise<Result<JobPeriodicForceResponse>>;
  /**
   * `DELETE /v1/job/:job_id`: stops (deregisters) a job and its allocations.
   * @param jobId - The job's ID.
   * @param options - Stop and request options.
   * @returns The evaluation created.
   * @throws {@link InvalidRequestError} when `jobId` is empty.
   */
  stop(this: void, jobId: string, options?: JobStopOptions): Promise<Result<JobDeregisterResponse>>;
}

/** The largest dispatch payload, in decoded bytes. */
const maxDispatchPayload = 16384;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function jobIdOf(jobId: unknown): string {
  return requireId(jobId, 'jobId', 'Job ID');
}

function idOfJob(job: unknown): string {
  const body = requireObject(job, 'job');
  return requireId(body['ID'], 'job.ID', 'Job ID (job.ID)');
}

function registerBody(job: JobInput, options: JobRegisterOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { Job: job };
  if (options.enforceIndex !== undefined) {
    body['EnforceIndex'] = true;
    body['JobModifyIndex'] = requireInteger(options.enforceIndex, 'enforceIndex');
  }
  if (options.evalPriority !== undefined) {
    body['EvalPriority'] = requireInteger(options.evalPriority, 'evalPriority', 1, 100);
  }
  if (options.policyOverride !== undefined) {
    body['PolicyOverride'] = requireBoolean(options.policyOverride, 'policyOverride');
  }
  if (options.preserveCounts !== undefined) {
    body['PreserveCounts'] = requireBoolean(options.preserveCounts, 'preserveCounts');
  }
  if (options.submission !== undefined) {
    body['Submission'] = requireObject(options.submission, 'submission');
  }
  return body;
}

/** The namespace of a registration: the option, else the job's own, else the transport's. */
function registerNamespace(job: JobInput, options: RequestOptions): RequestOptions {
  const own = (job as { Namespace?: unknown }).Namespace;
  if (options.namespace !== undefined || typeof own !== 'string' || own === '') return options;
  return { ...options, namespace: own };
}

function encodePayload(payload: Uint8Array | string): string {
  if (typeof payload === 'string') {
    if (!base64Pattern.test(payload)) {
      throw new InvalidRequestError(
        `payload must be bytes or a base64 string, but ${quote(payload.length > 40 ? `${payload.slice(0, 40)}…` : payload)} is not valid base64.`,
        'payload',
        payload,
      );
    }
    const size = (payload.length / 4) * 3 - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
    checkPayloadSize(size, payload);
    return payload;
  }
  if (!(payload instanceof Uint8Array)) {
    throw new InvalidRequestError(
      `payload must be bytes or a base64 string, but got ${quote(payload)}.`,
      'payload',
      payload,
    );
  }
  checkPayloadSize(payload.byteLength, payload);
  return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('base64');
}

function checkPayloadSize(size: number, payload: unknown): void {
  if (size > maxDispatchPayload) {
    throw new InvalidRequestError(
      `payload is ${size} bytes, more than the ${maxDispatchPayload} bytes a dispatch payload may hold.`,
      'payload',
      payload,
    );
  }
}

/**
 * Builds the job endpoints on a transport.
 * @internal
 */
export function createJobsApi(transport: Transport): JobsApi {
  const list = listEndpoint<JobListOptions, JobListStub>(transport, (options) => ({
    method: 'GET',
    path: '/v1/jobs',
    query: {
      ...listQuery(
        options,
        options.prefix === undefined ? undefined : requireString(options.prefix, 'prefix'),
      ),
      meta: flag(options.meta, 'meta'),
    },
  }));
  const submissionSpec = (jobId: string, version: number, options: JobReadOptions): RequestSpec => ({
    method: 'GET',
    path: path`/v1/job/${jobIdOf(jobId)}/submission`,
    query: { ...commonQuery(options), version: requireInteger(version, 'version') },
  });
  const jobRead = <O extends ReadOptions, T>(
    build: (jobId: string, options: O) => RequestSpec,
  ): ReadEndpoint<O, T> => readEndpoint<O, T>(transport, jobIdOf, build);

  return {
    list,
    create: (job, options = {}) =>
      attempt(() => {
        idOfJob(job);
        const effective = registerNamespace(job, options);
        return send(
          transport,
          {
            method: 'POST',
            path: '/v1/jobs',
            query: commonQuery(effective),
            body: registerBody(job, options),
          },
          effective,
        );
      }),
    parse: (source, options = {}) =>
      attempt(() => {
        const body: Record<string, unknown> = { JobHCL: requireNonEmpty(source, 'source') };
        if (options.canonicalize !== undefined)
          body['Canonicalize'] = requireBoolean(options.canonicalize, 'canonicalize');
        if (options.variables !== undefined)
          body['Variables'] = requireString(options.variables, 'variables');
        if (options.variableFlags !== undefined) {
          body['VariableFlags'] = requireStringMap(options.variableFlags, 'variableFlags');
        }
        if (options.hclv1 !== undefined) body['HCLv1'] = requireBoolean(options.hclv1, 'hclv1');
        return send(
          transport,
          { method: 'POST', path: '/v1/jobs/parse', query: commonQuery(options), body },
          options,
        );
      }),
    read: jobRead<JobReadOptions, Job>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}`,
      query: commonQuery(options),
    })),
    submission: Object.assign(
      (jobId: string, version: number, options: JobReadOptions = {}): Promise<Result<JobSubmission>> =>
        attempt(() => send<JobSubmission>(transport, submissionSpec(jobId, version, options), options)),
      {
        watch: (
          jobId: string,
          version: number,
          options: JobReadOptions & WatchOptions = {},
        ): AsyncIterable<Result<JobSubmission>> =>
          lazy(() => watchSpec<JobSubmission>(transport, submissionSpec(jobId, version, options), options)),
      },
    ),
    versions: jobRead<JobVersionsOptions, JobVersionsResponse>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/versions`,
      query: { ...commonQuery(options), diffs: flag(options.diffs, 'diffs') },
    })),
    allocations: jobRead<JobAllocationsOptions, Allocation[]>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/allocations`,
      query: { ...commonQuery(options), all: flag(options.all, 'all') },
    })),
    evaluations: jobRead<JobReadOptions, Evaluation[]>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/evaluations`,
      query: commonQuery(options),
    })),
    deployments: jobRead<JobDeploymentsOptions, Deployment[]>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/deployments`,
      query: { ...commonQuery(options), all: flag(options.all, 'all') },
    })),
    latestDeployment: jobRead<JobReadOptions, Deployment | null>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/deployment`,
      query: commonQuery(options),
    })),
    summary: jobRead<JobReadOptions, JobSummary>((id, options) => ({
      method: 'GET',
      path: path`/v1/job/${id}/summary`,
      query: commonQuery(options),
    })),
    update: (jobId, job, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body = requireObject(job, 'job');
        if (body['ID'] !== undefined && body['ID'] !== id) {
          throw new InvalidRequestError(
            `job.ID ${quote(body['ID'])} does not match the job ID ${quote(id)} of the path.`,
            'job.ID',
            body['ID'],
          );
        }
        const effective = registerNamespace(job, options);
        return send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${id}`,
            query: commonQuery(effective),
            body: registerBody(body['ID'] === undefined ? ({ ...job, ID: id } as JobInput) : job, options),
          },
          effective,
        );
      }),
    dispatch: (jobId, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: Record<string, unknown> = {};
        if (options.payload !== undefined) body['Payload'] = encodePayload(options.payload);
        if (options.meta !== undefined) body['Meta'] = requireStringMap(options.meta, 'meta');
        if (options.idPrefixTemplate !== undefined) {
          body['IdPrefixTemplate'] = requireString(options.idPrefixTemplate, 'idPrefixTemplate');
        }
        return send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${id}/dispatch`,
            query: {
              ...commonQuery(options),
              IdempotencyToken:
                options.idempotencyToken === undefined
                  ? undefined
                  : requireString(options.idempotencyToken, 'idempotencyToken'),
            },
            body,
          },
          options,
        );
      }),
    revert: (jobId, version, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: Record<string, unknown> = { JobID: id, JobVersion: requireInteger(version, 'version') };
        if (options.enforcePriorVersion !== undefined) {
          body['EnforcePriorVersion'] = requireInteger(options.enforcePriorVersion, 'enforcePriorVersion');
        }
        if (options.meshToken !== undefined)
          body['MeshToken'] = requireString(options.meshToken, 'meshToken');
        if (options.secretsToken !== undefined) {
          body['SecretsToken'] = requireString(options.secretsToken, 'secretsToken');
        }
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/revert`, query: commonQuery(options), body },
          options,
        );
      }),
    stable: (jobId, stability, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const given = requireObject(stability, 'stability');
        const body = {
          JobID: id,
          JobVersion: requireInteger(given['version'], 'stability.version'),
          Stable: requireBoolean(given['stable'], 'stability.stable'),
        };
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/stable`, query: commonQuery(options), body },
          options,
        );
      }),
    evaluate: (jobId, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: Record<string, unknown> = { JobID: id };
        if (options.forceReschedule !== undefined) {
          body['EvalOptions'] = {
            ForceReschedule: requireBoolean(options.forceReschedule, 'forceReschedule'),
          };
        }
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/evaluate`, query: commonQuery(options), body },
          options,
        );
      }),
    plan: (job, options = {}) =>
      attempt(() => {
        const id = idOfJob(job);
        const body: Record<string, unknown> = { Job: job };
        if (options.diff !== undefined) body['Diff'] = requireBoolean(options.diff, 'diff');
        if (options.policyOverride !== undefined) {
          body['PolicyOverride'] = requireBoolean(options.policyOverride, 'policyOverride');
        }
        const effective = registerNamespace(job, options);
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/plan`, query: commonQuery(effective), body },
          effective,
        );
      }),
    periodicForce: (jobId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${jobIdOf(jobId)}/periodic/force`,
            query: commonQuery(options),
          },
          options,
        ),
      ),
    stop: (jobId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'DELETE',
            path: path`/v1/job/${jobIdOf(jobId)}`,
            query: {
              ...commonQuery(options),
              purge: flag(options.purge, 'purge'),
              global: flag(options.global, 'global'),
              eval_priority:
                options.evalPriority === undefined
                  ? undefined
                  : requireInteger(options.evalPriority, 'evalPriority', 1, 100),
              no_shutdown_delay: flag(options.noShutdownDelay, 'noShutdownDelay'),
            },
          },
          options,
        ),
      ),
  };
}
