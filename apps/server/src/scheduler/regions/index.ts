/**
 * Regions: federation of scheduling services in separate processes (`--region NAME --join URL`).
 * Each member serves one region, knows every other member's address (gossip, ./sync.ts), forwards
 * a request naming another region straight to its member (./forward.ts, ./exec-relay.ts) and
 * lists the regions (./routes.ts). See the server README, "Regions".
 *
 * @packageDocumentation
 */
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'undici';
import type { Acl } from '../acl/index.js';
import { createExecRelays, type ExecRelays } from './exec-relay.js';
import {
  forwardRequest,
  HOP_HEADER,
  namedRegion,
  installForwarding,
  type ForwardingContext,
} from './forward.js';
import type { LocalOnlyOptions } from '../../http/local-only.js';
import { registerRegionRoutes } from './routes.js';
import { startMembershipSync, type MembershipSync } from './sync.js';
import { createMemberTable, type MemberStore, type MemberTable } from './table.js';

import { parseMemberAddress, regionNameProblem } from './names.js';

export { parseMemberAddress, regionNameProblem, MAX_REGION_NAME } from './names.js';
export { HOP_HEADER } from './forward.js';
export { SYNC_PATH } from './sync.js';
export type { MemberRecord, MemberState, MemberStatus, MemberStore, MemberTable } from './table.js';
export type { ExecRelays } from './exec-relay.js';

/** Options of {@link createRegions}. */
export interface RegionsOptions {
  /** The region served. */
  readonly region: string;
  /** Datacenter of the simulated nodes (shown in the members list). */
  readonly datacenter: string;
  /** Scheduling addresses of members to join (each retried until it answers). @defaultValue none */
  readonly join?: readonly string[] | undefined;
  /** Address advertised to the others (checked here; given to {@link Regions.start}). @defaultValue the listener's */
  readonly advertise?: string | undefined;
  /** Keeps the other members across restarts. @defaultValue none (memory) */
  readonly store?: MemberStore | undefined;
  /** The server's ACL (the membership exchange needs a management token when enabled). */
  readonly acl: Acl;
  /** Token sent with this member's own exchanges (a management token the others know). */
  readonly token?: string | undefined;
  /** The listener's local-only options (a forwarded request is checked by them first). */
  readonly localOnly?: LocalOnlyOptions | undefined;
  /** Largest request body forwarded. */
  readonly maxBody: number;
  /** Whether plain reads may be forwarded before the listener's hooks (no fault rule in place). */
  readonly fastPath?: (() => boolean) | undefined;
  /** Heartbeat interval of event streams: a forwarded stream may stay silent three times that. */
  readonly heartbeatMs: number;
  /** Interval of the membership exchange, in milliseconds. @defaultValue 2000 */
  readonly syncMs?: number | undefined;
  /** Told about members that cannot be joined or read. @defaultValue a line on standard error */
  readonly warn?: ((message: string) => void) | undefined;
}

/** A member's federation. */
export interface Regions {
  /** The membership table. */
  readonly table: MemberTable;
  /** Exec relays (handed to the exec route). */
  readonly exec: ExecRelays;
  /** Puts forwarding in front of the app's handler, and registers the region routes. */
  register(app: FastifyInstance): void;
  /**
   * Forwards a request whose region was read from its body (a job's `Region`) to the member
   * serving `region`, with `body` (the request's, parsed) as JSON; the reply is hijacked.
   * @returns false when no member serves it (or the request was forwarded here already): nothing sent
   */
  forwardParsed(request: FastifyRequest, reply: FastifyReply, region: string, body: unknown): boolean;
  /** Whether a request names another member's region (and is forwarded there). */
  forwards(request: IncomingMessage): boolean;
  /** Starts the gossip once the listener is up and its address known. */
  start(address: string): void;
  /** Resolves after the next whole exchange with every member (tests). */
  synced(): Promise<void>;
  /** Stops the gossip, ends relays, closes the connection pool. */
  close(): Promise<void>;
}

/** Longest time to open a connection to a member: a member that is down is reported within it. */
export const CONNECT_TIMEOUT_MS = 3000;
/** Connections of the plain-read pool to each member. */
export const READ_CONNECTIONS = 4;
/** Reads in flight on one of those connections. */
export const READ_PIPELINING = 32;

/**
 * Creates a member's federation; nothing is sent before {@link Regions.start}.
 * @param options - Region, join addresses, store, ACL, limits.
 * @returns The federation.
 * @throws TypeError for a region name or a join address that cannot be used, naming it.
 */
export function createRegions(options: RegionsOptions): Regions {
  const problem = regionNameProblem(options.region);
  if (problem !== undefined) throw new TypeError(`region: ${problem}`);
  if (options.advertise !== undefined) {
    const read = parseMemberAddress(options.advertise);
    if ('error' in read) throw new TypeError(`advertise: ${read.error}`);
  }
  const join = (options.join ?? []).map((text) => {
    const read = parseMemberAddress(text);
    if ('error' in read) throw new TypeError(`join: ${read.error}`);
    return read.address;
  });
  const warn = options.warn ?? ((message: string) => process.stderr.write(`sked-server: ${message}\n`));
  // One pool for every hop and exchange: keep-alive connections, reused by forwarded requests.
  const dispatcher = new Agent({ connectTimeout: CONNECT_TIMEOUT_MS, keepAliveTimeout: 30_000 });
  // Plain reads: a few connections per member, reads pipelined on each (the member answers them in
  // order, at once), so one read of a socket carries several answers (bench/regions.mjs).
  const reads = new Agent({
    connectTimeout: CONNECT_TIMEOUT_MS,
    keepAliveTimeout: 30_000,
    connections: READ_CONNECTIONS,
    pipelining: READ_PIPELINING,
  });
  let table: MemberTable | undefined;
  let sync: MembershipSync | undefined;
  let exec: ExecRelays | undefined;
  // The table needs this member's address, known once it listens; the routes are registered
  // before: they read it through this getter.
  const current = (): MemberTable => {
    if (table === undefined) throw new Error('the regions are not started');
    return table;
  };
  const lazyTable: MemberTable = {
    get self() {
      return current().self;
    },
    get: (region) => table?.get(region),
    others: () => table?.others() ?? [],
    regions: () => table?.regions() ?? [options.region],
    records: () => current().records(),
    merge: (records, from) => current().merge(records, from),
    failed: (region) => table?.failed(region),
  };
  const relays = createExecRelays(options.region, lazyTable);
  exec = relays;
  let forwarding: ForwardingContext | undefined;
  return {
    table: lazyTable,
    exec: relays,
    register(app) {
      let closing = false;
      forwarding = {
        localOnly: options.localOnly ?? {},
        closing: () => closing,
        region: options.region,
        table: lazyTable,
        dispatcher,
        reads,
        maxBody: options.maxBody,
        fastPath: options.fastPath,
        streamIdleMs: Math.max(60_000, 3 * options.heartbeatMs),
      };
      installForwarding(app, forwarding);
      registerRegionRoutes(app, {
        region: options.region,
        table: lazyTable,
        acl: options.acl,
        changed: () => sync?.syncNow(),
      });
      app.addHook('preClose', (done) => {
        closing = true;
        exec?.closeAll();
        done();
      });
    },
    forwards(request) {
      const region = namedRegion(request.url ?? '/');
      return region !== undefined && region !== options.region && lazyTable.get(region) !== undefined;
    },
    forwardParsed(request, reply, region, body) {
      const member = lazyTable.get(region);
      if (forwarding === undefined || member === undefined || request.headers[HOP_HEADER] !== undefined)
        return false;
      void reply.hijack();
      forwardRequest(request.raw, reply.raw, member, forwarding, JSON.stringify(body));
      return true;
    },
    start(address) {
      table = createMemberTable(
        {
          Region: options.region,
          Address: address,
          Datacenter: options.datacenter,
          Name: `${hostname()}.${options.region}`,
          Epoch: Date.now(),
        },
        { store: options.store, warn },
      );
      sync = startMembershipSync({
        table,
        join,
        dispatcher,
        token: options.token,
        warn,
        ...(options.syncMs === undefined ? {} : { intervalMs: options.syncMs }),
      });
    },
    synced: () => sync?.nextRound() ?? Promise.resolve(),
    async close() {
      sync?.stop();
      exec?.closeAll();
      // forwarded blocking queries may still wait: cut them (their clients are gone already)
      await Promise.all([dispatcher.destroy(), reads.destroy()]).catch(() => undefined);
    },
  };
}
