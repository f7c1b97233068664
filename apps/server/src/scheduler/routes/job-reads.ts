import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Job as JobSchema } from '@sked/model';
import { namespaceIdKey, readPage } from '@sked/query';
import { sendJson, sendJsonText } from '../../http/app.js';
import { blockingRead } from '../../http/blocking.js';
import {
  queryBool,
  queryString,
  readFilter,
  readPerPage,
  readPrefix,
  readReverse,
  queryUint,
} from '../../http/conventions.js';
import { badRequest } from '../../http/errors.js';
import { compileItemFilter } from '../../http/filter.js';
import type { Principal } from '../acl/index.js';
import type { Job, JobSummary, ReadonlyStore } from '../core/index.js';
import { beginInNamespace, found, setNextToken, type SchedulerRouteContext } from './common.js';

type Params = { job_id: string };

/**
 * The list item of a job, as `GET /v1/jobs` returns it.
 * @param job - The stored job.
 * @param summary - Its summary, when stored.
 * @param withMeta - Whether to include `Meta` (`meta=true`).
 * @returns The list item.
 */
export function jobListItem(
  job: Job,
  summary: JobSummary | undefined,
  withMeta: boolean,
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    ID: job.ID,
    ParentID: job.ParentID,
    Name: job.Name,
    Namespace: job.Namespace,
    Datacenters: job.Datacenters,
    NodePool: job.NodePool,
    Multiregion: job.Multiregion ?? null,
    Type: job.Type,
    Priority: job.Priority,
    Periodic: job.Periodic !== null && job.Periodic.Enabled !== false,
    ParameterizedJob: job.ParameterizedJob !== null,
    Stop: job.Stop,
    Status: job.Status,
    StatusDescription: job.StatusDescription,
    JobSummary: summary ?? null,
    CreateIndex: job.CreateIndex,
    ModifyIndex: job.ModifyIndex,
    JobModifyIndex: job.JobModifyIndex,
    SubmitTime: job.SubmitTime,
    Version: job.Version,
  };
  if (withMeta) item['Meta'] = job.Meta;
  return item;
}

interface CachedItem {
  readonly summary: JobSummary | undefined;
  /** The summaries table index when `summary` was last checked to be current. */
  summariesIndex: number;
  readonly modifyIndex: number;
  readonly json: string;
}
const itemCache = new WeakMap<Job, CachedItem>();
const itemCacheWithMeta = new WeakMap<Job, CachedItem>();

/**
 * The serialised list item of a job, cached per stored job object (the store replaces objects on
 * write; the ModifyIndex guards against an in-place change). The summary is looked up again only
 * when the summaries table has moved since the item was last checked.
 */
function jobListItemJson(store: ReadonlyStore, job: Job, withMeta: boolean): string {
  const cache = withMeta ? itemCacheWithMeta : itemCache;
  const cached = cache.get(job);
  const summariesIndex = store.summaries.watch.current;
  if (cached !== undefined && cached.modifyIndex === job.ModifyIndex) {
    if (cached.summariesIndex === summariesIndex) return cached.json;
    if (store.summaries.get(namespaceIdKey(job.Namespace, job.ID)) === cached.summary) {
      cached.summariesIndex = summariesIndex;
      return cached.json;
    }
  }
  const summary = store.summaries.get(namespaceIdKey(job.Namespace, job.ID));
  const json = JSON.stringify(jobListItem(job, summary, withMeta));
  cache.set(job, { summary, summariesIndex, modifyIndex: job.ModifyIndex, json });
  return json;
}

/**
 * The JSON array of serialised items, built as one flat string: the brackets go into the first
 * and last parts before the join (a template around the join would be a rope of the 60 kB page
 * plus two characters, which the answer's byte count then copies into a flat string again).
 */
function jsonArray(parts: string[]): string {
  if (parts.length === 0) return '[]';
  parts[0] = `[${parts[0] as string}`;
  parts[parts.length - 1] = `${parts[parts.length - 1] as string}]`;
  return parts.join(',');
}

/** Caches per-namespace permission answers for one request. */ /** Caches per-namespace permission answers for one request. */
function namespaceGate(principal: Principal, capability: 'list-jobs' | 'read-job'): (ns: string) => boolean {
  const seen = new Map<string, boolean>();
  return (ns) => {
    let allowed = seen.get(ns);
    if (allowed === undefined) {
      allowed = principal.allowNamespace(ns, capability);
      seen.set(ns, allowed);
    }
    return allowed;
  };
}

/**
 * Registers the job read endpoints of document 1.
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerJobReadRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const store = ctx.cluster.store;

  app.get('/v1/jobs', async (request: FastifyRequest, reply: FastifyReply) => {
    const { query, namespace, principal } = beginInNamespace(ctx, request, 'list-jobs');
    const perPage = readPerPage(query);
    const reverse = readReverse(query);
    const filterText = readFilter(query);
    const prefix = readPrefix(query);
    const withMeta = queryBool(query, 'meta', false);
    const filter = filterText === undefined ? undefined : compileItemFilter(filterText, JobSchema);
    await blockingRead(ctx, request, reply, [store.jobs.watch, store.summaries.watch]);

    let predicate: ((job: Job) => boolean) | undefined;
    let keyPrefix: string | undefined;
    if (namespace === '*') {
      const allowed = ctx.acl.enabled ? namespaceGate(principal, 'list-jobs') : () => true;
      predicate = (job) =>
        allowed(job.Namespace) && job.ID.startsWith(prefix) && (filter === undefined || filter(job));
    } else {
      keyPrefix = namespaceIdKey(namespace, prefix);
      predicate = filter;
    }
    const page = readPage(store.jobs.items, {
      perPage,
      nextToken: queryString(query, 'next_token'),
      reverse,
      filter: predicate,
      prefix: keyPrefix,
    });
    setNextToken(reply, page.nextToken);
    return sendJsonText(
      request,
      reply,
      jsonArray(page.items.map((job) => jobListItemJson(store, job, withMeta))),
    );
  });

  const readJob = (namespace: string, id: string): Job => {
    return found(store.jobs.get(namespaceIdKey(namespace, id)), 'job not found');
  };

  app.get('/v1/job/:job_id', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { namespace } = beginInNamespace(ctx, request, 'read-job');
    await blockingRead(ctx, request, reply, [store.jobs.watch]);
    return sendJson(request, reply, readJob(namespace, request.params.job_id));
  });

  app.get('/v1/job/:job_id/submission', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginInNamespace(ctx, request, 'read-job');
    if (queryString(query, 'version') === undefined || queryString(query, 'version') === '') {
      throw badRequest('The "version" query parameter is required');
    }
    const version = queryUint(query, 'version', 0);
    await blockingRead(ctx, request, reply, [store.submissions.watch]);
    const submission = found(
      store.ofJob('submissions', namespace, request.params.job_id).find((s) => s.Version === version),
      'job source not found',
    );
    return sendJson(request, reply, submission);
  });

  app.get('/v1/job/:job_id/versions', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginInNamespace(ctx, request, 'read-job');
    const diffs = queryBool(query, 'diffs', false);
    const index = await blockingRead(ctx, request, reply, [store.jobVersions.watch]);
    const { Versions, Diffs } = ctx.cluster.jobVersions({ namespace, id: request.params.job_id, diffs });
    return sendJson(request, reply, {
      Diffs,
      Index: index,
      KnownLeader: true,
      LastContact: 0,
      Versions,
    });
  });

  app.get('/v1/job/:job_id/allocations', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginInNamespace(ctx, request, 'read-job');
    const all = queryBool(query, 'all', false);
    await blockingRead(ctx, request, reply, [store.allocs.watch]);
    const job = store.jobs.get(namespaceIdKey(namespace, request.params.job_id));
    const allocs = store
      .ofJob('allocs', namespace, request.params.job_id)
      .filter((a) => all || job === undefined || a.Job === null || a.Job.CreateIndex === job.CreateIndex)
      .map(({ Job: _job, ...rest }) => rest);
    return sendJson(request, reply, allocs);
  });

  app.get('/v1/job/:job_id/evaluations', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { namespace } = beginInNamespace(ctx, request, 'read-job');
    await blockingRead(ctx, request, reply, [store.evals.watch]);
    return sendJson(request, reply, store.ofJob('evals', namespace, request.params.job_id));
  });

  const deploymentsOf = (namespace: string, id: string, all: boolean): unknown[] => {
    const job = store.jobs.get(namespaceIdKey(namespace, id));
    return store
      .ofJob('deployments', namespace, id)
      .filter((d) => all || job === undefined || d.JobCreateIndex === job.CreateIndex);
  };

  app.get('/v1/job/:job_id/deployments', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginInNamespace(ctx, request, 'read-job');
    const all = queryBool(query, 'all', false);
    await blockingRead(ctx, request, reply, [store.deployments.watch]);
    return sendJson(request, reply, deploymentsOf(namespace, request.params.job_id, all).reverse());
  });

  app.get('/v1/job/:job_id/deployment', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { namespace } = beginInNamespace(ctx, request, 'read-job');
    await blockingRead(ctx, request, reply, [store.deployments.watch]);
    const list = deploymentsOf(namespace, request.params.job_id, false);
    return sendJson(request, reply, list.at(-1) ?? null);
  });

  app.get('/v1/job/:job_id/summary', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { namespace } = beginInNamespace(ctx, request, 'read-job');
    await blockingRead(ctx, request, reply, [store.summaries.watch]);
    const summary = found(
      store.summaries.get(namespaceIdKey(namespace, request.params.job_id)),
      'job not found',
    );
    return sendJson(request, reply, summary);
  });
}
