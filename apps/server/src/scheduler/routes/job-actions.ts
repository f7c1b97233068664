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

  /**
   * A job action whose body names the job (it must be the path's) and is validated once here:
   * POST and PUT, `submit-job` in the request's namespace, then `call` with the typed body.
   */
  const bodyAction = <B extends { JobID: string }>(
    action: string,
    read: (body: unknown, pathId: string) => B,
    call: (namespace: string, body: B) => object,
  ): void => {
    const handler = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
      const { namespace } = beginWrite(ctx, request, 'submit-job');
      const body = read(request.body, request.params.job_id);
      if (body.JobID !== request.params.job_id) {
        throw badRequest(
          `JobID ${JSON.stringify(body.JobID)} does not match the job ID in the path ${JSON.stringify(request.params.job_id)}`,
        );
      }
      return sendWrite(ctx, request, reply, call(namespace, body));
    };
    app.post(`/v1/job/:job_id/${action}`, handler);
    app.put(`/v1/job/:job_id/${action}`, handler);
  };

  bodyAction(
    'revert',
    (body) => validateBody(JobRevertRequest, body),
    (namespace, body) =>
      cluster.revertJob({
        namespace,
        id: body.JobID,
        version: body.JobVersion ?? 0,
        // the version reverted to is registered again, with the tokens of the revert request
        admit: (target) => checkJobTokens(ctx, target, body),
        ...(body.EnforcePriorVersion === undefined || body.EnforcePriorVersion === null
          ? {}
          : { enforcePriorVersion: body.EnforcePriorVersion }),
      }),
  );
  bodyAction(
    'stable',
    (body) => validateBody(JobStabilityRequest, body),
    (namespace, body) =>
      cluster.setJobStability({
        namespace,
        id: body.JobID,
        version: body.JobVersion ?? 0,
        stable: body.Stable ?? false,
      }),
  );
  bodyAction(
    'evaluate',
    (body, pathId) => (body === undefined ? { JobID: pathId } : validateBody(JobEvaluateRequest, body)),
    (namespace, body) =>
      cluster.evaluateJob({
        namespace,
        id: body.JobID,
        forceReschedule: ('EvalOptions' in body && body.EvalOptions?.ForceReschedule) || false,
      }),
  );

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
