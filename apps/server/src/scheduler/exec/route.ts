import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.js';
import { serveExecSession, type ExecContext, type ExecSessionHandle, type ExecSocket } from './session.js';

/** The path of the exec WebSocket. */
export const EXEC_ROUTE = '/v1/client/allocation/:alloc_id/exec';

/**
 * What is wrong with a WebSocket opening handshake (RFC 6455 section 4.2.1), in the words of the
 * WebSocket library, which would otherwise answer it; undefined for a request that is no upgrade or
 * a good one.
 * @param headers - The request headers.
 * @returns The message, or undefined.
 */
function handshakeProblem(headers: FastifyRequest['headers']): string | undefined {
  if (headers.upgrade === undefined || !/(^|,)\s*upgrade\s*(,|$)/i.test(headers.connection ?? '')) {
    return undefined;
  }
  if (headers.upgrade.toLowerCase() !== 'websocket') return 'Invalid Upgrade header';
  const key = headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key)) {
    return 'Missing or invalid Sec-WebSocket-Key header';
  }
  const version = headers['sec-websocket-version'];
  if (version !== '8' && version !== '13') return 'Missing or invalid Sec-WebSocket-Version header';
  return undefined;
}

/**
 * Registers the exec WebSocket (`/v1/client/allocation/:alloc_id/exec`) on `app`, loading
 * `@fastify/websocket` in an encapsulated scope unless the app already has it. Running commands are
 * killed and their sockets closed when the app closes.
 *
 * @param app - The fastify instance of the scheduling service.
 * @param ctx - ACL, allocation lookup, heartbeat and handshake settings.
 * @returns Nothing; the route is registered when the app is ready.
 */
export function registerExecRoute(app: FastifyInstance, ctx: ExecContext): void {
  const sessions = new Set<ExecSessionHandle>();
  app.addHook('preClose', (done) => {
    for (const session of sessions) session.stop();
    done();
  });
  void app.register(async (scope) => {
    if (!scope.hasDecorator('websocketServer')) {
      await scope.register(websocket, { options: { maxPayload: 2 * 1024 * 1024 } });
    }
    scope.route({
      method: 'GET',
      url: EXEC_ROUTE,
      // a handshake the WebSocket library would refuse gets the service's plain-text 400 (the
      // library's own answer is typed text/html)
      preValidation: async (request, reply) => {
        const problem = handshakeProblem(request.headers);
        if (problem === undefined) return undefined;
        return reply.code(400).type('text/plain; charset=utf-8').header('connection', 'close').send(problem);
      },
      // a plain HTTP request (no upgrade) gets the service's plain-text 400, not a bare 404
      handler: () => {
        throw badRequest(
          'The exec endpoint needs a WebSocket connection: send the request with "Connection: Upgrade" and "Upgrade: websocket".',
        );
      },
      wsHandler: (socket: unknown, request: FastifyRequest) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (ctx.relay?.(socket as ExecSocket, { url: request.url, query, headers: request.headers }) === true)
          return;
        const params = request.params as { alloc_id?: string };
        const session = serveExecSession(
          socket as ExecSocket,
          {
            allocId: params.alloc_id ?? '',
            query: (request.query ?? {}) as Record<string, unknown>,
            headers: request.headers,
            localAddress: request.socket.localAddress,
          },
          ctx,
        );
        sessions.add(session);
        void session.done.then(() => sessions.delete(session));
      },
    });
  });
}
