import { ownValue } from '@sked/model';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  AclConfigError,
  createAcl,
  loadAclFile,
  parseAclConfig,
  type AclConfig,
} from '../scheduler/acl/index.js';
import { ClusterError, createCluster, type Cluster } from '../scheduler/core/index.js';
import { createEventBroker, registerEventStreamRoute, type EventBroker } from '../scheduler/events/index.js';
import {
  assertExecExposureAllowed,
  detectExecSandbox,
  registerExecRoute,
  type ExecAllocation,
} from '../scheduler/exec/index.js';
import { registerSchedulerRoutes, rpcAddressOf } from '../scheduler/routes/index.js';
import type { SchedulerCluster } from '../scheduler/routes/common.js';
import { createSecretsService, type SecretsService } from '../secrets/index.js';
import { listenSecrets, type SecretsListener } from '../secrets/listen.js';
import { createHttpApp, DEFAULT_MAX_BODY } from './app.js';
import { loadDemo } from './demo.js';
import { hostForUrl } from './listen.js';
import { guardLocalOnly } from './local-only.js';
import { startMeshListener, type MeshListener, type MeshService } from '../mesh/index.js';
import { openDurable, type Durable } from '../durable/index.js';
import type { GcOptions } from '../scheduler/core/index.js';

/** Options of {@link startServer}; they mirror the flags of `sked-server`. */
export interface StartServerOptions {
  /** Address to listen on. @defaultValue `127.0.0.1` */
  readonly bind?: string;
  /** Port of the scheduling service API; 0 picks a free port. @defaultValue 4646 */
  readonly schedulerPort?: number;
  /** Region this server serves. @defaultValue `global` */
  readonly region?: string;
  /** Number of simulated client nodes. @defaultValue 3 */
  readonly nodes?: number;
  /** Datacenter of the simulated nodes. @defaultValue `dc1` */
  readonly datacenter?: string;
  /** Enforce ACL tokens. @defaultValue false */
  readonly acl?: boolean;
  /** Path of the ACL token file (with `acl`). */
  readonly aclTokens?: string;
  /** The ACL token configuration as an object (instead of `aclTokens`). */
  readonly aclConfig?: unknown;
  /** Register a few sample jobs of each type. @defaultValue false */
  readonly demo?: boolean;
  /** Largest accepted request body in bytes. @defaultValue 10485760 */
  readonly maxBody?: number;
  /** Enable the raw_exec driver. @defaultValue false */
  readonly enableRawExec?: boolean;
  /** Heartbeat interval of event streams, exec sessions and mesh peering streams, in milliseconds. @defaultValue 10000 */
  readonly heartbeatMs?: number;
  /**
   * Port of the mesh service API; 0 picks a free port.
   * @defaultValue 8500, or 0 when `schedulerPort` is 0 (a caller asking for one free port wants free ports)
   */
  readonly meshPort?: number;
  /** A JSON file keeping the mesh peerings instead. @defaultValue the data dir's database with `dataDir`, else none (memory only) */
  readonly meshStateFile?: string;
  /** How long a deleted peering stays readable, in milliseconds. @defaultValue 10000 */
  readonly meshCleanupMs?: number;
  /** Root directory of task directories. @defaultValue `<dataDir>/tasks`, or a fresh temporary directory */
  readonly dataRoot?: string;
  /**
   * Keeps the state in this directory (SQLite, see the README's "Durable state"): restored at
   * start, every write answered once it is on disk. @defaultValue none: memory only
   */
  readonly dataDir?: string;
  /**
   * With `dataDir`: stored records that cannot be read are moved aside (kept in the data dir, each
   * named on stderr) and the server starts without them; without it such a data dir is refused
   * with a message naming them. @defaultValue false
   */
  readonly setAsideUnreadable?: boolean;
  /** Garbage collection thresholds and interval in ms. @defaultValue the service's (1h, 24h, 4h, 1h; every 5 min) */
  readonly gc?: Partial<GcOptions>;
  /** Port of the secrets service API; 0 picks a free port. @defaultValue 8200, or 0 when `schedulerPort` is 0 */
  readonly secretsPort?: number;
  /** Root token of the secrets service. @defaultValue generated (see `RunningServer.secrets`) */
  readonly secretsRootToken?: string;
  /** Mount of the LDAP auth method under `auth/`. @defaultValue `ldap` */
  readonly ldapMount?: string;
  /**
   * Host names accepted in the `Host` header of every listener besides the listener's own address
   * and the loopback names and addresses (`--allowed-host`; `*` accepts any). @defaultValue none
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Run exec commands (into `mock` tasks) in a sandbox (bubblewrap: own user, mount and PID
   * namespaces, the task directory and a read-only system only). `false` (`--no-exec-sandbox`) runs
   * them on the host, and exec into a `mock` task then needs `alloc-node-exec`.
   * @defaultValue true (the sandbox when `bwrap` works on this machine)
   */
  readonly execSandbox?: boolean;
}

/** A running server. */
export interface RunningServer {
  /** The scheduling service listener. */
  readonly scheduler: {
    /** Base address, `http://HOST:PORT`. */
    readonly url: string;
    /** The fastify instance (for tests and in-process use). */
    readonly app: FastifyInstance;
    /** The cluster behind the API. */
    readonly cluster: SchedulerCluster;
  };
  /** The secrets service listener (LDAP auth method and token store). */
  readonly secrets: {
    /** Base address, `http://HOST:PORT`. */
    readonly url: string;
    /** The fastify instance. */
    readonly app: FastifyInstance;
    /** The root token in effect. */
    readonly rootToken: string;
    /** Whether the root token was generated (print it once) rather than given. */
    readonly rootTokenGenerated: boolean;
    /** The mount path, `auth/ldap`. */
    readonly mountPath: string;
  };
  /** The mesh service listener. */
  readonly mesh: {
    /** Base address, `http://HOST:PORT`. */
    readonly url: string;
    /** The fastify instance. */
    readonly app: FastifyInstance;
    /** The peerings. */
    readonly service: MeshService;
  };
  /** ACL information safe to print (never a secret read from a file). */
  readonly acl:
    | { readonly enabled: false }
    | {
        readonly enabled: true;
        /** Name of the first management token. */
        readonly managementName: string | undefined;
        /** Secret of a generated bootstrap token (only when no token file was given). */
        readonly bootstrapSecret?: string;
      };
  /** Stops gracefully: new connections refused, blocking queries answered, streams ended. */
  close(): Promise<void>;
}

function resolveAclConfig(options: StartServerOptions): {
  config: AclConfig | undefined;
  bootstrapSecret?: string;
} {
  if (options.aclConfig !== undefined) return { config: parseAclConfig(options.aclConfig) };
  if (options.aclTokens !== undefined) return { config: loadAclFile(options.aclTokens) };
  if (options.acl !== true) return { config: undefined };
  const secret = randomUUID();
  return {
    config: { tokens: [{ name: 'bootstrap', secret, management: true, namespaces: {} }] },
    bootstrapSecret: secret,
  };
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
 * Opens the data dir (when asked for) and creates the cluster on it, its events going to the broker.
 * @param options - The server's options.
 * @param broker - The event stream's broker.
 * @param region - The server's region.
 * @returns The durable state (undefined in memory) and the cluster.
 */
function openCluster(
  options: StartServerOptions,
  broker: EventBroker,
  region: string,
): { durable: Durable | undefined; cluster: Cluster } {
  const durable: Durable | undefined =
    options.dataDir === undefined
      ? undefined
      : openDurable(options.dataDir, (error) => process.stderr.write(`sked-server: ${error.message}\n`), {
          setAsideUnreadable: options.setAsideUnreadable ?? false,
          warn: (message) => process.stderr.write(`sked-server: ${message}\n`),
        });
  const dataRoot = options.dataRoot ?? durable?.taskRoot;
  const cluster = createCluster({
    onEvents: (batch) => broker.publish(batch),
    region,
    datacenter: options.datacenter ?? 'dc1',
    nodes: options.nodes ?? 3,
    rawExec: options.enableRawExec ?? false,
    ...(dataRoot === undefined ? {} : { dataRoot }),
    ...(options.gc === undefined ? {} : { gc: options.gc }),
    ...(durable === undefined
      ? {}
      : {
          persistence: {
            backend: durable.scheduler,
            ...(durable.scheduler.restored === undefined ? {} : { restored: durable.scheduler.restored }),
          },
        }),
  });
  return { durable, cluster };
}

/**
 * Starts the sample server.
 * @param options - Listener, cluster and ACL options.
 * @returns The running server.
 * @throws {@link AclConfigError} for an invalid ACL token file; the listen error for a port in use.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const region = options.region ?? 'global';
  const host = options.bind ?? '127.0.0.1';
  const { config, bootstrapSecret } = resolveAclConfig(options);
  const acl = createAcl(config);
  assertExecExposureAllowed({ bind: host, aclEnabled: acl.enabled });
  // The broker exists before the cluster, so that the nodes' NodeRegistration events (written
  // while the cluster is created) are in the event stream's buffer.
  const broker = createEventBroker();
  const { durable, cluster } = openCluster(options, broker, region);
  const shutdown = new AbortController();
  const localOnly = { allowedHosts: options.allowedHosts ?? [] };
  const app = createHttpApp({
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    mapError: (error) =>
      ClusterError.is(error) ? { status: error.status, message: error.message } : undefined,
    readIndex: () => cluster.store.index,
  });
  guardLocalOnly(app, localOnly);
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
  let secretsService: SecretsService;
  try {
    // Built before the scheduler's routes: with ACLs on, they check a submitted job's SecretsToken
    // against this service's token store.
    secretsService = createSecretsService({
      maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
      ...(options.secretsRootToken === undefined ? {} : { rootToken: options.secretsRootToken }),
      ...(options.ldapMount === undefined ? {} : { mount: options.ldapMount }),
      ...(durable === undefined ? {} : { store: durable.secrets }),
    });
  } catch (error) {
    await cluster.close();
    durable?.close();
    throw error;
  }
  guardLocalOnly(secretsService.app, localOnly);
  const ctx = {
    cluster,
    acl,
    region,
    shutdown: shutdown.signal,
    rpcAddress: rpcAddressOf(host),
    secretsTokens: secretsService.lookupToken,
  };
  registerSchedulerRoutes(app, ctx);
  registerEventStreamRoute(app, {
    broker,
    acl,
    region,
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  registerExecRoute(app, {
    acl,
    region,
    sandbox: options.execSandbox === false ? undefined : detectExecSandbox(),
    findAllocation: (allocId) => findExecAllocation(cluster, allocId),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  let secrets: SecretsListener | undefined;
  let mesh: MeshListener | undefined;
  try {
    // A restored data dir already holds the demo jobs (or what became of them).
    if (options.demo === true && durable?.scheduler.restored === undefined) loadDemo(cluster);
    await app.listen({ host, port: options.schedulerPort ?? 4646 });
    secrets = await listenSecrets({
      host,
      // A caller that asks for a free scheduler port (tests) gets a free secrets port too.
      port: options.secretsPort ?? (options.schedulerPort === 0 ? 0 : 8200),
      service: secretsService,
      ...(options.secretsRootToken === undefined ? {} : { rootToken: options.secretsRootToken }),
    });
    const secretsListener = secrets;
    mesh = await startMeshListener({
      host,
      // the same rule: a free scheduler port asked for means a free mesh port
      port: options.meshPort ?? (options.schedulerPort === 0 ? 0 : 8500),
      acl,
      datacenter: options.datacenter ?? 'dc1',
      heartbeatMs: options.heartbeatMs ?? 10_000,
      maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
      stateFile: options.meshStateFile,
      store: options.meshStateFile === undefined ? durable?.mesh : undefined,
      cleanupMs: options.meshCleanupMs,
      localOnly,
    });
    const meshListener = mesh;
    const address = app.server.address();
    const port =
      typeof address === 'object' && address !== null ? address.port : (options.schedulerPort ?? 4646);
    let closed: Promise<void> | undefined;
    return {
      scheduler: { url: `http://${hostForUrl(host)}:${port}`, app, cluster },
      secrets: {
        url: secretsListener.url,
        app: secretsListener.service.app,
        rootToken: secretsListener.rootToken,
        rootTokenGenerated: secretsListener.service.generatedRootToken !== undefined,
        mountPath: secretsListener.service.mountPath,
      },
      mesh: { url: meshListener.url, app: meshListener.app, service: meshListener.service },
      acl: acl.enabled
        ? {
            enabled: true,
            managementName: acl.managementName,
            ...(bootstrapSecret === undefined ? {} : { bootstrapSecret }),
          }
        : { enabled: false },
      close() {
        closed ??= (async () => {
          // Connections still open after a grace period (a client that ignores Connection: close)
          // are cut so that stopping always ends.
          const force = setTimeout(() => app.server.closeAllConnections(), 2000);
          try {
            await Promise.all([app.close(), secretsListener.close(), meshListener.close()]);
          } finally {
            clearTimeout(force);
          }
          await cluster.close();
          durable?.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    await mesh?.close().catch(() => undefined);
    await (secrets?.close() ?? secretsService.app.close()).catch(() => undefined);
    await app.close().catch(() => undefined);
    await cluster.close();
    durable?.close();
    throw error;
  }
}

export { AclConfigError };
