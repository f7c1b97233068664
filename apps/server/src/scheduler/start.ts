/**
 * Starts the scheduling service on its own listener (the first listener of `sked-server`): the
 * simulated cluster, its HTTP API, the event stream and exec.
 */
import { ownValue } from '@sked/model';
import type { FastifyInstance } from 'fastify';
import { DEFAULTS } from '../defaults.js';
import { createHttpApp } from '../http/app.js';
import { listenService, type RunningService, type ServiceListenOptions } from '../http/listen.js';
import { guardLocalOnly } from '../http/local-only.js';
import type { Acl } from './acl/index.js';
import { requireManagement } from './acl/enforce.js';
import { ClusterError, createCluster, type GcOptions, type StoreOptions } from './core/index.js';
import { loadDemo } from './demo.js';
import { createEventBroker, registerEventStreamRoute } from './events/index.js';
import {
  assertExecExposureAllowed,
  detectExecSandbox,
  probeExecSandbox,
  registerExecRoute,
  type ExecAllocation,
} from './exec/index.js';
import { createRegions, type MemberStore, type Regions } from './regions/index.js';
import type { SchedulerCluster, SchedulerRouteContext, TokenLookup } from './routes/common.js';
import { registerSchedulerRoutes, rpcAddressOf } from './routes/index.js';
import { createSchedulerSeeder, type SchedulerSeeder } from './seed.js';

/** Options of {@link startSchedulerService}. */
export interface StartSchedulerOptions extends ServiceListenOptions {
  /** The server's ACL (disabled: everything allowed). */
  readonly acl: Acl;
  /** Region this server serves. @defaultValue `global` */
  readonly region?: string | undefined;
  /** Datacenter of the simulated nodes. @defaultValue `dc1` */
  readonly datacenter?: string | undefined;
  /** Number of simulated client nodes. @defaultValue 3 */
  readonly nodes?: number | undefined;
  /** Enable the raw_exec driver. @defaultValue false */
  readonly rawExec?: boolean | undefined;
  /** Root directory of task directories. @defaultValue a fresh temporary directory */
  readonly dataRoot?: string | undefined;
  /** Garbage collection thresholds and interval in ms. @defaultValue the service's */
  readonly gc?: Partial<GcOptions> | undefined;
  /** A durable store: every commit goes to it, and the state restored from it. @defaultValue memory only */
  readonly persistence?: StoreOptions | undefined;
  /** Register a few sample jobs of each type (not on a restored state). @defaultValue false */
  readonly demo?: boolean | undefined;
  /** Heartbeat interval of event streams and exec sessions, in milliseconds. @defaultValue 10000 */
  readonly heartbeatMs?: number | undefined;
  /** Run exec commands (into `mock` tasks) in a sandbox. @defaultValue true */
  readonly execSandbox?: boolean | undefined;
  /** Looks up a job's `SecretsToken` (the secrets service's). @defaultValue none: every token is unknown */
  readonly secretsTokens?: ((secret: string) => TokenLookup) | undefined;
  /** Scheduling addresses of other members to federate with (see ./regions). @defaultValue none */
  readonly join?: readonly string[] | undefined;
  /** Address the other members reach this one at. @defaultValue the listener's */
  readonly advertise?: string | undefined;
  /** Keeps the federation's other members across restarts. @defaultValue memory only */
  readonly regionsStore?: MemberStore | undefined;
  /** Token this member sends in membership exchanges (a management token of the federation). */
  readonly regionsToken?: string | undefined;
  /** More routes on this listener, added by the root before it listens (the web console). @defaultValue none */
  readonly routes?: ((app: FastifyInstance) => void) | undefined;
}

/** The running scheduling service. */
export interface RunningScheduler extends RunningService {
  /** The cluster behind the API. */
  readonly cluster: SchedulerCluster;
  /** Seeding from code through the endpoints' own paths (`server.seed`, `server.reset()`). */
  readonly seed: SchedulerSeeder;
  /** The federation of regions this member belongs to. */
  readonly regions: Regions;
}

function findExecAllocation(cluster: SchedulerCluster, allocId: string): ExecAllocation | undefined {
  const alloc = cluster.store.allocs.get(allocId);
  if (alloc === undefined) return undefined;
  const group = alloc.Job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  return {
    id: alloc.ID,
    namespace: alloc.Namespace,
    task(name) {
      const task = group?.Tasks.find((t) => t.Name === name);
      if (task === undefined) return undefined;
      const state = ownValue(alloc.TaskStates, name)?.State;
      return {
        driver: task.Driver,
        dir: cluster.taskDir(alloc.ID, name),
        env: cluster.taskEnv(alloc.ID, name) ?? {},
        ...(state === undefined ? {} : { state }),
      };
    },
  };
}

/**
 * Creates the cluster and listens.
 * @param options - Listener, cluster, ACL, exec and secrets lookup.
 * @returns The running service; `close()` stops the listener, then the cluster.
 * @throws when exec would be exposed without ACLs; the listen error for a port in use.
 */
export async function startSchedulerService(options: StartSchedulerOptions): Promise<RunningScheduler> {
  const { acl, host } = options;
  const region = options.region ?? DEFAULTS.region;
  assertExecExposureAllowed({ bind: host, aclEnabled: acl.enabled });
  // before anything starts: a region name or join address that cannot be used throws here
  const regions = createRegions({
    region,
    datacenter: options.datacenter ?? DEFAULTS.datacenter,
    join: options.join,
    advertise: options.advertise,
    store: options.regionsStore,
    acl,
    token: options.regionsToken,
    localOnly: options.localOnly,
    maxBody: options.maxBody ?? DEFAULTS.maxBody,
    ...(options.faults === undefined ? {} : { fastPath: () => options.faults?.quiet() ?? true }),
    heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
  });
  // The broker exists before the cluster, so that the nodes' NodeRegistration events (written
  // while the cluster is created) are in the event stream's buffer.
  const broker = createEventBroker();
  const cluster = createCluster({
    onEvents: (batch) => broker.publish(batch),
    region,
    datacenter: options.datacenter ?? DEFAULTS.datacenter,
    nodes: options.nodes ?? DEFAULTS.nodes,
    rawExec: options.rawExec ?? false,
    ...(options.dataRoot === undefined ? {} : { dataRoot: options.dataRoot }),
    ...(options.gc === undefined ? {} : { gc: options.gc }),
    ...(options.persistence === undefined ? {} : { persistence: options.persistence }),
  });
  const shutdown = new AbortController();
  const app = createHttpApp({
    ...(options.maxBody === undefined ? {} : { maxBody: options.maxBody }),
    mapError: (error) =>
      ClusterError.is(error) ? { status: error.status, message: error.message } : undefined,
    readIndex: () => cluster.store.index,
  });
  guardLocalOnly(app, options.localOnly ?? {});
  options.faults?.install(app, {
    forwarded: (request) => regions.forwards(request.raw),
    service: 'scheduler',
    authorize: (request) => void requireManagement(acl, request),
  });
  regions.register(app);
  // Nothing leaves the process before it is durable: a write is answered once its commit is on
  // disk, and a read never shows what a crash could still undo.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const pending = cluster.store.synced();
    if (pending === undefined) done(null, payload);
    else
      pending.then(
        () => done(null, payload),
        (error: unknown) => done(error as Error),
      );
  });
  app.addHook('preClose', (done) => {
    shutdown.abort();
    done();
  });
  const routes: SchedulerRouteContext = {
    cluster,
    acl,
    region,
    shutdown: shutdown.signal,
    forwardParsed: (request, reply, region, body) => regions.forwardParsed(request, reply, region, body),
    rpcAddress: rpcAddressOf(host),
    ...(options.secretsTokens === undefined ? {} : { secretsTokens: options.secretsTokens }),
  };
  registerSchedulerRoutes(app, routes);
  registerEventStreamRoute(app, {
    broker,
    acl,
    region,
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  if (options.execSandbox !== false) void probeExecSandbox();
  registerExecRoute(app, {
    acl,
    region,
    // probed in the background from here; read when an exec comes (the probe ended by then, or it is run then)
    get sandbox() {
      return options.execSandbox === false ? undefined : detectExecSandbox();
    },
    findAllocation: (allocId) => findExecAllocation(cluster, allocId),
    relay: regions.exec.relay,
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  try {
    options.routes?.(app);
    // A restored state already holds the demo jobs (or what became of them).
    if (options.demo === true && options.persistence?.restored === undefined) loadDemo(cluster);
  } catch (error) {
    await app.close().catch(() => undefined);
    await regions.close();
    await cluster.close();
    throw error;
  }
  const { url, close: closeApp } = await listenService(app, options, async () => {
    await regions.close();
    await cluster.close();
  });
  let closed: Promise<void> | undefined;
  regions.start(options.advertise ?? url);
  return {
    url,
    app,
    cluster,
    seed: createSchedulerSeeder(routes, { demo: options.demo === true }),
    regions,
    close() {
      closed ??= Promise.all([closeApp(), regions.close()]).then(() => cluster.close());
      return closed;
    },
  };
}
