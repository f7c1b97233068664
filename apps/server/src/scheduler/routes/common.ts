import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Query } from '../../http/conventions.js';
import { checkNamespaceName, checkRegion, queryString, readNamespace } from '../../http/conventions.js';
import { sendJson } from '../../http/app.js';
import { badRequest, notFound } from '../../http/errors.js';
import { requireNamespace, type Acl, type Principal } from '../acl/index.js';
import type { NamespaceCapability } from '../acl/tokens.js';
import type { Cluster } from '../core/index.js';

export { validateBody } from '../../http/validate.js';

/**
 * What the secrets service says of a job's `SecretsToken` (the secrets service's token lookup has
 * this shape; the root wiring hands it over, so the scheduler never imports the secrets service).
 */
export type TokenLookup =
  | { readonly status: 'valid'; readonly policies: readonly string[] }
  | { readonly status: 'expired' }
  | { readonly status: 'unknown' };

/** What the scheduler routes need from the server. */
export interface SchedulerRouteContext {
  /** The cluster's state and write operations. */
  readonly cluster: SchedulerCluster;
  /** The ACL (disabled: everything allowed). */
  readonly acl: Acl;
  /** The region this server serves. */
  readonly region: string;
  /** Aborted when the server shuts down. */
  readonly shutdown: AbortSignal;
  /**
   * Forwards a request routed by its body (a job's `Region`) to the member serving that region,
   * the reply hijacked; false when no member serves it. @defaultValue none: no other region
   */
  readonly forwardParsed?: (
    request: FastifyRequest,
    reply: FastifyReply,
    region: string,
    body: unknown,
  ) => boolean;
  /**
   * This server's RPC address, answered by `GET /v1/status/leader` and `/v1/status/peers`.
   * @defaultValue `127.0.0.1:4647`
   */
  readonly rpcAddress?: string;
  /**
   * Looks up a job's `SecretsToken` in the secrets service's token store (checked when ACLs are
   * on; see `job-tokens.ts`). @defaultValue none: every SecretsToken is unknown
   */
  readonly secretsTokens?: (secret: string) => TokenLookup;
}

/** The core's cluster, as the routes use it (store plus write operations). */
export type SchedulerCluster = Cluster;

/**
 * The common start of every handler: the region check, then the namespace.
 * @param ctx - Route context.
 * @param request - The request.
 * @returns The query and the namespace.
 * @throws 400 `No path to region "<name>"`.
 */
export function begin(
  ctx: SchedulerRouteContext,
  request: FastifyRequest,
): { query: Query; namespace: string } {
  const query = (request.query ?? {}) as Query;
  checkRegion(query, ctx.region);
  return { query, namespace: readNamespace(query) };
}

/**
 * {@link begin}, then at least one of the capabilities in the request's namespace.
 * @param ctx - Route context.
 * @param request - The request.
 * @param capabilities - Accepted capabilities (any one suffices).
 * @returns The query, the namespace and the principal.
 * @throws 400 `No path to region "<name>"`; 403 `ACL token not found` or `Permission denied`.
 */
export function beginInNamespace(
  ctx: SchedulerRouteContext,
  request: FastifyRequest,
  ...capabilities: readonly NamespaceCapability[]
): { query: Query; namespace: string; principal: Principal } {
  const { query, namespace } = begin(ctx, request);
  const principal = requireNamespace(ctx.acl, request, namespace, ...capabilities);
  return { query, namespace, principal };
}

/**
 * Checks the namespace a write really writes to: one namespace, never the list wildcard `*`
 * (which would otherwise be stored as a namespace literally named `*`).
 * @param namespace - The namespace the write stores into.
 * @returns The namespace.
 * @throws 400 `Invalid namespace "*": a write names one namespace, not the wildcard`.
 */
export function writeNamespace(namespace: string): string {
  if (namespace === '*') {
    throw badRequest('Invalid namespace "*": a write names one namespace, not the wildcard');
  }
  return namespace;
}

/**
 * {@link begin} for a write: the request's namespace must be one namespace (not `*`), and the
 * token needs one of the capabilities in it.
 * @param ctx - Route context.
 * @param request - The request.
 * @param capabilities - Accepted capabilities (any one suffices).
 * @returns The query, the namespace and the principal.
 * @throws 400 for another region or `namespace=*`; 403 `ACL token not found` or `Permission denied`.
 */
export function beginWrite(
  ctx: SchedulerRouteContext,
  request: FastifyRequest,
  ...capabilities: readonly NamespaceCapability[]
): { query: Query; namespace: string; principal: Principal } {
  writeNamespace(begin(ctx, request).namespace); // region first, then the namespace, then the token
  return beginInNamespace(ctx, request, ...capabilities);
}

/**
 * The namespace a body's object (a job, a volume) is written to: the request's when the body names
 * none; the body's when it matches, or when the request named no namespace and `bodyWins` (jobs: the
 * service takes a job's own namespace, and the ACL is then checked against it).
 * @param kind - What the body holds, for the message (`Job`, `Volume "v1"`).
 * @param bodyNamespace - The body's `Namespace` (absent or empty: none).
 * @param query - The request's query (its `namespace`, if given).
 * @param options - `bodyWins` when the request names no namespace.
 * @returns The namespace to write to (never `*`).
 * @throws 400 when the two name different namespaces, or when the result is `*`.
 */
export function bodyNamespace(
  kind: string,
  bodyNamespace: string | null | undefined,
  query: Query,
  options: { bodyWins: boolean },
): string {
  const requested = queryString(query, 'namespace');
  const explicit = requested !== undefined && requested !== '';
  const fromRequest = readNamespace(query);
  if (bodyNamespace === undefined || bodyNamespace === null || bodyNamespace === '') {
    return writeNamespace(fromRequest);
  }
  // `*` is refused by writeNamespace with its own message; any other name is checked here
  if (bodyNamespace !== '*') checkNamespaceName(bodyNamespace, { wildcard: false });
  if (bodyNamespace !== fromRequest && (explicit || !options.bodyWins)) {
    throw badRequest(
      `${kind} namespace ${JSON.stringify(bodyNamespace)} does not match the request namespace ${JSON.stringify(fromRequest)}`,
    );
  }
  return writeNamespace(bodyNamespace);
}

/**
 * The looked-up item, or a 404.
 * @param item - What a table returned (undefined when absent).
 * @param message - The 404 message, e.g. `job not found`.
 * @returns The item.
 * @throws 404 with `message` when the item is undefined.
 */
export function found<T>(item: T | undefined, message: string): T {
  if (item === undefined) throw notFound(message);
  return item;
}

/**
 * Sets `X-Svc-NextToken` when another page follows.
 * @param reply - The reply.
 * @param nextToken - The token of the first item of the next page, if any.
 */
export function setNextToken(reply: FastifyReply, nextToken: string | undefined): void {
  if (nextToken !== undefined && nextToken !== '') reply.header('X-Svc-NextToken', nextToken);
}

/**
 * Answers a write: `X-Svc-Index` and the body's `Index` (when it has one) are both the store's
 * index after the write, i.e. the index the write committed at, or the unchanged current index
 * when the write changed nothing (it does not advance the index).
 * @param ctx - Route context (the store).
 * @param request - The request.
 * @param reply - The reply.
 * @param result - The write's response body.
 * @returns The sent reply.
 */
export function sendWrite(
  ctx: SchedulerRouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
  result: object,
): FastifyReply {
  const index = Math.max(1, ctx.cluster.store.index);
  reply.header('X-Svc-Index', String(index));
  return sendJson(request, reply, 'Index' in result ? { ...result, Index: index } : result);
}

/**
 * Pages through a plain array already in order, with tokens from `token` (used where the table's
 * own order is not the listing order, e.g. allocations by ID prefix).
 * @param items - The matching items, sorted by token.
 * @param token - Token of an item.
 * @param options - per_page, next_token, reverse.
 * @returns The page and the next token.
 */
export function pageArray<T>(
  items: readonly T[],
  token: (item: T) => string,
  options: { perPage: number; nextToken: string | undefined; reverse: boolean },
): { items: T[]; nextToken?: string } {
  const ordered = options.reverse ? [...items].reverse() : [...items];
  let start = 0;
  if (options.nextToken !== undefined && options.nextToken !== '') {
    const seek = options.nextToken;
    start = ordered.findIndex((item) => (options.reverse ? token(item) <= seek : token(item) >= seek));
    if (start < 0) start = ordered.length;
  }
  if (options.perPage <= 0) return { items: ordered.slice(start) };
  const page = ordered.slice(start, start + options.perPage);
  const next = ordered[start + options.perPage];
  return next === undefined ? { items: page } : { items: page, nextToken: token(next) };
}
