/**
 * The endpoints of the LDAP auth method (relative to `/v1/auth/<mount>`) and the token
 * self-lookup (`/v1/auth/token/lookup-self`).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../http/errors.js';
import { sendErrors } from './app.js';
import { configView } from './config.js';
import type { LdapMethod } from './method.js';
import { decodeBool, decodeString } from './params.js';
import type { TokenTable } from './store.js';
import { lookupView, secretMatches, useToken } from './tokens.js';

/** What the routes need. */
export interface SecretsRouteContext {
  /** The method's operations. */
  readonly method: LdapMethod;
  /** Issued tokens (for lookup-self). */
  readonly tokens: TokenTable;
  /** SHA-256 hex of the root token. */
  readonly rootTokenHash: string;
  /** Mount path, `auth/ldap`. */
  readonly mountPath: string;
  /** The clock (Unix milliseconds). */
  readonly now: () => number;
}

/**
 * The response envelope of reads, lists and logins.
 * @param data - The `data` member.
 * @param auth - The `auth` member (logins).
 * @param warnings - Warnings, or null.
 * @returns The envelope.
 */
export function envelope(
  data: unknown,
  auth: unknown = null,
  warnings: readonly string[] | null = null,
): unknown {
  return {
    request_id: randomUUID(),
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data,
    wrap_info: null,
    warnings: warnings === null || warnings.length === 0 ? null : warnings,
    auth,
  };
}

function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).type('application/json').send(JSON.stringify(body));
}

function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-secrets-token'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value !== '') return value;
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization)?.[1] : undefined;
  return bearer === undefined || bearer === '' ? undefined : bearer;
}

function requireRoot(ctx: SecretsRouteContext, request: FastifyRequest): void {
  const token = presentedToken(request);
  if (token === undefined || !secretMatches(token, ctx.rootTokenHash))
    throw new HttpError(403, 'permission denied');
}

/**
 * Checks the name of a group, a user or a login: a string of at most 1024 characters, not blank,
 * without control characters (the routes' path names and `server.seed` both come here).
 * @param param - What it names (`name`, `username`), for the message.
 * @param value - The name.
 * @returns The name.
 * @throws 400 naming what is wrong.
 */
export function checkRecordName(param: string, value: unknown): string {
  const name = decodeString(param, value, 1024);
  if (name.trim() === '') throw badRequest(`missing ${param}`);
  if (/\p{Cc}/u.test(name)) throw badRequest(`invalid ${param}: control characters are not allowed`);
  return name;
}

function pathName(request: FastifyRequest, param: string): string {
  return checkRecordName(param, (request.params as Record<string, string | undefined>)[param] ?? '');
}

function isList(request: FastifyRequest): boolean {
  const value = (request.query as Record<string, unknown>)['list'];
  if (value === undefined) return false;
  return decodeBool('list', Array.isArray(value) ? value.at(-1) : value);
}

function unsupported(): HttpError {
  return new HttpError(405, 'unsupported operation');
}

function registerRecords(
  app: FastifyInstance,
  ctx: SecretsRouteContext,
  base: string,
  kind: 'groups' | 'users',
): void {
  app.all(`${base}/${kind}`, (request, reply) => {
    requireRoot(ctx, request);
    if (request.method !== 'GET' || !isList(request)) throw unsupported();
    const keys = ctx.method.list(kind);
    if (keys.length === 0) return sendErrors(reply, 404, []);
    return sendJson(reply, envelope({ keys }));
  });
  app.all(`${base}/${kind}/:name`, (request, reply) => {
    requireRoot(ctx, request);
    const name = pathName(request, 'name');
    switch (request.method) {
      case 'GET': {
        if (kind === 'groups') {
          const group = ctx.method.readGroup(name);
          if (group === undefined) return sendErrors(reply, 404, []);
          return sendJson(reply, envelope({ policies: [...group.policies] }));
        }
        const user = ctx.method.readUser(name);
        if (user === undefined) return sendErrors(reply, 404, []);
        return sendJson(reply, envelope({ policies: [...user.policies], groups: user.groups.join(',') }));
      }
      case 'POST':
      case 'PUT':
        if (kind === 'groups') ctx.method.writeGroup(name, request.body);
        else ctx.method.writeUser(name, request.body);
        return reply.code(204).send();
      case 'DELETE':
        ctx.method.remove(kind, name);
        return reply.code(204).send();
      default:
        throw unsupported();
    }
  });
}

/**
 * Registers the method's endpoints and the token self-lookup.
 * @param app - The secrets listener's fastify instance.
 * @param ctx - Method, tokens, root token hash, mount and clock.
 */
export function registerSecretsRoutes(app: FastifyInstance, ctx: SecretsRouteContext): void {
  const base = `/v1/${ctx.mountPath}`;
  app.all(`${base}/config`, (request, reply) => {
    requireRoot(ctx, request);
    if (request.method === 'GET') return sendJson(reply, envelope(configView(ctx.method.settings())));
    if (request.method !== 'POST' && request.method !== 'PUT') throw unsupported();
    ctx.method.writeConfig(request.body);
    return reply.code(204).send();
  });
  registerRecords(app, ctx, base, 'groups');
  registerRecords(app, ctx, base, 'users');
  app.all(`${base}/login/:username`, async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PUT') throw unsupported();
    const username = pathName(request, 'username');
    const body = request.body;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('missing password');
    }
    const { password, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0)
      throw badRequest(`unknown parameter ${JSON.stringify(extra[0])}; login accepts password`);
    if (password === undefined) throw badRequest('missing password');
    if (typeof password !== 'string') throw badRequest('invalid value for "password": expected a string');
    // A client that closes its connection before the answer gives the login up (as the real
    // service cancels the request): its directory connections are closed then, not at the end of
    // request_timeout.
    const gone = new AbortController();
    const socket = request.raw.socket;
    const abort = (): void => gone.abort();
    if (socket.readableEnded) abort();
    socket.once('end', abort);
    reply.raw.once('close', () => {
      socket.off('end', abort);
      if (!reply.raw.writableFinished) abort();
    });
    const result = await ctx.method.login(username, password, request.socket.remoteAddress, gone.signal);
    const auth = {
      client_token: result.secret,
      policies: [...result.token.policies],
      token_policies: [...result.token.policies],
      metadata: { username: result.username },
      lease_duration: result.token.creationTtl,
      renewable: result.token.renewable,
      token_type: result.token.type,
      orphan: true,
    };
    return sendJson(reply, envelope(null, auth, result.warnings));
  });
  app.all('/v1/auth/token/lookup-self', (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'POST') throw unsupported();
    const token = presentedToken(request);
    if (token === undefined) throw new HttpError(403, 'permission denied');
    const now = ctx.now();
    if (secretMatches(token, ctx.rootTokenHash)) {
      return sendJson(
        reply,
        envelope({
          policies: ['root'],
          meta: null,
          display_name: 'root',
          path: 'auth/token/root',
          ttl: 0,
          creation_ttl: 0,
          expire_time: null,
          explicit_max_ttl: 0,
          period: 0,
          num_uses: 0,
          bound_cidrs: [],
          renewable: false,
          type: 'service',
          orphan: true,
        }),
      );
    }
    const record = useToken(ctx.tokens, token, request.socket.remoteAddress, now);
    if (record === undefined) throw new HttpError(403, 'permission denied');
    return sendJson(reply, envelope(lookupView(record, now)));
  });
}
