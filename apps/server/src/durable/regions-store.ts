import type { DatabaseSync } from 'node:sqlite';

import type { MemberRecord, MemberStore } from '../scheduler/regions/index.js';
import { recordSpace } from './records.js';

/**
 * The federation's member store on a data dir: one record per other member (keyed by region name,
 * checked names only), replaced whole in one SQLite transaction when a member is added or moves.
 * Loaded records are checked again by the membership table, which skips any that no longer read.
 * @param db - The data dir's database.
 * @returns the store.
 */
export function createDurableMemberStore(db: DatabaseSync): MemberStore {
  const space = recordSpace(db, 'regions');
  return {
    load: () => space.entries().map(([, value]) => value),
    save(records: readonly MemberRecord[]) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const keep = new Set(records.map((record) => record.Region));
        for (const [key] of space.entries()) if (!keep.has(key)) space.delete(key);
        for (const record of records) space.put(record.Region, record);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
  };
}
