import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  JobDispatchRequest,
  JobParseRequest,
  JobPlanRequest,
  JobRegisterRequest,
  ownValue,
} from '@sked/model';
import { sendJson } from '../../http/app.js';
import { queryString, type Query } from '../../http/conventions.js';
import { badRequest } from '../../http/errors.js';
import { authenticate, requireNamespace } from '../acl/index.js';
import { decodeDispatchPayload, type RegisterResponse } from '../core/index.js';
import { registerJobActionRoutes } from './job-actions.js';
import { checkJobTokens } from './job-tokens.js';
import {
  begin,
  beginInNamespace,
  beginWrite,
  bodyNamespace,
  sendWrite,
  validateBody,
  type SchedulerRouteContext,
} from './common.js';

type Params = { job_id: string };

function checkRegionOf(ctx: SchedulerRouteContext, job: { Region?: string | undefined }): void {
  if (job.Region !== undefined && job.Region !== '' && job.Region !== ctx.region) {
    throw badRequest(`No path to region ${JSON.stringify(job.Region)}`);
  }
}

/**
 * The region a job write goes to, as the service decides it: the query's `region` first (the job
 * takes it, whatever its own `Region` says), then the job's `Region`; none, or `global`, is the
 * serving region.
 * @param ctx - Route context.
 * @param query - The request's query (its `region` is this member's: `begin` checked it).
 * @param job - The job of the body.
 * @returns The region.
 */
export function jobWriteRegion(
  ctx: SchedulerRouteContext,
  query: Query,
  job: { Region?: string | undefined },
): string {
  if ((queryString(query, 'region') ?? '') !== '') return ctx.region;
  const named = job.Region ?? '';
  return named === '' || named === 'global' ? ctx.region : named;
}

/** The body's `Job.Region` when it is a string (own keys only; the body is checked later). */
function bodyJobRegion(body: unknown): string | undefined {
  const job = ownValue(body as Record<string, unknown> | null, 'Job');
  const region =
    typeof job === 'object' ? ownValue(job as Record<string, unknown> | null, 'Region') : undefined;
  return typeof region === 'string' ? region : undefined;
}

/**
 * Sends a job write to the region its job names (see {@link jobWriteRegion}) when that is another
 * member's: the body, read already, goes there and the member's answer is the reply.
 * @returns Whether it was forwarded (else the job is written here, with this region).
 * @throws 400 `No path to region "<name>"` when no member serves the job's region.
 */
function forwardedByJobRegion(
  ctx: SchedulerRouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
  region: string,
): boolean {
  if (region === ctx.region) return false;
  if (ctx.forwardParsed?.(request, reply, region, request.body) === true) return true;
  throw badRequest(`No path to region ${JSON.stringify(region)}`);
}

/** What {@link registerJobFromBody} takes besides the route context. */
export interface JobRegistration {
  /** The request body (`{"Job": ...}` and the register options), not yet validated. */
  readonly body: unknown;
  /** The request's query (its `namespace`). */
  readonly query: Query;
  /** The region the job is written with (the route's {@link jobWriteRegion}). @defaultValue the job's `Region` */
  readonly region?: string | undefined;
  /** The job ID of the path (`POST /v1/job/:job_id`), which the body's must equal. */
  readonly pathId?: string | undefined;
  /** Checks the caller may submit to the namespace (and override policies); throws the 403. */
  authorize(namespace: string, policyOverride: boolean): void;
}

/**
 * Registers a job from a register body, as `POST /v1/jobs` does: the body validated against the
 * model's `JobRegisterRequest`, the region, the namespace (the body's when the query names none),
 * the caller's permission, the job's tokens, then the core's write. The route and the server's
 * seeding (`server.seed.job`) both come here.
 * @param ctx - Route context.
 * @param input - Body, query, path ID and the permission check.
 * @returns The core's answer.
 * @throws HttpError 400 naming what is wrong (a field, the namespace, a token), the check's 403,
 *   or the core's ClusterError (check-and-set, semantic problems of the job).
 */
export function registerJobFromBody(ctx: SchedulerRouteContext, input: JobRegistration): RegisterResponse {
  const body = validateBody(JobRegisterRequest, input.body);
  const job = body.Job;
  if (input.pathId !== undefined && job.ID !== input.pathId) {
    throw badRequest(
      `Job ID ${JSON.stringify(job.ID)} does not match the job ID in the path ${JSON.stringify(input.pathId)}`,
    );
  }
  const region = input.region ?? job.Region;
  checkRegionOf(ctx, { Region: region });
  const namespace = bodyNamespace('Job', job.Namespace, input.query, { bodyWins: true });
  input.authorize(namespace, body.PolicyOverride === true);
  checkJobTokens(ctx, job, job);
  return ctx.cluster.registerJob({
    job: { ...job, Namespace: namespace, ...(region === undefined ? {} : { Region: region }) },
    enforceIndex: body.EnforceIndex ?? false,
    jobModifyIndex: body.JobModifyIndex ?? 0,
    evalPriority: body.EvalPriority ?? 0,
    policyOverride: body.PolicyOverride ?? false,
    preserveCounts: body.PreserveCounts ?? false,
    ...(body.Submission === undefined || body.Submission === null ? {} : { submission: body.Submission }),
  });
}

/**
 * Parses HCL job text from a parse body, as `POST /v1/jobs/parse` does (the body validated against
 * the model's `JobParseRequest`).
 * @param ctx - Route context.
 * @param body - The request body, not yet validated.
 * @param namespace - The request's namespace.
 * @returns The parsed job (canonical with `Canonicalize`).
 * @throws HttpError 400 for a bad body; the core's ClusterError for HCL that does not parse.
 */
export async function parseJobFromBody(
  ctx: SchedulerRouteContext,
  body: unknown,
  namespace: string,
): Promise<Awaited<ReturnType<SchedulerRouteContext['cluster']['parseJob']>>> {
  const checked = validateBody(JobParseRequest, body);
  return ctx.cluster.parseJob({
    hcl: checked.JobHCL,
    canonicalize: checked.Canonicalize ?? false,
    variables: checked.Variables ?? '',
    variableFlags: checked.VariableFlags ?? {},
    hclV1: checked.HCLv1 ?? false,
    namespace,
  });
}

/**
 * Registers the job write endpoints of document 1 (create, update, parse, plan, dispatch, revert,
 * stable, evaluate, periodic force, stop).
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerJobWriteRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const { cluster } = ctx;

  const register = (
    request: FastifyRequest<{ Params: Partial<Params> }>,
    reply: FastifyReply,
  ): FastifyReply => {
    const { query } = begin(ctx, request);
    // the job's Region routes the write before this member's token check (the token travels);
    // the body is validated where the job is written (here or by the member of its region)
    const region = jobWriteRegion(ctx, query, { Region: bodyJobRegion(request.body) });
    if (forwardedByJobRegion(ctx, request, reply, region)) return reply;
    authenticate(ctx.acl, request);
    const result = registerJobFromBody(ctx, {
      body: request.body,
      region,
      query,
      pathId: request.params.job_id,
      authorize(namespace, policyOverride) {
        requireNamespace(ctx.acl, request, namespace, 'submit-job');
        if (policyOverride) requireNamespace(ctx.acl, request, namespace, 'policy-override');
      },
    });
    return sendWrite(ctx, request, reply, { ...result, KnownLeader: true, LastContact: 0, Warnings: '' });
  };
  app.post('/v1/jobs', register);
  app.put('/v1/jobs', register);
  app.post('/v1/job/:job_id', register);
  app.put('/v1/job/:job_id', register);

  const parse = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { namespace } = beginInNamespace(ctx, request, 'parse-job', 'submit-job');
    return sendJson(request, reply, await parseJobFromBody(ctx, request.body, namespace));
  };
  app.post('/v1/jobs/parse', parse);
  app.put('/v1/jobs/parse', parse);

  const plan = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { query } = begin(ctx, request);
    const body = validateBody(JobPlanRequest, request.body);
    const region = jobWriteRegion(ctx, query, body.Job);
    if (forwardedByJobRegion(ctx, request, reply, region)) return reply;
    authenticate(ctx.acl, request);
    const job = { ...body.Job, Region: region };
    if (job.ID !== request.params.job_id) {
      throw badRequest(
        `Job ID ${JSON.stringify(job.ID)} does not match the job ID in the path ${JSON.stringify(request.params.job_id)}`,
      );
    }
    const namespace = bodyNamespace('Job', job.Namespace, query, { bodyWins: true });
    requireNamespace(ctx.acl, request, namespace, 'submit-job');
    if (body.PolicyOverride === true) requireNamespace(ctx.acl, request, namespace, 'policy-override');
    checkJobTokens(ctx, job, job);
    const result = cluster.planJob({
      job: { ...job, Namespace: namespace },
      diff: body.Diff ?? false,
      policyOverride: body.PolicyOverride ?? false,
    });
    return sendJson(request, reply, result);
  };
  app.post('/v1/job/:job_id/plan', plan);
  app.put('/v1/job/:job_id/plan', plan);

  const dispatch = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { query, namespace } = beginWrite(ctx, request, 'dispatch-job');
    const body = validateBody(JobDispatchRequest, request.body ?? {});
    const payload = decodeDispatchPayload(body.Payload ?? '');
    const result = cluster.dispatchJob({
      namespace,
      id: request.params.job_id,
      payload,
      meta: body.Meta ?? {},
      idPrefixTemplate: body.IdPrefixTemplate ?? '',
      idempotencyToken:
        queryString(query, 'IdempotencyToken') ?? queryString(query, 'idempotency_token') ?? '',
    });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/job/:job_id/dispatch', dispatch);
  app.put('/v1/job/:job_id/dispatch', dispatch);

  registerJobActionRoutes(app, ctx);
}
