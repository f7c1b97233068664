import { DEFAULTS } from '../defaults.js';
import { createHttpApp } from '../http/app.js';
import { hostForUrl, listenService, type RunningService, type ServiceListenOptions } from '../http/listen.js';
import { guardLocalOnly } from '../http/local-only.js';
import type { PeeringAcl } from './access.js';
import type { ExchangeLimits } from './dialer.js';
import { createFilePeeringStore } from './file-store.js';
import { registerInternalRoutes } from './internal-routes.js';
import { registerPeeringRoutes } from './routes.js';
import { createMeshService, type MeshService } from './service.js';
import { createMemoryPeeringStore, type PeeringStore } from './store.js';

/** Options of {@link startMeshService}. */
export interface StartMeshOptions extends ServiceListenOptions {
  /** The server's ACL (the `peering` access of each token). */
  readonly acl: PeeringAcl;
  /** Datacenter of this server. @defaultValue `dc1` */
  readonly datacenter?: string | undefined;
  /** Heartbeat interval of peering streams, in milliseconds. @defaultValue 10000 */
  readonly heartbeatMs?: number | undefined;
  /** File keeping the peerings across restarts. @defaultValue none (memory only) */
  readonly stateFile?: string | undefined;
  /** A store to use instead (tests, the data dir). @defaultValue a memory or file store */
  readonly store?: PeeringStore | undefined;
  /** How long a deleted peering stays readable, in milliseconds. @defaultValue 10000 */
  readonly cleanupMs?: number | undefined;
  /** Establishment time limits. @defaultValue 2 s per address, 5 s in all */
  readonly exchangeLimits?: ExchangeLimits | undefined;
}

/** The running mesh service. */
export interface RunningMesh extends RunningService {
  /** The peerings. */
  readonly service: MeshService;
}

/**
 * Starts the mesh service's listener: the peering API, and the endpoints peer servers call.
 * @param options - Listener, ACL, datacenter, heartbeat, state file.
 * @returns The running listener.
 * @throws the listen error (port in use), or `MeshStateError` for an unusable state file.
 */
export async function startMeshService(options: StartMeshOptions): Promise<RunningMesh> {
  const store =
    options.store ??
    (options.stateFile === undefined
      ? createMemoryPeeringStore()
      : createFilePeeringStore(options.stateFile));
  const service = createMeshService({
    store,
    datacenter: options.datacenter ?? DEFAULTS.datacenter,
    heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
    cleanupMs: options.cleanupMs,
    exchangeLimits: options.exchangeLimits,
  });
  const shutdown = new AbortController();
  const app = createHttpApp(options.maxBody === undefined ? {} : { maxBody: options.maxBody });
  guardLocalOnly(app, options.localOnly ?? {});
  options.faults?.install(app, { service: 'mesh' });
  app.addHook('preClose', (done) => {
    shutdown.abort();
    service.close();
    done();
  });
  registerPeeringRoutes(app, { service, acl: options.acl, shutdown: shutdown.signal });
  registerInternalRoutes(app, service);
  const { url, port, close } = await listenService(app, options, () => service.close());
  const dialHost =
    options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : hostForUrl(options.host);
  service.setAddresses([`${dialHost}:${port}`]);
  return { url, app, service, close };
}
