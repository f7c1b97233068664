import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PeeringEstablishRequest, PeeringGenerateTokenRequest } from '@sked/model';
import { sendJson } from '../http/app.js';
import { blockingRead, type BlockingContext } from '../http/blocking.js';
import { type Query, queryString } from '../http/conventions.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { secretFromHeaders } from '../http/guards.js';
import { validateBody } from '../http/validate.js';
import type { PeeringAcl, PeeringPrincipal } from './access.js';
import { checkPartition, checkPeerName } from './names.js';
import type { MeshService } from './service.js';

/** What the mesh routes need. */
export interface MeshRouteContext extends BlockingContext {
  /** The peerings. */
  readonly service: MeshService;
  /** The server's ACL (`peering` access of each token). */
  readonly acl: PeeringAcl;
}

/** Header prefix of the mesh service's read headers. */
export const MESH_HEADER_PREFIX = 'X-Mesh';

function authenticate(ctx: MeshRouteContext, request: FastifyRequest): PeeringPrincipal {
  const principal = ctx.acl.resolve(secretFromHeaders(request.headers, 'x-mesh-token'));
  if (principal === undefined) throw forbidden('ACL token not found');
  return principal;
}

function requirePeering(principal: PeeringPrincipal, name: string, access: 'read' | 'write'): void {
  if (!principal.allowPeering(name, access)) throw forbidden('Permission denied');
}

/** Reads the body's `PeerName` and `Partition` before the schema, for messages that say what is wrong. */
function checkNamedBody(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object with a PeerName');
  }
  const record = body as Record<string, unknown>;
  checkPartition(record['Partition'], 'Partition');
  return checkPeerName(record['PeerName'], 'PeerName');
}

function pathName(request: FastifyRequest): string {
  return checkPeerName((request.params as { name?: string }).name ?? '', 'The peering name');
}

/**
 * Registers the mesh service's peering endpoints (relative to `/v1`): generate a token, establish,
 * read, delete and list. Read and list are blocking queries answering `X-Mesh-Index`.
 * @param app - The mesh listener's fastify instance.
 * @param ctx - Service, ACL and shutdown signal.
 */
export function registerPeeringRoutes(app: FastifyInstance, ctx: MeshRouteContext): void {
  const { service } = ctx;

  app.post('/v1/peering/token', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const name = checkNamedBody(request.body);
    requirePeering(principal, name, 'write');
    const body = validateBody(PeeringGenerateTokenRequest, request.body);
    return sendJson(request, reply, { PeeringToken: service.generateToken({ ...body, PeerName: name }) });
  });

  app.post('/v1/peering/establish', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const name = checkNamedBody(request.body);
    requirePeering(principal, name, 'write');
    const body = validateBody(PeeringEstablishRequest, request.body);
    // the exchange with the peer is cancelled (its connection closed) when the client goes away
    // before the answer or the server stops
    const gaveUp = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) gaveUp.abort();
    };
    reply.raw.once('close', onClose);
    try {
      await service.establish({ ...body, PeerName: name }, AbortSignal.any([gaveUp.signal, ctx.shutdown]));
    } finally {
      reply.raw.removeListener('close', onClose);
    }
    return sendJson(request, reply, {});
  });

  app.get('/v1/peering/:name', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = authenticate(ctx, request);
    const name = pathName(request);
    checkPartition(queryString(request.query as Query, 'partition'), 'partition');
    requirePeering(principal, name, 'read');
    await blockingRead(ctx, request, reply, [service.watch], MESH_HEADER_PREFIX);
    const peering = service.read(name);
    if (peering === undefined) throw notFound(`Peering not found for ${JSON.stringify(name)}`);
    return sendJson(request, reply, peering);
  });

  app.delete('/v1/peering/:name', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = authenticate(ctx, request);
    const name = pathName(request);
    checkPartition(queryString(request.query as Query, 'partition'), 'partition');
    requirePeering(principal, name, 'write');
    service.remove(name);
    return reply.code(200).send();
  });

  app.get('/v1/peerings', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = authenticate(ctx, request);
    checkPartition(queryString(request.query as Query, 'partition'), 'partition');
    if (!principal.allowPeering('*', 'read')) throw forbidden('Permission denied');
    await blockingRead(ctx, request, reply, [service.watch], MESH_HEADER_PREFIX);
    const all = service.list();
    const visible = principal.management ? all : all.filter((p) => principal.allowPeering(p.Name, 'read'));
    if (visible.length < all.length) reply.header('X-Mesh-Results-Filtered-By-ACLs', 'true');
    return sendJson(request, reply, visible);
  });
}
