/**
 * Storage of the secrets service: the LDAP configuration, group and user records, and issued
 * tokens. Behind a small synchronous interface so that a durable implementation (SQLite through
 * `node:sqlite`, which is synchronous too) can replace the in-memory one without touching the
 * routes. Tokens are stored by the SHA-256 of their secret, never by the secret itself.
 */
import type { LdapSettings } from './config.js';

/** A group mapped to policies. */
export interface GroupRecord {
  /** Policy names. */
  readonly policies: readonly string[];
}

/** A user mapped to policies and local groups. */
export interface UserRecord {
  /** Policy names. */
  readonly policies: readonly string[];
  /** Names of local groups. */
  readonly groups: readonly string[];
}

/** An issued token (without its secret). */
export interface TokenRecord {
  /** SHA-256 of the secret, hex: the key. */
  readonly hash: string;
  /** Policies, sorted. */
  readonly policies: readonly string[];
  /** Metadata (`username`). */
  readonly meta: Readonly<Record<string, string>>;
  /** `ldap-<username>`. */
  readonly displayName: string;
  /** Login path, `auth/ldap/login/<username>`. */
  readonly path: string;
  /** Creation, Unix milliseconds. */
  readonly createdMs: number;
  /** Expiry, Unix milliseconds. */
  readonly expiresMs: number;
  /** TTL at creation, seconds. */
  readonly creationTtl: number;
  /** Hard cap, seconds (0 = none). */
  readonly explicitMaxTtl: number;
  /** Period, seconds (0 = not periodic). */
  readonly period: number;
  /** Uses left; 0 = unlimited. */
  readonly numUses: number;
  /** CIDR blocks the token may be used from (empty = anywhere). */
  readonly boundCidrs: readonly string[];
  /** `service` or `batch`. */
  readonly type: 'service' | 'batch';
  /** Whether it can be renewed. */
  readonly renewable: boolean;
}

/** A table of named records. */
export interface RecordTable<T> {
  /** The record of a name, or undefined. */
  get(name: string): T | undefined;
  /** Creates or replaces a record. */
  put(name: string, record: T): void;
  /** Removes a record; true when it existed. */
  delete(name: string): boolean;
  /** Every name, sorted (code-unit order). */
  keys(): readonly string[];
}

/** Issued tokens. */
export interface TokenTable {
  /** The token of a hash, or undefined. */
  get(hash: string): TokenRecord | undefined;
  /** Stores (or replaces) a token. */
  put(record: TokenRecord): void;
  /** Removes a token. */
  delete(hash: string): void;
  /** Removes every token expired at `nowMs`; returns how many. */
  sweep(nowMs: number): number;
  /** Number of tokens held. */
  readonly size: number;
}

/** Everything the secrets service stores. */
export interface SecretsStore {
  /** The stored LDAP configuration, or undefined before the first write. */
  readConfig(): LdapSettings | undefined;
  /** Replaces the LDAP configuration. */
  writeConfig(settings: LdapSettings): void;
  /** Groups by name. */
  readonly groups: RecordTable<GroupRecord>;
  /** Users by name. */
  readonly users: RecordTable<UserRecord>;
  /** Issued tokens. */
  readonly tokens: TokenTable;
}

function memoryTable<T>(): RecordTable<T> {
  const items = new Map<string, T>();
  let sorted: readonly string[] | undefined;
  return {
    get: (name) => items.get(name),
    put(name, record) {
      if (!items.has(name)) sorted = undefined;
      items.set(name, record);
    },
    delete(name) {
      const had = items.delete(name);
      if (had) sorted = undefined;
      return had;
    },
    keys() {
      sorted ??= [...items.keys()].sort();
      return sorted;
    },
  };
}

function memoryTokens(): TokenTable {
  const items = new Map<string, TokenRecord>();
  return {
    get: (hash) => items.get(hash),
    put: (record) => void items.set(record.hash, record),
    delete: (hash) => void items.delete(hash),
    sweep(nowMs) {
      let removed = 0;
      for (const [hash, record] of items) {
        if (record.expiresMs <= nowMs) {
          items.delete(hash);
          removed++;
        }
      }
      return removed;
    },
    get size() {
      return items.size;
    },
  };
}

/**
 * An in-memory {@link SecretsStore} (the server's default: nothing survives a restart).
 * @returns A fresh, empty store.
 */
export function createMemorySecretsStore(): SecretsStore {
  let config: LdapSettings | undefined;
  return {
    readConfig: () => config,
    writeConfig(settings) {
      config = settings;
    },
    groups: memoryTable<GroupRecord>(),
    users: memoryTable<UserRecord>(),
    tokens: memoryTokens(),
  };
}
