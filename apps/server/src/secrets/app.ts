/**
 * The secrets service's HTTP listener: fastify on an HTTP server whose connections go through the
 * `LIST` framer, JSON errors `{"errors": [...]}`, the body limit, and no logging (tokens and
 * `bindpass` never reach a log).
 */
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { acceptJsonBodies, exactJsonContentType } from '../http/app.js';
import { HttpError } from '../http/errors.js';
import { LoginFailure } from './directory.js';
import { acceptListVerb, HEAD_TOO_LARGE_ANSWER } from './list-front.js';
import { MAX_HEAD_BYTES } from './list-verb.js';
import { LoginRefused } from './method.js';

/**
 * Node's own limit of a request line plus headers: above the framer's (`MAX_HEAD_BYTES`, which
 * counts every byte and answers 431 first), so that one count decides.
 */
const NODE_MAX_HEADER_BYTES = 2 * MAX_HEAD_BYTES;

/**
 * Answers `{"errors": [...]}` with a status.
 * @param reply - The reply.
 * @param status - HTTP status.
 * @param errors - Messages (empty for a plain 404).
 * @returns The reply.
 */
export function sendErrors(reply: FastifyReply, status: number, errors: readonly string[]): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify({ errors }));
}

/**
 * Answers a request Node could not parse and ends the connection: an over-long head with the real
 * service's 431 bytes (as the framer does), anything else in the service's envelope.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    if (socket.writable) socket.write(HEAD_TOO_LARGE_ANSWER);
    socket.destroy(error);
    return;
  }
  const [status, reason, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'request timed out']
      : [400, 'Bad Request', 'malformed HTTP request'];
  const body = JSON.stringify({ errors: [message] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function describeError(error: unknown, maxBody: number): { status: number; errors: string[] } {
  if (error instanceof LoginFailure)
    return { status: 400, errors: [`ldap operation failed: ${error.message}`] };
  if (error instanceof LoginRefused) return { status: error.status, errors: [error.message] };
  if (HttpError.is(error)) return { status: error.status, errors: [error.message] };
  const code = (error as Partial<FastifyError>).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, errors: [`request body is larger than the limit of ${maxBody} bytes`] };
  }
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return { status: 400, errors: ['request body size did not match Content-Length'] };
  }
  const status = (error as Partial<FastifyError>).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, errors: [error instanceof Error ? error.message : String(error)] };
  }
  // A real fault: say so without echoing anything that could hold a secret.
  return { status: 500, errors: ['internal error'] };
}

/**
 * Builds the fastify instance of the secrets listener (no routes yet).
 * @param maxBody - Largest accepted body in bytes.
 * @returns The instance; `listen()` it like any fastify app.
 */
export function createSecretsHttpApp(maxBody: number): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: maxBody,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A path that does not decode (`/v1/auth/ldap/groups/%`) or a request Node's parser refuses
    // (bytes that are not allowed in a request line): the service's envelope, not fastify's own.
    frameworkErrors: (error, _request, reply: FastifyReply) =>
      void sendErrors(reply, error.statusCode ?? 400, [
        error.message.replace(/^'(.*)' is/, 'the path "$1" is'),
      ]),
    clientErrorHandler: answerClientError,
    serverFactory: (handler) => {
      const server = createServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES }, handler);
      acceptListVerb(server);
      return server;
    },
  });
  acceptJsonBodies(app, 'failed to parse JSON input');
  exactJsonContentType(app);
  app.setNotFoundHandler((_request, reply) => sendErrors(reply, 404, []));
  app.setErrorHandler((error: unknown, _request, reply) => {
    const { status, errors } = describeError(error, maxBody);
    return sendErrors(reply, status, errors);
  });
  return app;
}
