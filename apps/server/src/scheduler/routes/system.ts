import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireManagement } from '../acl/enforce.js';
import { begin, type SchedulerRouteContext } from './common.js';

/**
 * Registers `PUT /v1/system/gc`: a forced garbage collection, as the service's: everything
 * finished goes regardless of the age thresholds (see the core's gc/collect.ts). Needs a
 * management token; answers 200 with an empty body and the index after the collection.
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerSystemRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  app.put('/v1/system/gc', (request: FastifyRequest, reply: FastifyReply) => {
    begin(ctx, request);
    requireManagement(ctx.acl, request);
    const result = ctx.cluster.collectGarbage({ force: true });
    reply.header('X-Svc-Index', String(Math.max(1, result.Index)));
    return reply.code(200).send();
  });
}
