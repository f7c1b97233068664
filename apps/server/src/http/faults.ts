/**
 * Fault injection, for testing how clients cope with a failing server: one injector per server,
 * installed as one `onRequest` hook on each of the three listeners (the same hook, not a copy per
 * service). It answers the Nth matching request with a status, adds latency, cuts connections,
 * drops open streams and makes the scheduling service leaderless.
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerFaultControl } from './fault-control.js';
import { type ActiveRule, type FaultState, onRequest, type OpenRequest } from './fault-hook.js';
import {
  FaultRuleError,
  checkFaultFilter,
  checkFaultRule,
  faultMatches,
  type FaultFilter,
  type FaultRule,
  type FaultService,
} from './fault-rules.js';

/** A rule in effect, as `server.faults.inject` returns it. */
export interface FaultHandle {
  /** The rule's ID (`f1`, `f2`, ...), also used by the control endpoint. */
  readonly id: string;
  /** Requests that matched the rule so far. */
  readonly matched: number;
  /** Requests the fault was applied to so far. */
  readonly applied: number;
  /** Whether the rule has been applied `times` times (it then stays listed, doing nothing). */
  readonly spent: boolean;
  /** Removes the rule; requests already waiting on its latency go on. */
  remove(): void;
}

/** A rule as listed (the control endpoint answers this shape as JSON). */
export interface FaultSnapshot {
  readonly id: string;
  readonly service: FaultService | null;
  readonly method: readonly string[] | null;
  readonly path: string | null;
  readonly nth: number;
  readonly times: number | 'always';
  readonly status: number | null;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly delayMs: number;
  readonly reset: boolean;
  readonly matched: number;
  readonly applied: number;
}

/** Fault injection of a running server (`server.faults`). */
export interface ServerFaults {
  /**
   * Adds a rule: the `nth` request (counted from now) that matches `service`, `method` and `path`,
   * and the `times - 1` matching ones after it, wait `delayMs`, then are answered `status` (with
   * `body` and `headers`), cut (`reset`), or handled normally.
   * @param rule - The rule.
   * @returns The rule in effect (counts, `remove()`).
   * @throws `FaultRuleError` naming the field that is wrong.
   */
  inject(rule: FaultRule): FaultHandle;
  /** The rules in effect, in the order they were added. */
  list(): FaultSnapshot[];
  /**
   * Removes a rule.
   * @param id - Its ID.
   * @returns Whether it existed.
   */
  remove(id: string): boolean;
  /** Removes every rule and gives the scheduling service its leader back. */
  clear(): void;
  /**
   * Makes the scheduling service leaderless (or gives it its leader back): a request that is not a
   * `stale` read is answered 500 `No cluster leader`, a `stale` read is served with
   * `X-Svc-KnownLeader: false` and `X-Svc-LastContact` counting from now.
   * @param on - Leaderless or not. @defaultValue true
   */
  leaderless(on?: boolean): void;
  /** Whether the scheduling service is leaderless. */
  readonly isLeaderless: boolean;
  /**
   * Cuts the connections of the open requests that match (event streams, exec sessions, peering
   * streams, blocking queries waiting): the clients see the connection end without an answer.
   * @param filter - `service`, `method` and `path` as in a rule. @defaultValue every open request
   * @returns How many requests were cut.
   */
  drop(filter?: FaultFilter): number;
  /** Cuts every open event stream (`GET /v1/event/stream`). @returns How many. */
  dropEventStreams(): number;
  /** Cuts every open exec session (`/v1/client/allocation/:alloc_id/exec`). @returns How many. */
  dropExecSessions(): number;
  /** Cuts every peering stream other servers opened to this one (`/v1/internal/peering/stream`). @returns How many. */
  dropPeeringStreams(): number;
}

/** What a listener hands to {@link FaultInjector.install}. */
export interface FaultListenerOptions {
  /** Which listener this is. */
  readonly service: FaultService;
  /**
   * Checks that a request may use the control endpoint (the scheduling listener's management
   * token); the endpoint is registered only on a listener that gives it, when control is on.
   */
  readonly authorize?: ((request: FastifyRequest) => void) | undefined;
  /**
   * Whether a request is forwarded to another region: a leaderless member still forwards it (the
   * service forwards to a region before it looks for its own leader); rules apply to it as to any.
   */
  readonly forwarded?: ((request: FastifyRequest) => boolean) | undefined;
}

/** The injector of a server: the public {@link ServerFaults} plus what the listeners need. */
export interface FaultInjector extends ServerFaults {
  /** Whether the control endpoint (`/v1/sked/faults`) is on. */
  readonly control: boolean;
  /**
   * Installs the hook on a listener (after its local-only guard, before it is ready).
   * @param app - The listener's fastify instance.
   * @param options - Which listener, and the control endpoint's check.
   */
  install(app: FastifyInstance, options: FaultListenerOptions): void;
  /**
   * Whether no rule is in place: then a request the listener answers without its fastify hooks
   * (a plain read forwarded to another region, which a missing leader does not stop) misses nothing.
   */
  quiet(): boolean;
}

function snapshot(active: ActiveRule): FaultSnapshot {
  const { rule } = active;
  return {
    id: active.id,
    service: rule.service ?? null,
    method: rule.methods === undefined ? null : [...rule.methods],
    path: rule.path === undefined ? null : String(rule.path),
    nth: rule.nth,
    times: Number.isFinite(rule.times) ? rule.times : 'always',
    status: rule.status ?? null,
    body: rule.body ?? null,
    headers: { ...rule.headers },
    delayMs: rule.delayMs,
    reset: rule.reset,
    matched: active.matched,
    applied: active.applied,
  };
}

/** Cuts the connections of the open requests a filter selects. */
function dropWhere(state: FaultState, filter: FaultFilter | undefined): number {
  const checked = checkFaultFilter(filter);
  let dropped = 0;
  for (const [response, entry] of state.open) {
    if (!faultMatches(checked, entry)) continue;
    state.open.delete(response);
    entry.socket.destroy();
    dropped++;
  }
  return dropped;
}

/** Installs the hooks (and the control endpoint) of an injector on a listener. */
function install(
  state: FaultState,
  faults: FaultInjector,
  app: FastifyInstance,
  listener: FaultListenerOptions,
): void {
  app.addHook('onRequest', (request, reply, done) => onRequest(state, listener, request, reply, done));
  if (listener.service === 'scheduler') {
    // a stale read while leaderless: the read headers say so
    app.addHook('onSend', (_request, reply, payload, done) => {
      const since = state.leaderlessSince;
      if (since !== undefined && reply.hasHeader('x-svc-knownleader')) {
        reply.header('x-svc-knownleader', 'false');
        reply.header('x-svc-lastcontact', String(Math.max(0, Date.now() - since)));
      }
      done(null, payload);
    });
  }
  app.addHook('preClose', (done) => {
    state.closing.abort();
    done();
  });
  if (faults.control && listener.authorize !== undefined) {
    registerFaultControl(app, faults, listener.authorize);
  }
}

function handleOf(active: ActiveRule, remove: (id: string) => boolean): FaultHandle {
  return {
    id: active.id,
    get matched() {
      return active.matched;
    },
    get applied() {
      return active.applied;
    },
    get spent() {
      return active.applied >= active.rule.times;
    },
    remove: () => void remove(active.id),
  };
}

/**
 * Creates a server's fault injector.
 * @param options - `control`: whether the control endpoint is on. @defaultValue off
 * @returns The injector, with no rule and a leader.
 */
export function createFaultInjector(options: { readonly control?: boolean } = {}): FaultInjector {
  const open = new Map<ServerResponse, OpenRequest>();
  const state: FaultState = {
    rules: [],
    open,
    untrack(this: ServerResponse) {
      open.delete(this);
    },
    closing: new AbortController(),
    leaderlessSince: undefined,
  };
  const { rules } = state;
  let nextId = 1;
  const faults: FaultInjector = {
    control: options.control === true,
    inject(rule) {
      const checked = checkFaultRule(rule);
      if (rules.length >= 1000) throw new FaultRuleError('rule', 'fault rules: at most 1000 rules at a time');
      const active: ActiveRule = { id: `f${nextId++}`, rule: checked, matched: 0, applied: 0 };
      rules.push(active);
      return handleOf(active, (id) => faults.remove(id));
    },
    list: () => rules.map(snapshot),
    remove(id) {
      const at = rules.findIndex((active) => active.id === id);
      if (at < 0) return false;
      rules.splice(at, 1);
      return true;
    },
    clear() {
      rules.length = 0;
      state.leaderlessSince = undefined;
    },
    leaderless(on = true) {
      if (!on) state.leaderlessSince = undefined;
      else state.leaderlessSince ??= Date.now();
    },
    get isLeaderless() {
      return state.leaderlessSince !== undefined;
    },
    drop: (filter) => dropWhere(state, filter),
    dropEventStreams: () => dropWhere(state, { service: 'scheduler', path: '/v1/event/stream' }),
    dropExecSessions: () =>
      dropWhere(state, { service: 'scheduler', path: '/v1/client/allocation/:alloc_id/exec' }),
    dropPeeringStreams: () => dropWhere(state, { service: 'mesh', path: '/v1/internal/peering/stream' }),
    install: (app, listener) => install(state, faults, app, listener),
    quiet: () => rules.length === 0,
  };
  return faults;
}
