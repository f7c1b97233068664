/**
 * The LDAP auth method's operations, independent of HTTP: configuration, group and user records,
 * and login (directory check, policies, token).
 */
import type { LdapSettings } from './config.js';
import { DEFAULT_SETTINGS, applyConfigWrite } from './config.js';
import { authenticate } from './directory.js';
import { listParam, paramSet, readParams } from './params.js';
import type { GroupRecord, SecretsStore, UserRecord } from './store.js';
import { addressAllowed, issueToken } from './tokens.js';
import type { TokenRecord } from './store.js';

/** The parameters of a group write and of a user write (a `null` list counts as not sent). */
const GROUP_WRITE = paramSet([listParam('policies')]);
const USER_WRITE = paramSet([listParam('policies'), listParam('groups')]);

/** A list parameter's decoded items (none when not sent). */
const items = (values: ReadonlyMap<string, unknown>, name: string): string[] =>
  (values.get(name) as string[] | undefined) ?? [];

/** The result of a successful login. */
export interface LoginResult {
  /** The token secret (returned once, in the login's answer). */
  readonly secret: string;
  /** The stored token. */
  readonly token: TokenRecord;
  /** Warnings for the envelope (for example: no group found). */
  readonly warnings: readonly string[];
  /** The user's name as the directory holds it (policies, token name and metadata use it). */
  readonly username: string;
}

/** Why a login was refused before or after the directory. */
export class LoginRefused extends Error {
  /** Literal class name. */
  override readonly name = 'LoginRefused' as const;
  /** 400 (directory said no) or 403 (address outside `token_bound_cidrs`). */
  readonly status: 400 | 403;
  /**
   * @param status - HTTP status.
   * @param message - The message.
   */
  constructor(status: 400 | 403, message: string) {
    super(message);
    this.status = status;
  }
}

/** The method over a store. */
export interface LdapMethod {
  /** The current settings (defaults before the first write). */
  settings(): LdapSettings;
  /** Merges a configuration write; nothing is stored when it throws. */
  writeConfig(body: unknown): void;
  /** Names of groups or users, sorted. */
  list(kind: 'groups' | 'users'): readonly string[];
  /** A group, or undefined. */
  readGroup(name: string): GroupRecord | undefined;
  /** Creates or replaces a group from a request body. */
  writeGroup(name: string, body: unknown): void;
  /** A user, or undefined. */
  readUser(name: string): UserRecord | undefined;
  /** Creates or replaces a user from a request body. */
  writeUser(name: string, body: unknown): void;
  /** Deletes a group or user (absent: nothing happens). */
  remove(kind: 'groups' | 'users', name: string): void;
  /** Logs a user in; `signal` aborts it (and closes its directory connections) when the caller goes. */
  login(
    username: string,
    password: string,
    address: string | undefined,
    signal?: AbortSignal,
  ): Promise<LoginResult>;
  /** The key a name is stored under (lower case unless `case_sensitive_names`). */
  key(name: string): string;
}

/**
 * Creates the method's operations over a store.
 * @param store - Where everything is kept.
 * @param mountPath - Where the method is mounted (`auth/ldap`), for the tokens' `path`.
 * @param now - The clock (Unix milliseconds).
 * @returns The operations.
 */
export function createLdapMethod(
  store: SecretsStore,
  mountPath = 'auth/ldap',
  now: () => number = Date.now,
): LdapMethod {
  const settings = (): LdapSettings => store.readConfig() ?? DEFAULT_SETTINGS;
  const key = (name: string): string => (settings().case_sensitive_names ? name : name.toLowerCase());
  const lower = (names: readonly string[]): string[] =>
    settings().case_sensitive_names ? [...names] : names.map((n) => n.toLowerCase());

  return {
    settings,
    key,
    writeConfig(body) {
      store.writeConfig(applyConfigWrite(settings(), body));
    },
    list: (kind) => (kind === 'groups' ? store.groups : store.users).keys(),
    readGroup: (name) => store.groups.get(key(name)),
    writeGroup(name, body) {
      const policies = items(readParams(GROUP_WRITE, body), 'policies');
      store.groups.put(key(name), { policies: policies.sort() });
    },
    readUser: (name) => store.users.get(key(name)),
    writeUser(name, body) {
      const values = readParams(USER_WRITE, body);
      store.users.put(key(name), {
        policies: items(values, 'policies').sort(),
        groups: items(values, 'groups'),
      });
    },
    remove(kind, name) {
      (kind === 'groups' ? store.groups : store.users).delete(key(name));
    },
    async login(username, password, address, signal) {
      const config = settings();
      if (!addressAllowed(config.token_bound_cidrs, address)) {
        throw new LoginRefused(403, 'permission denied');
      }
      const directory = await authenticate(config, username, password, signal);
      // Policies follow the directory's name for the user, never the raw input: LDAP matched
      // "bob " to bob, so "bob " must get bob's policies and name, not a stranger's.
      if (directory.name === undefined && username.trim() !== username) {
        throw new LoginRefused(400, 'invalid username: leading or trailing spaces are not allowed');
      }
      const name = directory.name ?? username;
      const user = store.users.get(key(name));
      const groupNames = new Set(lower([...(user?.groups ?? []), ...directory.groups]));
      const policies = new Set<string>(config.token_policies);
      for (const name of groupNames) for (const p of store.groups.get(name)?.policies ?? []) policies.add(p);
      for (const p of user?.policies ?? []) policies.add(p);
      if (!config.token_no_default_policy) policies.add('default');
      const { secret, record } = issueToken(
        store.tokens,
        config,
        { policies: [...policies].sort(), username: name, mountPath },
        now(),
      );
      const warnings =
        directory.groups.length === 0 && config.groupdn !== ''
          ? [
              `no LDAP groups found in groupDN ${JSON.stringify(config.groupdn)}; only policies from locally-defined groups available`,
            ]
          : [];
      return { secret, token: record, warnings, username: name };
    },
  };
}
