/**
 * What `startServer()` adds for tests on top of the listeners: seeding, reset, fault injection,
 * the environment for child processes, and `await using`.
 */
import type { ServerFaults } from '../http/faults.js';
import type { ServerSeed } from './seed.js';

/** The test-fixture side of a running server. */
export interface ServerFixture extends AsyncDisposable {
  /** Fault injection on the three listeners (status, latency, cut connections, no leader). */
  readonly faults: ServerFaults;
  /** Seeding from code: jobs (JSON or HCL), ACL tokens, the LDAP configuration, groups, users. */
  readonly seed: ServerSeed;
  /**
   * Back to the state at start, between tests: every fault removed and the leader back, every job
   * purged (and the demo jobs registered again with `demo`), volumes deregistered, seeded ACL tokens
   * gone, the LDAP configuration, groups, users and issued tokens gone, peerings deleted.
   */
  reset(): Promise<void>;
  /**
   * The environment that points the clients and the `sked` CLI at this server: `SKED_ADDR`,
   * `SKED_SECRETS_ADDR`, `SKED_SECRETS_TOKEN` (the root token), `SKED_MESH_ADDR`, and `SKED_TOKEN`
   * when ACLs are on with a generated bootstrap token. Spread it into a child process's `env`.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Closes the server (`await using server = await startServer()`). */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The environment variables of {@link ServerFixture.env}.
 * @param parts - The listeners' URLs, the secrets root token, the generated ACL secret.
 * @returns The variables.
 */
export function serverEnv(parts: {
  readonly scheduler: { readonly url: string };
  readonly secrets: { readonly url: string; readonly rootToken: string };
  readonly mesh: { readonly url: string };
  readonly bootstrapSecret: string | undefined;
}): Readonly<Record<string, string>> {
  return Object.freeze({
    SKED_ADDR: parts.scheduler.url,
    SKED_SECRETS_ADDR: parts.secrets.url,
    SKED_SECRETS_TOKEN: parts.secrets.rootToken,
    SKED_MESH_ADDR: parts.mesh.url,
    ...(parts.bootstrapSecret === undefined ? {} : { SKED_TOKEN: parts.bootstrapSecret }),
  });
}
