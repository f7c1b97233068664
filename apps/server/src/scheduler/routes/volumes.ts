import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { namespaceIdKey, readPage } from '@sked/query';
import { CsiVolume as CsiVolumeSchema, CsiVolumeRegisterRequest, nullRecord } from '@sked/model';
import { sendJson } from '../../http/app.js';
import { blockingRead } from '../../http/blocking.js';
import {
  queryBool,
  queryString,
  readFilter,
  readPerPage,
  readPrefix,
  readReverse,
} from '../../http/conventions.js';
import { badRequest } from '../../http/errors.js';
import { compileItemFilter } from '../../http/filter.js';
import type { Allocation, CsiVolume } from '../core/index.js';
import {
  beginInNamespace,
  beginWrite,
  bodyNamespace,
  found,
  setNextToken,
  sendWrite,
  validateBody,
  type SchedulerRouteContext,
} from './common.js';
import { allocListItem } from './allocations.js';

type Params = { volume_id: string };

const HIDDEN_IN_LIST = new Set(['Allocations', 'ReadAllocs', 'WriteAllocs', 'Version', 'Claims', 'Secrets']);

/**
 * A volume as the list shows it: without Allocations, ReadAllocs, WriteAllocs, Version, and
 * without its secrets.
 * @param volume - The stored volume.
 * @returns The list item.
 */
export function volumeListItem(volume: CsiVolume): Record<string, unknown> {
  const item = nullRecord<unknown>();
  for (const [key, value] of Object.entries(volume)) {
    if (!HIDDEN_IN_LIST.has(key)) item[key] = value;
  }
  return item;
}

/**
 * Registers the volume endpoints of document 2.
 * @param app - The fastify instance.
 * @param ctx - Route context.
 */
export function registerVolumeRoutes(app: FastifyInstance, ctx: SchedulerRouteContext): void {
  const { store } = ctx.cluster;

  const claimsOf = (volume: CsiVolume): { id: string; nodeId: string; mode: string }[] =>
    Object.values(volume.Claims ?? {}).map((claim) => ({
      id: claim.AllocationID,
      nodeId: claim.NodeID,
      mode: claim.Mode,
    }));

  app.get('/v1/volumes', async (request: FastifyRequest, reply: FastifyReply) => {
    const { query, namespace, principal } = beginInNamespace(ctx, request, 'csi-list-volume');
    const type = queryString(query, 'type') ?? '';
    if (type !== '' && type !== 'csi') throw badRequest(`Unsupported volume type ${JSON.stringify(type)}`);
    const perPage = readPerPage(query);
    const reverse = readReverse(query);
    const filterText = readFilter(query, ['prefix', 'node_id', 'plugin_id']);
    const prefix = readPrefix(query);
    const nodeId = readPrefix(query, { hex: true, name: 'node_id' });
    const pluginId = readPrefix(query, { name: 'plugin_id' });
    const filter = filterText === undefined ? undefined : compileItemFilter(filterText, CsiVolumeSchema);
    await blockingRead(ctx, request, reply, [store.volumes.watch]);
    if (type === '') return sendJson(request, reply, []);

    const seen = new Map<string, boolean>();
    const allowed = (ns: string): boolean => {
      if (!ctx.acl.enabled) return true;
      let ok = seen.get(ns);
      if (ok === undefined) seen.set(ns, (ok = principal.allowNamespace(ns, 'csi-list-volume')));
      return ok;
    };
    const predicate = (volume: CsiVolume): boolean =>
      (namespace !== '*' || allowed(volume.Namespace)) &&
      (namespace !== '*' || volume.ID.startsWith(prefix)) &&
      volume.PluginID.startsWith(pluginId) &&
      (nodeId === '' || claimsOf(volume).some((claim) => claim.nodeId.startsWith(nodeId))) &&
      (filter === undefined || filter(volume));
    const page = readPage(store.volumes.items, {
      perPage,
      nextToken: queryString(query, 'next_token'),
      reverse,
      filter: predicate,
      prefix: namespace === '*' ? undefined : namespaceIdKey(namespace, prefix),
    });
    setNextToken(reply, page.nextToken);
    return sendJson(request, reply, page.items.map(volumeListItem));
  });

  const readVolume = (namespace: string, id: string): CsiVolume => {
    return found(store.volumes.get(namespaceIdKey(namespace, id)), 'volume not found');
  };

  app.get('/v1/volume/csi/:volume_id', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { namespace } = beginInNamespace(ctx, request, 'csi-read-volume');
    await blockingRead(ctx, request, reply, [store.volumes.watch, store.allocs.watch]);
    const volume = readVolume(namespace, request.params.volume_id);
    const { Claims: _claims, Secrets: _secrets, ...rest } = volume;
    const allocs: Allocation[] = [];
    const readAllocs = nullRecord<unknown>();
    const writeAllocs = nullRecord<unknown>();
    for (const claim of claimsOf(volume)) {
      const alloc = store.allocs.get(claim.id);
      const stub = alloc === undefined ? null : allocListItem(alloc, { resources: false, taskStates: false });
      if (alloc !== undefined) allocs.push(alloc);
      if (claim.mode === 'write') writeAllocs[claim.id] = stub;
      else readAllocs[claim.id] = stub;
    }
    return sendJson(request, reply, {
      ...rest,
      Secrets: null,
      ReadAllocs: readAllocs,
      WriteAllocs: writeAllocs,
      Allocations: allocs.map((alloc) => allocListItem(alloc, { resources: false, taskStates: false })),
    });
  });

  const register = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply => {
    const { query, namespace } = beginWrite(ctx, request, 'csi-write-volume');
    const body = validateBody(CsiVolumeRegisterRequest, request.body);
    // Each volume is stored in the namespace the token was checked for: a body naming another is 400.
    const volumes = body.Volumes.map((volume) => ({
      ...volume,
      Namespace: bodyNamespace(`Volume ${JSON.stringify(volume.ID)}`, volume.Namespace, query, {
        bodyWins: false,
      }),
    }));
    const pathId = request.params.volume_id;
    const only = volumes.length === 1 ? volumes[0] : undefined;
    if (only !== undefined && pathId !== '' && only.ID !== pathId) {
      throw badRequest(
        `Volume ID ${JSON.stringify(only.ID)} does not match the volume ID in the path ${JSON.stringify(pathId)}`,
      );
    }
    const result = ctx.cluster.registerVolume({ namespace, volumes });
    return sendWrite(ctx, request, reply, result ?? {});
  };
  app.put('/v1/volume/csi/:volume_id', register);
  app.post('/v1/volume/csi/:volume_id', register);

  app.delete('/v1/volume/csi/:volume_id', (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginWrite(ctx, request, 'csi-write-volume');
    const force = queryBool(query, 'force', false);
    const result = ctx.cluster.deregisterVolume({ namespace, id: request.params.volume_id, force });
    return sendWrite(ctx, request, reply, result ?? {});
  });

  app.delete('/v1/volume/csi/:volume_id/detach', (request: FastifyRequest<{ Params: Params }>, reply) => {
    const { query, namespace } = beginWrite(ctx, request, 'csi-write-volume');
    const node = queryString(query, 'node') ?? '';
    if (node === '') throw badRequest('The "node" query parameter is required');
    const result = ctx.cluster.detachVolume({ namespace, id: request.params.volume_id, node });
    return sendWrite(ctx, request, reply, result ?? {});
  });
}
