import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { Acl, Principal } from '../acl/index.js';
import { secretFromHeaders } from '../acl/index.js';
import { createEventBroker, type EventBroker, type EventBrokerOptions } from './broker.js';
import { pipeEventStream, type EventStreamHandle } from './stream.js';
import { parseTopics, topicRequirements, type TopicRequirement } from './topics.js';
import type { EventBatch, StreamEvent } from './types.js';
import { checkNamespaceName } from '../../http/conventions.js';
import { DEFAULTS } from '../../defaults.js';

/** Default interval between heartbeats of the event stream: 10 s. */
export const DEFAULT_EVENT_HEARTBEAT_MS: number = DEFAULTS.heartbeatMs;

/** What {@link registerEventStreamRoute} needs. */
export interface EventStreamContext {
  /** The cluster whose writes feed the stream (`onEvents` of the core's Cluster). */
  readonly cluster?: { onEvents(listener: (batch: EventBatch) => void): () => void };
  /** A broker to use instead of creating one (then `cluster` and `buffer` are ignored). */
  readonly broker?: EventBroker;
  /** The server's ACL; absent or disabled means every topic is allowed. */
  readonly acl?: Acl;
  /** The region served; a request naming another is 400 `No path to region "<name>"`. Absent: any. */
  readonly region?: string;
  /**
   * Interval between heartbeats (`{}` lines).
   * @defaultValue 10000
   */
  readonly heartbeatMs?: number;
  /** Bounds of the broker's buffer. */
  readonly buffer?: EventBrokerOptions;
}

/**
 * A namespace name no token file names, so that a rule matching it is one that applies to every
 * namespace (`*`): what a subscription with `namespace=*` needs short of a management token.
 */
const EVERY_NAMESPACE_PROBE = '\u0000every-namespace';

function allows(principal: Principal, requirement: TopicRequirement): boolean {
  if (principal.management) return true;
  switch (requirement.kind) {
    case 'management':
      return false;
    case 'node':
      return principal.allowNode(requirement.level);
    case 'namespace':
      return requirement.namespace === '*'
        ? principal.allowNamespace(EVERY_NAMESPACE_PROBE, requirement.capability)
        : principal.allowNamespace(requirement.namespace, requirement.capability);
  }
}

function single(value: unknown): unknown {
  return Array.isArray(value) ? (value.at(-1) as unknown) : value;
}

/** Parses `index`: absent or empty is 0; otherwise a non-negative decimal integer. */
export function parseStreamIndex(raw: unknown): { ok: true; index: number } | { ok: false; message: string } {
  const value = single(raw);
  if (value === undefined || value === '') return { ok: true, index: 0 };
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    return { ok: false, message: 'Invalid index' };
  }
  return { ok: true, index: Number(value) };
}

/**
 * Registers `GET /v1/event/stream` on `app`, fed by `ctx.cluster.onEvents` through a bounded
 * broker, and ends every stream when the app closes.
 *
 * Answers 400 for another region or a bad `index` or `topic`, 403 (`ACL token not found`, `Permission denied`)
 * before any byte of stream, then 200 with `Content-Type: application/json`, never compressed: a
 * heartbeat `{}` at once and every `heartbeatMs`, and one line per batch holding events of the
 * subscribed topics.
 *
 * @param app - The fastify instance of the scheduling service.
 * @param ctx - Cluster (or broker), ACL, heartbeat interval and buffer bounds.
 * @returns The broker, for statistics.
 */
export function registerEventStreamRoute(app: FastifyInstance, ctx: EventStreamContext): EventBroker {
  const broker = ctx.broker ?? createEventBroker(ctx.buffer);
  const unsubscribe =
    ctx.broker === undefined ? ctx.cluster?.onEvents((batch) => broker.publish(batch)) : undefined;
  const heartbeatMs = ctx.heartbeatMs ?? DEFAULT_EVENT_HEARTBEAT_MS;
  const streams = new Set<EventStreamHandle>();

  app.addHook('preClose', (done) => {
    unsubscribe?.();
    for (const stream of streams) stream.stop();
    if (ctx.broker === undefined) broker.close();
    done();
  });

  app.get('/v1/event/stream', (request: FastifyRequest, reply: FastifyReply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const region = single(query['region']);
    if (ctx.region !== undefined && typeof region === 'string' && region !== '' && region !== ctx.region) {
      throw new HttpError(400, `No path to region ${JSON.stringify(region)}`);
    }
    const index = parseStreamIndex(query['index']);
    if (!index.ok) throw new HttpError(400, index.message);
    const topics = parseTopics(query['topic']);
    if (!topics.ok) throw new HttpError(400, topics.message);
    const namespaceValue = single(query['namespace']);
    const namespace =
      typeof namespaceValue === 'string' && namespaceValue !== ''
        ? checkNamespaceName(namespaceValue, { wildcard: true })
        : 'default';

    let allow: ((event: StreamEvent) => boolean) | undefined;
    if (ctx.acl?.enabled === true) {
      const principal = ctx.acl.resolve(secretFromHeaders(request.headers));
      if (principal === undefined) throw new HttpError(403, 'ACL token not found');
      for (const requirement of topicRequirements(topics.topics, namespace)) {
        if (!allows(principal, requirement)) throw new HttpError(403, 'Permission denied');
      }
      // `*` was allowed by some rule; each event is still checked against its own namespace, with
      // the rule the list endpoints use (a `deny` for that namespace wins)
      if (namespace === '*') {
        allow = (event) => event.Namespace === '' || principal.allowNamespace(event.Namespace, 'read-job');
      }
    }

    const subscription = broker.subscribe({
      index: index.index,
      topics: topics.topics,
      namespace,
      ...(allow === undefined ? {} : { allow }),
    });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache',
      'X-Svc-Index': String(Math.max(1, broker.stats().newestIndex)),
      'X-Svc-LastContact': '0',
      'X-Svc-KnownLeader': 'true',
    });
    res.flushHeaders();
    const stream = pipeEventStream(subscription, res, { heartbeatMs });
    streams.add(stream);
    void stream.done.then(() => streams.delete(stream));
  });

  return broker;
}
