/**
 * The root of the sample server: the one module that wires the three services (scheduling,
 * secrets, mesh) and the data dir together. `sked-server`'s flags (./cli.ts) map onto its options.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { registerConsole } from '../console/index.js';
import { DEFAULTS } from '../defaults.js';
import { openDurable, type Durable } from '../durable/index.js';
import { createFaultInjector } from '../http/faults.js';
import { startMeshService, type MeshService, type RunningMesh } from '../mesh/index.js';
import { AclConfigError, loadAclFile, parseAclConfig, type AclConfig } from '../scheduler/acl/index.js';
import type { GcOptions } from '../scheduler/core/index.js';
import { assertExecExposureAllowed } from '../scheduler/exec/index.js';
import type { SchedulerCluster } from '../scheduler/routes/common.js';
import { startSchedulerService, type RunningScheduler } from '../scheduler/start.js';
import { startSecretsService, type RunningSecrets } from '../secrets/index.js';
import { serverEnv, type ServerFixture } from './fixture.js';
import { createSeedableAcl, createServerSeed } from './seed.js';

/** Options of {@link startServer}; they mirror the flags of `sked-server`. */
export interface StartServerOptions {
  /** Address to listen on. @defaultValue `127.0.0.1` */
  readonly bind?: string;
  /** Port of the scheduling service API; 0 picks a free port. @defaultValue 0 (`sked-server`: 4646) */
  readonly schedulerPort?: number;
  /** Region this server serves. @defaultValue `global` */
  readonly region?: string;
  /**
   * Scheduling addresses of other servers (`http://HOST:PORT`) whose federation of regions this
   * one joins (`--join`, repeatable): each is retried until it answers; members then learn each
   * other and forward `?region=` requests straight to the member serving it. @defaultValue none
   */
  readonly join?: readonly string[];
  /**
   * Scheduling address (`http://HOST:PORT`) the other members use to reach this one
   * (`--advertise`): needed when it listens on `0.0.0.0` or behind NAT. @defaultValue the
   * address it listens on
   */
  readonly advertise?: string;
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
  /** Port of the mesh service API; 0 picks a free port. @defaultValue 0 (`sked-server`: 8500) */
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
  /** Port of the secrets service API; 0 picks a free port. @defaultValue 0 (`sked-server`: 8200) */
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
  /**
   * Serves the fault control endpoint `/v1/sked/faults` on the scheduling listener (for tests not
   * written in Node; `server.faults` works without it). @defaultValue false
   */
  readonly faultControl?: boolean;
}

/**
 * A running server: its three listeners, seeding, fault injection, and `close()` (also through
 * `await using`).
 */
export interface RunningServer extends ServerFixture {
  /** The scheduling service listener. */
  readonly scheduler: {
    /** Base address, `http://HOST:PORT`. */
    readonly url: string;
    /** The fastify instance (for tests and in-process use). */
    readonly app: FastifyInstance;
    /** The cluster behind the API. */
    readonly cluster: SchedulerCluster;
    /** The federation of regions this server belongs to (`join`; see the README, "Regions"). */
    readonly regions: {
      /** Every known region, this server's included, sorted (as `GET /v1/regions`). */
      list(): string[];
      /** Resolves after this server's next membership exchange with every member it knows. */
      synced(): Promise<void>;
    };
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

/**
 * Opens the data dir when asked for.
 * @param options - The server's options.
 * @returns The durable state, or undefined in memory.
 */
function openDataDir(options: StartServerOptions): Durable | undefined {
  return options.dataDir === undefined
    ? undefined
    : openDurable(options.dataDir, (error) => process.stderr.write(`sked-server: ${error.message}\n`), {
        setAsideUnreadable: options.setAsideUnreadable ?? false,
        warn: (message) => process.stderr.write(`sked-server: ${message}\n`),
      });
}

/** The services started so far, stopped in reverse on a failed start. */
interface Started {
  secrets?: RunningSecrets;
  scheduler?: RunningScheduler;
  mesh?: RunningMesh;
}

async function stopStarted(started: Started, durable: Durable | undefined): Promise<void> {
  await started.mesh?.close().catch(() => undefined);
  await started.scheduler?.close().catch(() => undefined);
  await started.secrets?.close().catch(() => undefined);
  durable?.close();
}

/**
 * Starts the sample server: the secrets service first (the scheduling service checks a submitted
 * job's `SecretsToken` against its token store), then the scheduling and mesh services.
 * @param options - Listener, cluster and ACL options.
 * @returns The running server.
 * @throws {@link AclConfigError} for an invalid ACL token file; the listen error for a port in use.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.bind ?? DEFAULTS.bind;
  const { config, bootstrapSecret } = resolveAclConfig(options);
  const acl = createSeedableAcl(config);
  const faults = createFaultInjector({ control: options.faultControl === true });
  // Checked again by the scheduling service; here before anything opens or binds, so that no
  // listener is ever up on a public address without ACLs, not even for a moment.
  assertExecExposureAllowed({ bind: host, aclEnabled: acl.enabled });
  const durable = openDataDir(options);
  const localOnly = { allowedHosts: options.allowedHosts ?? [] };
  const maxBody = options.maxBody ?? DEFAULTS.maxBody;
  const started: Started = {};
  try {
    const secrets = await startSecretsService({
      host,
      port: options.secretsPort ?? 0,
      maxBody,
      localOnly,
      faults,
      rootToken: options.secretsRootToken,
      mount: options.ldapMount,
      store: durable?.secrets,
    });
    started.secrets = secrets;
    const dataRoot = options.dataRoot ?? durable?.taskRoot;
    const scheduler = await startSchedulerService({
      host,
      port: options.schedulerPort ?? 0,
      maxBody,
      localOnly,
      faults,
      acl,
      region: options.region,
      datacenter: options.datacenter,
      nodes: options.nodes,
      rawExec: options.enableRawExec,
      dataRoot,
      gc: options.gc,
      persistence:
        durable === undefined
          ? undefined
          : {
              backend: durable.scheduler,
              ...(durable.scheduler.restored === undefined ? {} : { restored: durable.scheduler.restored }),
            },
      demo: options.demo,
      heartbeatMs: options.heartbeatMs,
      execSandbox: options.execSandbox,
      secretsTokens: secrets.service.lookupToken,
      join: options.join,
      advertise: options.advertise,
      regionsStore: durable?.regions,
      // members of a federation with ACLs share a management token: the first one of the file
      regionsToken: config?.tokens.find((token) => token.management)?.secret,
      // the web console at /ui/, which reaches the other two listeners through this one
      routes: (app) =>
        registerConsole(app, {
          acl: acl.enabled,
          upstreams: { secrets: () => secrets.url, mesh: () => started.mesh?.url },
        }),
    });
    started.scheduler = scheduler;
    const mesh = await startMeshService({
      host,
      port: options.meshPort ?? 0,
      maxBody,
      localOnly,
      faults,
      acl,
      datacenter: options.datacenter,
      heartbeatMs: options.heartbeatMs,
      stateFile: options.meshStateFile,
      store: options.meshStateFile === undefined ? durable?.mesh : undefined,
      cleanupMs: options.meshCleanupMs,
    });
    started.mesh = mesh;
    let closed: Promise<void> | undefined;
    const { seed, reset } = createServerSeed({
      scheduler: scheduler.seed,
      secrets: secrets.service,
      mesh: mesh.service,
      acl,
    });
    const server: RunningServer = {
      scheduler: {
        url: scheduler.url,
        app: scheduler.app,
        cluster: scheduler.cluster,
        regions: { list: () => scheduler.regions.table.regions(), synced: () => scheduler.regions.synced() },
      },
      secrets: {
        url: secrets.url,
        app: secrets.app,
        rootToken: secrets.rootToken,
        rootTokenGenerated: secrets.rootTokenGenerated,
        mountPath: secrets.service.mountPath,
      },
      mesh: { url: mesh.url, app: mesh.app, service: mesh.service },
      acl: acl.enabled
        ? {
            enabled: true,
            managementName: acl.managementName,
            ...(bootstrapSecret === undefined ? {} : { bootstrapSecret }),
          }
        : { enabled: false },
      close() {
        closed ??= (async () => {
          await Promise.all([scheduler.close(), secrets.close(), mesh.close()]);
          durable?.close();
        })();
        return closed;
      },
      faults,
      seed,
      async reset() {
        faults.clear();
        await reset();
      },
      env: serverEnv({ scheduler, secrets, mesh, bootstrapSecret }),
      [Symbol.asyncDispose]: () => server.close(),
    };
    return server;
  } catch (error) {
    await stopStarted(started, durable);
    throw error;
  }
}

export { AclConfigError };
