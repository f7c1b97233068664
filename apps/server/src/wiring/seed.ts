/**
 * Seeding a running server from code (`server.seed`) and resetting it between tests
 * (`server.reset()`). Every seed goes through the service's own path: jobs through the register
 * endpoint's (`scheduler/seed.ts`), LDAP configuration, groups and users through the LDAP method's
 * writes with the routes' name check, ACL tokens through the token file's parser. Bad input throws
 * a {@link SeedError} that says which seed call failed and why, and stores nothing.
 */
import { HttpError } from '../http/errors.js';
import type { MeshService } from '../mesh/index.js';
import {
  AclConfigError,
  createAcl,
  parseAclConfig,
  type Acl,
  type AclConfig,
} from '../scheduler/acl/index.js';
import { ClusterError } from '../scheduler/core/index.js';
import type { SchedulerSeeder, SeedJobOptions, SeededJob } from '../scheduler/seed.js';
import { checkRecordName, DEFAULT_LDAP_SETTINGS, type SecretsService } from '../secrets/index.js';

const seedErrorBrand = Symbol.for('@sked/server/SeedError');

/** Seed input the server refused: `call` names the seed call, the message says what was wrong. */
export class SeedError extends Error {
  /** Literal class name. */
  override readonly name = 'SeedError' as const;
  /** The seed call that failed (`seed.job`, `seed.ldapUser("alice")`, ...). */
  readonly call: string;
  /** The status the matching HTTP endpoint would have answered, when there is one. */
  readonly status: number | undefined;
  readonly [seedErrorBrand] = true;

  /**
   * @param call - The seed call that failed.
   * @param message - What was wrong (the endpoint's own message).
   * @param options - `status`, and the original error as `cause`.
   */
  constructor(call: string, message: string, options: ErrorOptions & { status?: number } = {}) {
    super(`${call}: ${message}`, options);
    this.call = call;
    this.status = options.status;
  }

  /**
   * Whether a value is a {@link SeedError}, across copies of the package.
   * @param value - Anything.
   * @returns True for a {@link SeedError}.
   */
  static is(value: unknown): value is SeedError {
    return typeof value === 'object' && value !== null && seedErrorBrand in value;
  }
}

/** A group of the LDAP auth method, as its endpoint takes it. */
export interface SeedLdapGroup {
  /** Policies: a list, or a comma-separated string. */
  readonly policies?: string | readonly string[] | undefined;
}

/** A user of the LDAP auth method, as its endpoint takes it. */
export interface SeedLdapUser extends SeedLdapGroup {
  /** Groups mapped locally: a list, or a comma-separated string. */
  readonly groups?: string | readonly string[] | undefined;
}

/** Seeding a running server from code (`server.seed`). */
export interface ServerSeed {
  /**
   * Registers a job as `POST /v1/jobs` does: a Job object, a register body (`{"Job": ...}` with its
   * options), JSON text of either, or HCL text (parsed as `POST /v1/jobs/parse` with
   * `Canonicalize`).
   * @throws {@link SeedError} naming the field or problem (the endpoint's 400 message).
   */
  job(input: unknown, options?: SeedJobOptions): Promise<SeededJob>;
  /** Registers several jobs in order (stopping at the first that fails). */
  jobs(inputs: readonly unknown[], options?: SeedJobOptions): Promise<SeededJob[]>;
  /**
   * Adds ACL tokens, in the token file's form (`{"name", "secret", "management", "namespaces",
   * "node", "peering"}`), to the scheduling and mesh services. Needs a server started with ACLs.
   * @throws {@link SeedError} for an invalid token (the file's messages) or when ACLs are off.
   */
  aclTokens(tokens: readonly unknown[]): void;
  /**
   * Writes the LDAP auth method's configuration as `POST /v1/auth/<mount>/config` does (merged into
   * the stored one; parameters as the endpoint takes them: `url`, `binddn`, `bindpass`, `userdn`,
   * `userattr`, `groupdn`, `groupfilter`, ...).
   */
  ldapConfig(config: Readonly<Record<string, unknown>>): void;
  /** Creates or replaces an LDAP group (its policies), as `POST /v1/auth/<mount>/groups/:name`. */
  ldapGroup(name: string, group?: SeedLdapGroup): void;
  /** Creates or replaces an LDAP user (policies, local groups), as `POST /v1/auth/<mount>/users/:name`. */
  ldapUser(name: string, user?: SeedLdapUser): void;
}

/** An ACL whose tokens seeding can add to, and reset can restore. */
export interface SeedableAcl extends Acl {
  /** Adds tokens (file form); throws the file parser's AclConfigError. */
  addTokens(tokens: readonly unknown[]): void;
  /** Back to the tokens the server started with. */
  restore(): void;
}

/**
 * Wraps the server's ACL so that seeding can add tokens (checked by the token file's parser,
 * names and secrets unique across old and new) and a reset can restore the start's.
 * @param config - The ACL configuration at start (undefined: ACLs off).
 * @returns The ACL, to hand to the services.
 */
export function createSeedableAcl(config: AclConfig | undefined): SeedableAcl {
  let current = config;
  let acl = createAcl(config);
  return {
    enabled: acl.enabled,
    get managementName() {
      return acl.managementName;
    },
    resolve: (secret) => acl.resolve(secret),
    addTokens(tokens) {
      if (current === undefined) {
        throw new AclConfigError(
          'ACLs are off: start the server with acl: true (or aclConfig, aclTokens) to seed tokens',
        );
      }
      const offset = current.tokens.length;
      parseAclConfig({ tokens }); // each new token's own problems, with its own index
      let next: AclConfig;
      try {
        next = parseAclConfig({ tokens: [...current.tokens, ...tokens] });
      } catch (error) {
        if (!AclConfigError.is(error)) throw error;
        const message = error.message.replace(
          /^tokens\[(\d+)\]/,
          (_all, i: string) => `tokens[${Number(i) - offset}]`,
        );
        throw new AclConfigError(message);
      }
      current = next;
      acl = createAcl(next);
    },
    restore() {
      current = config;
      acl = createAcl(config);
    },
  };
}

/** Runs a seed call, turning the service's own errors into a {@link SeedError}. */
async function attempt<T>(call: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (HttpError.is(error) || ClusterError.is(error)) {
      throw new SeedError(call, error.message, { status: error.status, cause: error });
    }
    if (AclConfigError.is(error)) throw new SeedError(call, error.message, { cause: error });
    throw error;
  }
}

function attemptSync<T>(call: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (HttpError.is(error)) throw new SeedError(call, error.message, { status: error.status, cause: error });
    if (AclConfigError.is(error)) throw new SeedError(call, error.message, { cause: error });
    throw error;
  }
}

/** What {@link createServerSeed} works on: the running services' parts. */
export interface SeedTargets {
  readonly scheduler: SchedulerSeeder;
  readonly secrets: SecretsService;
  readonly mesh: MeshService;
  readonly acl: SeedableAcl;
}

/**
 * Creates `server.seed` and `server.reset()`.
 * @param targets - The services' seeders and stores.
 * @returns The seed calls, and the reset.
 */
export function createServerSeed(targets: SeedTargets): { seed: ServerSeed; reset: () => Promise<void> } {
  const { scheduler, secrets, acl } = targets;
  const idOf = (input: unknown): string => {
    const job = (input as { Job?: { ID?: unknown }; ID?: unknown } | null) ?? {};
    const id = typeof job === 'object' ? (job.Job?.ID ?? job.ID) : undefined;
    return typeof id === 'string' ? `seed.job(${JSON.stringify(id)})` : 'seed.job';
  };
  const seed: ServerSeed = {
    job: (input, options) => attempt(idOf(input), () => scheduler.job(input, options)),
    async jobs(inputs, options) {
      const out: SeededJob[] = [];
      for (const input of inputs) out.push(await seed.job(input, options));
      return out;
    },
    aclTokens: (tokens) => attemptSync('seed.aclTokens', () => acl.addTokens(tokens)),
    ldapConfig: (config) => attemptSync('seed.ldapConfig', () => secrets.method.writeConfig(config)),
    ldapGroup(name, group = {}) {
      const call = `seed.ldapGroup(${JSON.stringify(name)})`;
      attemptSync(call, () => secrets.method.writeGroup(checkRecordName('name', name), group));
    },
    ldapUser(name, user = {}) {
      const call = `seed.ldapUser(${JSON.stringify(name)})`;
      attemptSync(call, () => secrets.method.writeUser(checkRecordName('name', name), user));
    },
  };
  const reset = async (): Promise<void> => {
    acl.restore();
    const { method, store } = secrets;
    for (const kind of ['groups', 'users'] as const) {
      for (const name of method.list(kind)) (kind === 'groups' ? store.groups : store.users).delete(name);
    }
    if (store.readConfig() !== undefined) store.writeConfig(DEFAULT_LDAP_SETTINGS);
    store.tokens.sweep(Number.POSITIVE_INFINITY);
    for (const peering of targets.mesh.list()) targets.mesh.remove(peering.Name);
    await scheduler.reset();
  };
  return { seed, reset };
}
