/**
 * The fault injector's request hook (`faults.ts` installs it on each listener): it tracks open
 * requests for drops and applies the rules whose turn a request is. A request no rule is due for
 * is passed on at once, with no promise and no timer (`bench/faults.mjs` measures its cost).
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isFlagSet, isUpgrade } from './app.js';
import { HttpError } from './errors.js';
import { faultMatches, type CheckedFaultRule, type FaultService } from './fault-rules.js';

/** Paths no fault applies to: the control endpoint. */
export const FAULT_CONTROL_PREFIX = '/v1/sked/';

/** What the hook reads of its listener (a part of `FaultListenerOptions`). */
export interface FaultHookListener {
  readonly service: FaultService;
  /** Whether a request is forwarded to another region (a missing leader does not stop it). */
  readonly forwarded?: ((request: FastifyRequest) => boolean) | undefined;
}

/** Scheduling service paths a missing leader does not affect: answered by a node, or ours. */
const LEADER_FREE = /^\/v1\/(client\/|openapi\.json$|sked\/)/;

export interface ActiveRule {
  readonly id: string;
  readonly rule: CheckedFaultRule;
  matched: number;
  applied: number;
}

export interface OpenRequest {
  readonly service: FaultService;
  readonly method: string;
  readonly path: string;
  readonly socket: Socket;
}

export const pathOf = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
};

/** Waits `ms`, or less when the client goes (the response closes) or the server closes. */
function pause(ms: number, response: ServerResponse, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      response.off('close', done);
      closing.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    response.once('close', done);
    closing.addEventListener('abort', done, { once: true });
  });
}

/** The injector's state, shared by its functions. */
export interface FaultState {
  readonly rules: ActiveRule[];
  /** The open requests, by their response (a map: no property is added to Node's response objects). */
  readonly open: Map<ServerResponse, OpenRequest>;
  /** The `close` listener of every tracked response: forgets its request. */
  readonly untrack: (this: ServerResponse) => void;
  readonly closing: AbortController;
  leaderlessSince: number | undefined;
}

/** Counts a request against every rule; the rules whose turn it is (`undefined`: none). */
function triggered(state: FaultState, request: Omit<OpenRequest, 'socket'>): CheckedFaultRule[] | undefined {
  let out: CheckedFaultRule[] | undefined;
  for (const active of state.rules) {
    if (!faultMatches(active.rule, request)) continue;
    active.matched++;
    if (active.matched >= active.rule.nth && active.applied < active.rule.times) {
      active.applied++;
      (out ??= []).push(active.rule);
    }
  }
  return out;
}

/**
 * Keeps an open request (for drops) until its answer ends: the response's `close` comes when it is
 * sent or when its connection ends (the WebSocket plugin's response is bound to the socket too). No
 * listener goes on the socket itself, which a keep-alive or pipelining client shares between
 * requests. One listener function serves every response (no closure per request).
 */
export function track(state: FaultState, reply: FastifyReply, entry: OpenRequest): void {
  state.open.set(reply.raw, entry);
  reply.raw.on('close', state.untrack);
}

/** Answers a request with a rule's status, body and headers (errors in the listener's format). */
function answer(request: FastifyRequest, reply: FastifyReply, rule: CheckedFaultRule): FastifyReply {
  if (isUpgrade(request.headers)) {
    // a refused upgrade's socket belongs to no HTTP connection the server would close: end it
    void reply.header('connection', 'close');
    reply.raw.once('finish', () => request.raw.socket.destroy());
  }
  for (const [name, value] of Object.entries(rule.headers)) void reply.header(name, value);
  const status = rule.status ?? 500;
  if (rule.body === undefined && status >= 400) throw new HttpError(status, 'injected fault');
  void reply.code(status);
  if (rule.body === undefined) return reply.send();
  const json = typeof rule.body !== 'string';
  if (!reply.hasHeader('content-type'))
    void reply.type(json ? 'application/json' : 'text/plain; charset=utf-8');
  return reply.send(json ? JSON.stringify(rule.body) : rule.body);
}

/** The leaderless scheduling service's 500, or `undefined` when the request is served. */
function leaderRefusal(
  state: FaultState,
  listener: FaultHookListener,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): FastifyReply | undefined {
  if (
    listener.service !== 'scheduler' ||
    state.leaderlessSince === undefined ||
    LEADER_FREE.test(path) ||
    listener.forwarded?.(request) === true
  )
    return undefined;
  const read = request.method === 'GET' || request.method === 'HEAD';
  const query = request.query as Record<string, unknown> | undefined;
  if (read && isFlagSet(query?.['stale'])) return undefined;
  return reply.code(500).type('text/plain; charset=utf-8').send('No cluster leader');
}

/** The rules whose turn a request is: latency, then an answer or a cut, else the leader check. */
async function applyRules(
  state: FaultState,
  due: readonly CheckedFaultRule[],
  request: FastifyRequest,
  reply: FastifyReply,
  entry: OpenRequest,
  listener: FaultHookListener,
): Promise<FastifyReply | undefined> {
  const delayMs = due.reduce((sum, rule) => sum + rule.delayMs, 0);
  if (delayMs > 0) await pause(delayMs, reply.raw, state.closing.signal);
  if (entry.socket.destroyed) {
    reply.hijack();
    return reply;
  }
  const terminal = due.find((rule) => rule.reset || rule.status !== undefined);
  if (terminal?.reset === true) {
    reply.hijack();
    entry.socket.destroy();
    return reply;
  }
  if (terminal !== undefined) return answer(request, reply, terminal);
  return leaderRefusal(state, listener, request, reply, entry.path);
}

/**
 * The hook, in fastify's callback form: a request no rule is due for (every request, when there is
 * none) is passed on at once, with no promise and no timer (`bench/faults.mjs` measures its cost);
 * one a rule is due for goes through {@link applyRules}.
 */
export function onRequest(
  state: FaultState,
  listener: FaultHookListener,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const path = pathOf(request.url);
  if (path.startsWith(FAULT_CONTROL_PREFIX)) {
    done();
    return;
  }
  const entry: OpenRequest = {
    service: listener.service,
    method: request.method,
    path,
    socket: request.raw.socket,
  };
  track(state, reply, entry);
  const due = state.rules.length === 0 ? undefined : triggered(state, entry);
  if (due === undefined) {
    // a reply sent here (the leaderless 500) ends the hooks: fastify is not called back
    if (
      state.leaderlessSince === undefined ||
      leaderRefusal(state, listener, request, reply, path) === undefined
    )
      done();
    return;
  }
  applyRules(state, due, request, reply, entry, listener).then(
    (replied) => {
      if (replied === undefined) done();
    },
    (error: unknown) => done(error as Error),
  );
}
