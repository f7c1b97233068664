import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../../http/app.js';
import { begin, type SchedulerRouteContext } from './common.js';

/** The RPC port the service's servers use by default; reported in the leader's address. */
export const DEFAULT_RPC_PORT = 4647;

/**
 * The address this server reports as its own RPC address: the bind address (loopback for a
 * wildcard bind, which names no one host) with the default RPC port.
 * @param bind - The address the API listens on.
 * @returns `host:port`, e.g. `127.0.0.1:4647` (IPv6 in brackets).
 */
export function rpcAddressOf(bind: string): string {
  const host = bind === '0.0.0.0' || bind === '' ? '127.0.0.1' : bind === '::' ? '::1' : bind;
  return host.includes(':') ? `[${host}]:${DEFAULT_RPC_PORT}` : `${host}:${DEFAULT_RPC_PORT}`;
}

/**
 * Registers `GET /v1/status/leader` (the leader's RPC address as a JSON string) and
 * `GET /v1/status/peers` (the servers' RPC addresses): the single server is the leader and its
 * only peer. Third-party clients probe these on start. No ACL capability is needed, as with the
 * service; `region` is checked like everywhere else.
 * @param app - The fastify instance.
 * @param ctx - Route context.
 * @param rpcAddress - This server's RPC address (see {@link rpcAddressOf}).
 */
export function registerStatusRoutes(
  app: FastifyInstance,
  ctx: SchedulerRouteContext,
  rpcAddress: string,
): void {
  app.get('/v1/status/leader', (request: FastifyRequest, reply: FastifyReply) => {
    begin(ctx, request);
    return sendJson(request, reply, rpcAddress);
  });
  app.get('/v1/status/peers', (request: FastifyRequest, reply: FastifyReply) => {
    begin(ctx, request);
    return sendJson(request, reply, [rpcAddress]);
  });
}
