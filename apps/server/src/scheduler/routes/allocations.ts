import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readPage } from '@sked/query';
import { AllocRestartRequest, AllocSignalRequest, Allocation as AllocationSchema } from '@sked/model';
import { sendJson } from '../../http/app.js';
import { blockingRead } from '../../http/blocking.js';
import {
  queryBool,
  queryString,
  readFilter,
  readPerPage,
  readPrefix,
  readReverse,
  requireUuid,
} from '../../http/conventions.js';
import { forbidden } from '../../http/errors.js';
import { compileItemFilter } from '../../http/filter.js';
import { authenticate, type Principal } from '../acl/index.js';
import type { Allocation } from '../core/index.js';
import {
  begin,
  beginInNamespace,
  found,
  pageArray,
  setNextToken,
  sendWrite,
  validateBody,
  type SchedulerRouteContext,
} from './common.js';

type Params = { alloc_id: string };

/**
 * An allocation as lists show it: without `Job`, `AllocatedResources` only with `resources=true`,
 * `TaskStates` null with `task_states=false`.
 * @param alloc - The stored allocation.
 * @param options - The list's `resources` and `task_states` flags.
 * @returns The list item.
 */
export function allocListItem(
  alloc: Allocation,
  options: { resources: boolean; taskStates: boolean },
): Record<string, unknown> {
  const { Job: _job, ...rest } = alloc;
  const item: Record<string, unknown> = rest;
  if (!options.resources) delete item['AllocatedResources'];
  if (!options.taskStates) item['TaskStates'] = null;
  return item;
}

/** Index of the first allocation whose ID is not below `id` (binary search). */
function lowerBound(sorted: readonly Allocation[], id: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as Allocation).ID < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Registers the allocation endpoints of document 2 (all but exec).
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerAllocationRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const { store } = ctx.cluster;

  // Allocations sorted by ID for prefix listings, rebuilt only when the table has moved since.
  let byId: { index: number; items: Allocation[] } | undefined;
  const sortedById = (): Allocation[] => {
    const index = store.allocs.watch.current;
    if (byId?.index !== index) {
      const items = [...store.allocs.items.values({})].sort((a, b) =>
        a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0,
      );
      byId = { index, items };
    }
    return byId.items;
  };

  app.get('/v1/allocations', async (request: FastifyRequest, reply: FastifyReply) => {
    const { query, namespace, principal } = beginInNamespace(ctx, request, 'read-job');
    const perPage = readPerPage(query);
    const reverse = readReverse(query);
    const filterText = readFilter(query);
    const prefix = readPrefix(query, { hex: true });
    const resources = queryBool(query, 'resources', false);
    const taskStates = queryBool(query, 'task_states', true);
    const filter = filterText === undefined ? undefined : compileItemFilter(filterText, AllocationSchema);
    await blockingRead(ctx, request, reply, [store.allocs.watch]);

    const seen = new Map<string, boolean>();
    const inNamespace = (alloc: Allocation): boolean => {
      if (namespace !== '*') return alloc.Namespace === namespace;
      if (!ctx.acl.enabled) return true;
      let allowed = seen.get(alloc.Namespace);
      if (allowed === undefined) {
        allowed = principal.allowNamespace(alloc.Namespace, 'read-job');
        seen.set(alloc.Namespace, allowed);
      }
      return allowed;
    };
    const nextToken = queryString(query, 'next_token');
    let page: { items: Allocation[]; nextToken?: string };
    if (prefix !== '') {
      // With a prefix the order and the tokens are by ID.
      const lower = prefix.toLowerCase();
      const sorted = sortedById();
      const matching: Allocation[] = [];
      for (let i = lowerBound(sorted, lower); i < sorted.length; i++) {
        const alloc = sorted[i] as Allocation;
        if (!alloc.ID.startsWith(lower)) break;
        if (inNamespace(alloc)) matching.push(alloc);
      }
      page = pageArray(matching, (alloc) => alloc.ID, { perPage, nextToken, reverse });
    } else {
      page = readPage(store.allocs.items, {
        perPage,
        nextToken,
        reverse,
        filter: (alloc) => inNamespace(alloc) && (filter === undefined || filter(alloc)),
      });
    }
    setNextToken(reply, page.nextToken);
    return sendJson(
      request,
      reply,
      page.items.map((alloc) => allocListItem(alloc, { resources, taskStates })),
    );
  });

  const lookup = (id: string): Allocation => {
    requireUuid('allocation', id);
    return found(store.allocs.get(id.toLowerCase()), 'alloc not found');
  };
  const allow = (
    principal: Principal,
    alloc: Allocation,
    capability: 'read-job' | 'alloc-lifecycle',
  ): void => {
    if (!principal.allowNamespace(alloc.Namespace, capability)) throw forbidden('Permission denied');
  };

  app.get('/v1/allocation/:alloc_id', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    begin(ctx, request);
    const principal = authenticate(ctx.acl, request);
    requireUuid('allocation', request.params.alloc_id);
    await blockingRead(ctx, request, reply, [store.allocs.watch]);
    const alloc = lookup(request.params.alloc_id);
    allow(principal, alloc, 'read-job');
    return sendJson(request, reply, alloc);
  });

  const stop = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { query } = begin(ctx, request);
    const principal = authenticate(ctx.acl, request);
    const alloc = lookup(request.params.alloc_id);
    allow(principal, alloc, 'alloc-lifecycle');
    const noShutdownDelay = queryBool(query, 'no_shutdown_delay', false);
    const result = ctx.cluster.stopAlloc({ allocId: alloc.ID, noShutdownDelay });
    return sendWrite(ctx, request, reply, result);
  };
  app.post('/v1/allocation/:alloc_id/stop', stop);
  app.put('/v1/allocation/:alloc_id/stop', stop);

  const signal = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    begin(ctx, request);
    const principal = authenticate(ctx.acl, request);
    const alloc = lookup(request.params.alloc_id);
    allow(principal, alloc, 'alloc-lifecycle');
    const body = validateBody(AllocSignalRequest, request.body ?? {});
    const result = ctx.cluster.signalAlloc({
      allocId: alloc.ID,
      signal: body.Signal ?? '',
      task: body.Task ?? '',
    });
    return sendWrite(ctx, request, reply, result ?? {});
  };
  app.post('/v1/client/allocation/:alloc_id/signal', signal);
  app.put('/v1/client/allocation/:alloc_id/signal', signal);

  const restart = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    begin(ctx, request);
    const principal = authenticate(ctx.acl, request);
    const alloc = lookup(request.params.alloc_id);
    allow(principal, alloc, 'alloc-lifecycle');
    const body = validateBody(AllocRestartRequest, request.body ?? {});
    const result = ctx.cluster.restartAlloc({
      allocId: alloc.ID,
      task: body.Task ?? '',
      allTasks: (body.Task ?? '') === '',
    });
    return sendWrite(ctx, request, reply, result ?? {});
  };
  app.post('/v1/client/allocation/:alloc_id/restart', restart);
  app.put('/v1/client/allocation/:alloc_id/restart', restart);
}
