import {
  PeeringState,
  type Peering,
  type PeeringEstablishRequest,
  type PeeringGenerateTokenRequest,
} from '@sked/model';
import { createIndexWatch, type IndexWatch } from '@sked/query';
import type { WebSocket } from 'ws';
import { createDialer, DEFAULT_EXCHANGE_LIMITS, type ExchangeLimits } from './dialer.js';
import { DEFAULT_PARTITION } from './names.js';
import { acceptExchange, establishPeering, generateToken, type MeshContext } from './operations.js';
import type { PeeringDraft, PeeringStore, StoredPeering } from './store.js';
import { createStreamHub } from './streams.js';
import { sameSecret } from '../http/guards.js';
import { toWire } from './wire.js';
import { DEFAULTS } from '../defaults.js';

/** Options of {@link createMeshService}. */
export interface MeshServiceOptions {
  /** The peering table. */
  readonly store: PeeringStore;
  /** Datacenter of this server, put in its tokens. */
  readonly datacenter: string;
  /** Heartbeat interval of the streams, in milliseconds. */
  readonly heartbeatMs: number;
  /** How long a deleted peering stays readable, in milliseconds. @defaultValue 10000 */
  readonly cleanupMs?: number | undefined;
  /** Time limits of establishment. @defaultValue 2 s per address, 5 s in all */
  readonly exchangeLimits?: ExchangeLimits | undefined;
  /** Reconnect backoff of the dialing side, in milliseconds. @defaultValue 100 doubling to 5000 */
  readonly reconnect?: { readonly baseMs?: number; readonly maxMs?: number } | undefined;
}

/** The answer to a peer's stream or terminate call. */
export type PeerCheck =
  | { readonly ok: true; readonly peering: StoredPeering }
  | { readonly ok: false; readonly status: 403 | 404 | 410; readonly message: string };

/** The mesh service's peerings: the public operations and the ones the peer server calls. */
export interface MeshService {
  /** Index of the peering table, for blocking reads. */
  readonly watch: IndexWatch;
  /** This server's name in tokens. */
  readonly serverName: string;
  /** Number of streams up. */
  readonly openStreams: number;
  /**
   * Sets the addresses this server is reached at (once its listener is up).
   * @param addresses - `host:port` strings.
   */
  setAddresses(addresses: readonly string[]): void;
  /** `POST /v1/peering/token`: creates or rotates; returns the token. */
  generateToken(body: PeeringGenerateTokenRequest): string;
  /** `POST /v1/peering/establish`; `signal`: the caller gives up (the exchange is cancelled). */
  establish(body: PeeringEstablishRequest, signal?: AbortSignal): Promise<void>;
  /** `GET /v1/peering/:name`. */
  read(name: string): Peering | undefined;
  /** `GET /v1/peerings`, ordered by name. */
  list(): Peering[];
  /** `DELETE /v1/peering/:name`: marks TERMINATED, tells the peer; idempotent. */
  remove(name: string): void;
  /** The peer's establishment exchange: checks the one-time secret, issues the stream secret. */
  acceptExchange(body: unknown): { StreamSecret: string };
  /** Checks a peer's stream or terminate call. */
  checkPeer(peeringId: string | undefined, secret: string | undefined): PeerCheck;
  /** Takes over the socket of an accepted stream. */
  acceptStream(peeringId: string, socket: WebSocket): void;
  /** The dialing side says it deleted the peering. */
  terminatedByPeer(peeringId: string): void;
  /** Stops streams, loops and timers. */
  close(): void;
}

/**
 * Creates the mesh service over a store: resumes the dialing side of stored peerings and schedules
 * the removal of deleted ones.
 * @param options - Store, datacenter, heartbeat and limits.
 * @returns The service.
 */
export function createMeshService(options: MeshServiceOptions): MeshService {
  const { store } = options;
  const cleanupMs = options.cleanupMs ?? DEFAULTS.meshCleanupMs;
  const watch = createIndexWatch(store.index);
  const serverName = `server.${options.datacenter}.peering.${store.clusterId}.mesh`;
  let addresses: readonly string[] = [];
  const cleanups = new Map<string, ReturnType<typeof setTimeout>>();
  const establishing = new Set<string>();

  const put = (draft: PeeringDraft): StoredPeering => {
    const stored = store.put(draft);
    watch.advance(store.index);
    return stored;
  };

  const scheduleRemoval = (peering: StoredPeering): void => {
    if (cleanups.has(peering.ID)) return;
    const deletedAt = peering.DeletedAt === null ? Date.now() : Date.parse(peering.DeletedAt);
    const timer = setTimeout(
      () => {
        cleanups.delete(peering.ID);
        const current = store.getById(peering.ID);
        if (current === undefined) return;
        dialer.stop(current.ID);
        hub.forget(current.ID);
        store.remove(current.Partition, current.Name);
        watch.advance(store.index);
      },
      Math.max(0, deletedAt + cleanupMs - Date.now()),
    );
    timer.unref();
    cleanups.set(peering.ID, timer);
  };

  const markTerminated = (peering: StoredPeering): StoredPeering => {
    if (peering.State === PeeringState.Terminated) return peering;
    const stored = put({ ...peering, State: PeeringState.Terminated, DeletedAt: new Date().toISOString() });
    scheduleRemoval(stored);
    return stored;
  };

  const hub = createStreamHub({
    heartbeatMs: options.heartbeatMs,
    onOpen(id) {
      const peering = store.getById(id);
      if (peering !== undefined && peering.State === PeeringState.Initial)
        put({ ...peering, State: PeeringState.Active });
    },
    onPeerTerminated(id) {
      const peering = store.getById(id);
      if (peering === undefined) return;
      dialer.stop(id);
      markTerminated(peering);
      hub.disconnect(id);
    },
    onClose(id) {
      const peering = store.getById(id);
      if (peering?.role === 'dialer') dialer.start(id);
    },
  });

  const dialer = createDialer({
    hub,
    getPeering: (id) => store.getById(id),
    onGone(id) {
      const peering = store.getById(id);
      if (peering !== undefined) markTerminated(peering);
    },
    ...options.reconnect,
  });

  for (const peering of store.list(DEFAULT_PARTITION)) {
    if (peering.State === PeeringState.Terminated) scheduleRemoval(peering);
    if (peering.role === 'dialer' && peering.streamSecret !== null) dialer.start(peering.ID);
  }

  const ctx: MeshContext = {
    store,
    serverName,
    datacenter: options.datacenter,
    exchangeLimits: options.exchangeLimits ?? DEFAULT_EXCHANGE_LIMITS,
    establishing,
    put,
    ownAddresses: () => addresses,
    startDialer: (id) => dialer.start(id),
  };

  return {
    watch,
    serverName,
    get openStreams() {
      return hub.open;
    },
    setAddresses(list) {
      addresses = [...list];
    },

    generateToken: (body) => generateToken(ctx, body),
    establish: (body, signal) => establishPeering(ctx, body, signal),
    acceptExchange: (body) => acceptExchange(ctx, body),

    read(name) {
      const peering = store.get(DEFAULT_PARTITION, name);
      return peering === undefined ? undefined : toWire(peering, hub.times(peering.ID));
    },

    list() {
      return store.list(DEFAULT_PARTITION).map((peering) => toWire(peering, hub.times(peering.ID)));
    },

    remove(name) {
      const peering = store.get(DEFAULT_PARTITION, name);
      if (peering === undefined || peering.State === PeeringState.Terminated) return;
      markTerminated(peering);
      const carried = hub.terminate(peering.ID);
      if (peering.role === 'dialer') {
        // the loop delivers the deletion over HTTP when no stream carried it
        if (carried) dialer.stop(peering.ID);
        else dialer.start(peering.ID);
      }
    },

    checkPeer(peeringId, secret) {
      const peering = peeringId === undefined ? undefined : store.getById(peeringId);
      if (peering === undefined || peering.role !== 'acceptor') {
        return { ok: false, status: 404, message: 'Peering not found' };
      }
      if (
        peering.streamSecret === null ||
        secret === undefined ||
        !sameSecret(peering.streamSecret, secret)
      ) {
        return { ok: false, status: 403, message: 'Invalid stream secret' };
      }
      if (peering.State === PeeringState.Terminated)
        return { ok: false, status: 410, message: 'Peering was deleted' };
      return { ok: true, peering };
    },

    acceptStream(peeringId, socket) {
      hub.attach(peeringId, socket);
    },

    terminatedByPeer(peeringId) {
      const peering = store.getById(peeringId);
      if (peering === undefined) return;
      markTerminated(peering);
      hub.disconnect(peeringId);
    },

    close() {
      dialer.close();
      hub.close();
      for (const timer of cleanups.values()) clearTimeout(timer);
      cleanups.clear();
    },
  };
}
