import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JobEvaluateRequest, JobRevertRequest, JobStabilityRequest } from '@sked/model';
import { queryBool, queryUint } from '../../http/conventions.js';
import { badRequest } from '../../http/errors.js';
import { beginWrite, sendWrite, validateBody, type SchedulerRouteContext } from './common.js';
import { checkJobTokens } from './job-tokens.js';

type Params = { job_id: string };

/**
 * Registers the job action endpoints of document 1 (revert, stable, evaluate, periodic force, stop).
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerJobActionRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const { cluster } = ctx;

  const checkBodyJobId = (bodyId: string, pathId: string): void => {
    if (bodyId !== pathId) {
      throw badRequest(
        `JobID ${JSON.stringify(bodyId)} does not match the job ID in the path ${JSON.stringify(pathId)}`,
      );
    }
  };

  const revert = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { namespace } = beginWrite(ctx, request, 'submit-job');
    const body = validateBody(JobRevertRequest, request.body);
    checkBodyJobId(body.JobID, request.params.job_id);
    const result = cluster.revertJob({
      namespace,
      id: body.JobID,
      version: body.JobVersion ?? 0,
      // the version reverted to is registered again, with the tokens of the revert request
      admit: (target) => checkJobTokens(ctx, target, body),
      ...(body.EnforcePriorVersion === undefined || body.EnforcePriorVersion === null
        ? {}
        : { enforcePriorVersion: body.EnforcePriorVersion }),
    });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/job/:job_id/revert', revert);
  app.put('/v1/job/:job_id/revert', revert);

  const stable = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { namespace } = beginWrite(ctx, request, 'submit-job');
    const body = validateBody(JobStabilityRequest, request.body);
    checkBodyJobId(body.JobID, request.params.job_id);
    const result = cluster.setJobStability({
      namespace,
      id: body.JobID,
      version: body.JobVersion ?? 0,
      stable: body.Stable ?? false,
    });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/job/:job_id/stable', stable);
  app.put('/v1/job/:job_id/stable', stable);

  const evaluate = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { namespace } = beginWrite(ctx, request, 'submit-job');
    const body =
      request.body === undefined
        ? { JobID: request.params.job_id }
        : validateBody(JobEvaluateRequest, request.body);
    checkBodyJobId(body.JobID, request.params.job_id);
    const result = cluster.evaluateJob({
      namespace,
      id: body.JobID,
      forceReschedule: body.EvalOptions?.ForceReschedule ?? false,
    });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/job/:job_id/evaluate', evaluate);
  app.put('/v1/job/:job_id/evaluate', evaluate);

  const force = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { namespace } = beginWrite(ctx, request, 'dispatch-job', 'submit-job');
    const result = cluster.forcePeriodic({ namespace, id: request.params.job_id });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/job/:job_id/periodic/force', force);
  app.put('/v1/job/:job_id/periodic/force', force);

  app.delete('/v1/job/:job_id', (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const { query, namespace } = beginWrite(ctx, request, 'submit-job');
    const purge = queryBool(query, 'purge', false);
    const global = queryBool(query, 'global', false);
    const noShutdownDelay = queryBool(query, 'no_shutdown_delay', false);
    const evalPriority = queryUint(query, 'eval_priority', 0);
    if (evalPriority > 100) {
      throw badRequest(`eval_priority must be between 1 and 100, not ${evalPriority}`);
    }
    const result = cluster.deregisterJob({
      namespace,
      id: request.params.job_id,
      purge,
      global,
      evalPriority,
      noShutdownDelay,
    });
    return sendWrite(ctx, request, reply, result);
  });
}
