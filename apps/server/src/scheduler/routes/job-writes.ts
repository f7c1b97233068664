import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JobDispatchRequest, JobParseRequest, JobPlanRequest, JobRegisterRequest } from '@sked/model';
import { sendJson } from '../../http/app.js';
import { queryString } from '../../http/conventions.js';
import { badRequest } from '../../http/errors.js';
import { authenticate, requireNamespace } from '../acl/index.js';
import { decodeDispatchPayload } from '../core/index.js';
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

/**
 * Registers the job write endpoints of document 1 (create, update, parse, plan, dispatch, revert,
 * stable, evaluate, periodic force, stop).
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerJobWriteRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const { cluster } = ctx;

  const checkJobRegion = (job: { Region?: string | undefined }): void => {
    if (job.Region !== undefined && job.Region !== '' && job.Region !== ctx.region) {
      throw badRequest(`No path to region ${JSON.stringify(job.Region)}`);
    }
  };

  const register = (
    request: FastifyRequest<{ Params: Partial<Params> }>,
    reply: FastifyReply,
  ): FastifyReply => {
    const { query } = begin(ctx, request);
    authenticate(ctx.acl, request);
    const body = validateBody(JobRegisterRequest, request.body);
    const job = body.Job;
    const pathId = request.params.job_id;
    if (pathId !== undefined && job.ID !== pathId) {
      throw badRequest(
        `Job ID ${JSON.stringify(job.ID)} does not match the job ID in the path ${JSON.stringify(pathId)}`,
      );
    }
    checkJobRegion(job);
    const namespace = bodyNamespace('Job', job.Namespace, query, { bodyWins: true });
    requireNamespace(ctx.acl, request, namespace, 'submit-job');
    if (body.PolicyOverride === true) requireNamespace(ctx.acl, request, namespace, 'policy-override');
    checkJobTokens(ctx, job, job);
    const result = cluster.registerJob({
      job: { ...job, Namespace: namespace },
      enforceIndex: body.EnforceIndex ?? false,
      jobModifyIndex: body.JobModifyIndex ?? 0,
      evalPriority: body.EvalPriority ?? 0,
      policyOverride: body.PolicyOverride ?? false,
      preserveCounts: body.PreserveCounts ?? false,
      ...(body.Submission === undefined || body.Submission === null ? {} : { submission: body.Submission }),
    });
    return sendWrite(ctx, request, reply, { ...result, KnownLeader: true, LastContact: 0, Warnings: '' });
  };
  app.post('/v1/jobs', register);
  app.put('/v1/jobs', register);
  app.post('/v1/job/:job_id', register);
  app.put('/v1/job/:job_id', register);

  const parse = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { namespace } = beginInNamespace(ctx, request, 'parse-job', 'submit-job');
    const body = validateBody(JobParseRequest, request.body);
    const job = await cluster.parseJob({
      hcl: body.JobHCL,
      canonicalize: body.Canonicalize ?? false,
      variables: body.Variables ?? '',
      variableFlags: body.VariableFlags ?? {},
      hclV1: body.HCLv1 ?? false,
      namespace,
    });
    return sendJson(request, reply, job);
  };
  app.post('/v1/jobs/parse', parse);
  app.put('/v1/jobs/parse', parse);

  const plan = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { query } = begin(ctx, request);
    authenticate(ctx.acl, request);
    const body = validateBody(JobPlanRequest, request.body);
    const job = body.Job;
    if (job.ID !== request.params.job_id) {
      throw badRequest(
        `Job ID ${JSON.stringify(job.ID)} does not match the job ID in the path ${JSON.stringify(request.params.job_id)}`,
      );
    }
    checkJobRegion(job);
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
