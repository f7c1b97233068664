import type { DatabaseSync } from 'node:sqlite';

import { createMemoryPeeringStore, type PeeringSnapshot, type PeeringStore } from '../mesh/store.js';
import { recordSpace } from './records.js';

/**
 * The mesh service's peering store on a data dir: the memory store, started from the stored
 * snapshot and saving the whole snapshot (cluster ID, index, peerings with their secrets) in one
 * SQLite transaction after every write, before the write returns. Peerings are few and change
 * rarely; heartbeats are not in the store.
 * @param db - The data dir's database.
 * @returns the store.
 */
export function createDurablePeeringStore(db: DatabaseSync): PeeringStore {
  const space = recordSpace(db, 'mesh');
  const initial = space.entries().find(([k]) => k === 'snapshot')?.[1] as PeeringSnapshot | undefined;
  return createMemoryPeeringStore({
    initial,
    onWrite: (snapshot) => space.put('snapshot', snapshot),
  });
}
