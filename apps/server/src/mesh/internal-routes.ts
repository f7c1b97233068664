import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { sendJson } from '../http/app.js';
import { secretFromHeaders } from '../http/guards.js';
import { EXCHANGE_PATH, PEERING_ID_HEADER, STREAM_PATH, TERMINATE_PATH } from './dialer.js';
import type { MeshService } from './service.js';
import { MAX_STREAM_MESSAGE } from './streams.js';

function peeringIdOf(request: FastifyRequest): string | undefined {
  const value = request.headers[PEERING_ID_HEADER];
  return Array.isArray(value) ? value[0] : value;
}

/** Answers a failed peer check in plain text; returns whether the peer passed. */
function checkPeer(service: MeshService, request: FastifyRequest, reply: FastifyReply): string | undefined {
  const id = peeringIdOf(request);
  const check = service.checkPeer(id, secretFromHeaders(request.headers, 'x-mesh-stream-secret'));
  if (check.ok) return check.peering.ID;
  void reply.code(check.status).type('text/plain; charset=utf-8').send(check.message);
  return undefined;
}

/**
 * Registers the endpoints the peer server calls: the establishment exchange, the stream
 * (WebSocket) and the deletion notice. They need no ACL token: the one-time establishment secret
 * or the stream secret proves the caller.
 * @param app - The mesh listener's fastify instance.
 * @param service - The peerings.
 */
export function registerInternalRoutes(app: FastifyInstance, service: MeshService): void {
  app.post(EXCHANGE_PATH, async (request, reply) =>
    sendJson(request, reply, service.acceptExchange(request.body)),
  );

  app.post(TERMINATE_PATH, async (request, reply) => {
    const id = checkPeer(service, request, reply);
    if (id === undefined) return reply;
    service.terminatedByPeer(id);
    return reply.code(200).send();
  });

  void app.register(async (scope) => {
    await scope.register(websocket, {
      options: { maxPayload: MAX_STREAM_MESSAGE, perMessageDeflate: false },
    });
    scope.route({
      method: 'GET',
      url: STREAM_PATH,
      // the peer is checked before the upgrade, so a refused one gets a status, not a socket
      preValidation: async (request, reply) => {
        if (checkPeer(service, request, reply) === undefined) return reply;
        return undefined;
      },
      handler: (_request, reply) =>
        reply
          .code(400)
          .type('text/plain; charset=utf-8')
          .send('The peering stream needs a WebSocket connection'),
      wsHandler: (socket: WebSocket, request: FastifyRequest) => {
        const id = peeringIdOf(request);
        if (id !== undefined) service.acceptStream(id, socket);
      },
    });
  });
}
