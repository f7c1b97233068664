/**
 * The secrets service built (routes registered), not listening yet: see ./start.ts.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createSecretsHttpApp } from './app.js';
import { createLdapMethod, type LdapMethod } from './method.js';
import { registerSecretsRoutes } from './routes.js';
import { createMemorySecretsStore, type SecretsStore } from './store.js';
import { hashToken, lookupToken, type TokenLookup } from './tokens.js';

/** Options of {@link createSecretsService}. */
export interface SecretsServiceOptions {
  /** The root token; generated (and reported in `generatedRootToken`) when absent. */
  readonly rootToken?: string;
  /** Mount name under `auth/` (`ldap`; an `auth/` prefix is accepted). @defaultValue `ldap` */
  readonly mount?: string;
  /** Largest accepted body. @defaultValue 1048576 */
  readonly maxBody?: number;
  /** The store. @defaultValue a fresh in-memory store */
  readonly store?: SecretsStore;
  /** The clock, Unix milliseconds. @defaultValue `Date.now` */
  readonly now?: () => number;
}

/** The secrets service, ready to listen. */
export interface SecretsService {
  /** The fastify instance (routes registered). */
  readonly app: FastifyInstance;
  /** The store. */
  readonly store: SecretsStore;
  /** The method's operations. */
  readonly method: LdapMethod;
  /** The mount path, `auth/ldap`. */
  readonly mountPath: string;
  /** The root token when it was generated here (print it once); undefined when given. */
  readonly generatedRootToken: string | undefined;
  /**
   * Looks up a token handed to another service (a job's `SecretsToken`) without using it.
   * @param secret - The token.
   * @returns Its policies (`root` for the root token), or `expired` / `unknown`.
   */
  readonly lookupToken: (secret: string) => TokenLookup;
  /** Stops the expired-token sweeper. */
  stop(): void;
}

/**
 * Checks a mount name.
 * @param mount - `ldap`, `corp-ldap`, `auth/ldap`, `teams/ldap`.
 * @returns The mount path (`auth/<name>`), or a message saying what is wrong.
 */
export function parseMount(mount: string): { path: string } | { error: string } {
  const name = mount.replace(/^\/+|\/+$/g, '').replace(/^auth\//, '');
  if (
    !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(name) ||
    name.split('/').some((s) => s === '.' || s === '..')
  ) {
    return {
      error: `--ldap-mount expects a path of letters, digits, "-", "_", "." and "/", not ${JSON.stringify(mount)}`,
    };
  }
  if (name === 'token') return { error: '--ldap-mount cannot be "token": auth/token is the token store' };
  return { path: `auth/${name}` };
}

/**
 * Builds the secrets service (not listening yet).
 * @param options - Root token, mount, body limit, store, clock.
 * @returns The service.
 * @throws Error for an invalid mount or an empty root token.
 */
export function createSecretsService(options: SecretsServiceOptions = {}): SecretsService {
  const mount = parseMount(options.mount ?? 'ldap');
  if ('error' in mount) throw new Error(mount.error);
  if (options.rootToken !== undefined && options.rootToken.trim() === '')
    throw new Error('the secrets root token is empty');
  const generatedRootToken =
    options.rootToken === undefined ? `sks.${randomBytes(24).toString('base64url')}` : undefined;
  const rootToken = options.rootToken ?? (generatedRootToken as string);
  const store = options.store ?? createMemorySecretsStore();
  const now = options.now ?? Date.now;
  const method = createLdapMethod(store, mount.path, now);
  const app = createSecretsHttpApp(options.maxBody ?? 1024 * 1024);
  const rootTokenHash = hashToken(rootToken);
  registerSecretsRoutes(app, {
    method,
    tokens: store.tokens,
    rootTokenHash,
    mountPath: mount.path,
    now,
  });
  const sweeper = setInterval(() => store.tokens.sweep(now()), 60_000);
  sweeper.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
  return {
    app,
    store,
    method,
    mountPath: mount.path,
    generatedRootToken,
    lookupToken: (secret) => lookupToken(store.tokens, rootTokenHash, secret, now()),
    stop: () => clearInterval(sweeper),
  };
}
