/**
 * The HTTP endpoints of the scheduling service: jobs (document 1), allocations and volumes
 * (document 2).
 *
 * @packageDocumentation
 */
import type { FastifyInstance } from 'fastify';
import { hasControlCharacter } from '@sked/model';
import { badRequest } from '../../http/errors.js';
import { registerAllocationRoutes } from './allocations.js';
import type { SchedulerRouteContext } from './common.js';
import { registerJobReadRoutes } from './job-reads.js';
import { registerJobWriteRoutes } from './job-writes.js';
import { registerOpenApiRoute } from './openapi.js';
import { registerStatusRoutes, rpcAddressOf } from './status.js';
import { registerSystemRoutes } from './system.js';
import { registerVolumeRoutes } from './volumes.js';

export type { SchedulerCluster, SchedulerRouteContext } from './common.js';
export { allocListItem } from './allocations.js';
export { jobListItem } from './job-reads.js';
export { rpcAddressOf } from './status.js';
export { volumeListItem } from './volumes.js';

/**
 * Registers every job, allocation (but exec), volume and status endpoint, and the OpenAPI
 * description at `GET /v1/openapi.json`.
 * @param app - The fastify instance built by `createHttpApp`.
 * @param ctx - Cluster, ACL, region and shutdown signal.
 */
export function registerSchedulerRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  refuseControlCharactersInIds(app);
  registerJobReadRoutes(app, ctx);
  registerJobWriteRoutes(app, ctx);
  registerAllocationRoutes(app, ctx);
  registerVolumeRoutes(app, ctx);
  registerStatusRoutes(app, ctx, ctx.rpcAddress ?? rpcAddressOf('127.0.0.1'));
  registerOpenApiRoute(app);
  registerSystemRoutes(app, ctx);
}

/**
 * Refuses, with a 400 naming it, an ID or name in the path (`/v1/job/:job_id`, ...) holding a control
 * character: none can be stored, and a NUL could otherwise reach a storage key.
 * @param app - The scheduling service's fastify instance.
 */
function refuseControlCharactersInIds(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as Readonly<Record<string, unknown>> | undefined;
    for (const value of Object.values(params ?? {})) {
      if (typeof value === 'string' && hasControlCharacter(value)) {
        done(
          badRequest(`Invalid ID ${JSON.stringify(value.slice(0, 200))}: it contains a control character`),
        );
        return;
      }
    }
    done();
  });
}
