import type { Transport } from '@sked/http';
import type {
  Allocation,
  Deployment,
  Evaluation,
  Job,
  JobListStub,
  JobSubmission,
  JobSummary,
  JobVersionsResponse,
} from '@sked/model';
import type { ReadEndpoint } from '../endpoints.js';
import {
  type EndpointSpec,
  attempt,
  follow,
  listEndpoint,
  path,
  readEndpoint,
  requireInteger,
  requireString,
  send,
} from '@sked/http';
import { commonQuery, flag, listQuery } from '../internal/query.js';
import type { ReadOptions, Result, WatchOptions } from '../options.js';
import type {
  JobAllocationsOptions,
  JobDeploymentsOptions,
  JobListOptions,
  JobReadOptions,
  JobVersionsOptions,
} from './options.js';
import type { JobsApi } from './api.js';
import { jobIdOf } from './bodies.js';

/**
 * The read endpoints of jobs: the list, one job, and what belongs to it (submission, versions,
 * allocations, evaluations, deployments, summary).
 */
export function createJobReads(
  transport: Transport,
): Pick<
  JobsApi,
  | 'list'
  | 'read'
  | 'submission'
  | 'versions'
  | 'allocations'
  | 'evaluations'
  | 'deployments'
  | 'latestDeployment'
  | 'summary'
> {
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
  const submissionSpec = (jobId: string, version: number, options: JobReadOptions): EndpointSpec => ({
    method: 'GET',
    path: path`/v1/job/${jobIdOf(jobId)}/submission`,
    query: { ...commonQuery(options), version: requireInteger(version, 'version') },
  });
  const jobRead = <O extends ReadOptions, T>(
    build: (jobId: string, options: O) => EndpointSpec,
  ): ReadEndpoint<O, T> => readEndpoint<O, T>(transport, (id, options) => build(jobIdOf(id), options));

  return {
    list,
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
          follow<JobSubmission>(transport, () => submissionSpec(jobId, version, options), options),
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
  };
}
