/** The shape of the job endpoints (`client.jobs`). */
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
  JobRegisterResponse,
  JobStabilityResponse,
  JobSubmission,
  JobSummary,
  JobVersionsResponse,
} from '@sked/model';
import type { ListEndpoint, ReadEndpoint } from '../endpoints.js';
import type { RequestOptions, Result, WatchOptions } from '../options.js';
import type {
  JobAllocationsOptions,
  JobDeploymentsOptions,
  JobDispatchOptions,
  JobEvaluateOptions,
  JobListOptions,
  JobParseOptions,
  JobPlanOptions,
  JobReadOptions,
  JobRegisterOptions,
  JobRevertOptions,
  JobStability,
  JobStopOptions,
  JobVersionsOptions,
} from './options.js';

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
