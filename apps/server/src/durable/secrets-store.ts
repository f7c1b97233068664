import type { DatabaseSync } from 'node:sqlite';

import type { LdapSettings } from '../secrets/config.js';
import type {
  GroupRecord,
  RecordTable,
  SecretsStore,
  TokenRecord,
  TokenTable,
  UserRecord,
} from '../secrets/store.js';
import { recordSpace, type RecordSpace } from './records.js';

function durableTable<T>(space: RecordSpace): RecordTable<T> {
  const items = new Map<string, T>(space.entries() as [string, T][]);
  let sorted: readonly string[] | undefined;
  return {
    get: (name) => items.get(name),
    put(name, record) {
      space.put(name, record);
      if (!items.has(name)) sorted = undefined;
      items.set(name, record);
    },
    delete(name) {
      if (!items.has(name)) return false;
      space.delete(name);
      items.delete(name);
      sorted = undefined;
      return true;
    },
    keys() {
      sorted ??= [...items.keys()].sort();
      return sorted;
    },
  };
}

function durableTokens(space: RecordSpace): TokenTable {
  const items = new Map<string, TokenRecord>(space.entries() as [string, TokenRecord][]);
  return {
    get: (hash) => items.get(hash),
    put(record) {
      space.put(record.hash, record);
      items.set(record.hash, record);
    },
    delete(hash) {
      if (!items.has(hash)) return;
      space.delete(hash);
      items.delete(hash);
    },
    sweep(nowMs) {
      let removed = 0;
      for (const [hash, record] of items) {
        if (record.expiresMs > nowMs) continue;
        space.delete(hash);
        items.delete(hash);
        removed++;
      }
      return removed;
    },
    get size() {
      return items.size;
    },
  };
}

/**
 * The secrets service's store on a data dir (the same interface as its memory store): the LDAP
 * configuration, groups, users and issued tokens, restored at open; every write is committed to
 * SQLite before it returns. Tokens are kept as the secrets store keeps them: by the SHA-256 of
 * their secret, which is never stored.
 * @param db - The data dir's database.
 * @returns the store.
 */
export function createDurableSecretsStore(db: DatabaseSync): SecretsStore {
  const config = recordSpace(db, 'secrets.config');
  let settings = config.entries().find(([k]) => k === 'ldap')?.[1] as LdapSettings | undefined;
  return {
    readConfig: () => settings,
    writeConfig(next) {
      config.put('ldap', next);
      settings = next;
    },
    groups: durableTable<GroupRecord>(recordSpace(db, 'secrets.groups')),
    users: durableTable<UserRecord>(recordSpace(db, 'secrets.users')),
    tokens: durableTokens(recordSpace(db, 'secrets.tokens')),
  };
}
