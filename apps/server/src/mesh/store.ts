import { randomUUID } from 'node:crypto';
import type { PeeringState } from '@sked/model';

/** Which side of the peering this server is: it generated the token, or it established with one. */
export type PeeringRole = 'acceptor' | 'dialer';

/** A peering as the store keeps it: the wire record's durable fields plus the server's secrets. */
export interface StoredPeering {
  /** Peering ID (UUID) on this side. */
  readonly ID: string;
  /** Name of the peer. */
  readonly Name: string;
  /** Partition (always `default`). */
  readonly Partition: string;
  /** INITIAL, ACTIVE or TERMINATED. */
  readonly State: PeeringState;
  /** ID of the peering on the other side; `""` until established. */
  readonly PeerID: string;
  /** Server name of the other side; `""` until established. */
  readonly PeerServerName: string;
  /** Addresses of the other side; `null` until established. */
  readonly PeerServerAddresses: readonly string[] | null;
  /** Metadata given at generation or establishment. */
  readonly Meta: Readonly<Record<string, string>> | null;
  /** Partition and datacenter of the other side (empty until established). */
  readonly Remote: { readonly Partition: string; readonly Datacenter: string };
  /** When the peering was deleted (ISO 8601), or null. */
  readonly DeletedAt: string | null;
  /** Index of the write that created it. */
  readonly CreateIndex: number;
  /** Index of its last write. */
  readonly ModifyIndex: number;
  /** Which side this server is. */
  readonly role: PeeringRole;
  /** Acceptor: the unused establishment secret of the last token, or null once used. Never on the wire. */
  readonly establishmentSecret: string | null;
  /** The secret the dialer presents to open the stream; null before establishment. Never on the wire. */
  readonly streamSecret: string | null;
}

/** What a write gives the store: everything but the indexes, which the store assigns. */
export type PeeringDraft = Omit<StoredPeering, 'CreateIndex' | 'ModifyIndex'>;

/** Everything a store holds, in the form a durable implementation saves and loads. */
export interface PeeringSnapshot {
  /** Random ID of this server's cluster (names it in tokens). */
  readonly clusterId: string;
  /** The store's index. */
  readonly index: number;
  /** Every peering. */
  readonly peerings: readonly StoredPeering[];
}

/**
 * The peering table. Every write takes the next index; the records are immutable values, so a
 * reader never sees half a write. A durable implementation (SQLite, a file) keeps the same contract.
 */
export interface PeeringStore {
  /** Random ID of this server's cluster, stable across restarts of a durable store. */
  readonly clusterId: string;
  /** Index of the last write (at least 1). */
  readonly index: number;
  /** Number of peerings held (any state). */
  readonly size: number;
  /**
   * The peering of a name.
   * @param partition - Partition.
   * @param name - Peer name.
   */
  get(partition: string, name: string): StoredPeering | undefined;
  /**
   * The peering of an ID (this side's ID).
   * @param id - Peering ID.
   */
  getById(id: string): StoredPeering | undefined;
  /**
   * Every peering of a partition, ordered by name.
   * @param partition - Partition.
   */
  list(partition: string): readonly StoredPeering[];
  /**
   * Creates or replaces the peering of `draft.Name` (keeping `CreateIndex` when the ID is the same).
   * @param draft - The new value.
   * @returns The stored value with its indexes.
   */
  put(draft: PeeringDraft): StoredPeering;
  /**
   * Removes a peering.
   * @param partition - Partition.
   * @param name - Peer name.
   * @returns Whether it existed.
   */
  remove(partition: string, name: string): boolean;
}

/** Options of {@link createMemoryPeeringStore}. */
export interface MemoryPeeringStoreOptions {
  /** State to start from (a durable implementation's load). */
  readonly initial?: PeeringSnapshot | undefined;
  /** Called after every write with the whole state (a durable implementation's save). */
  readonly onWrite?: ((snapshot: PeeringSnapshot) => void) | undefined;
}

const key = (partition: string, name: string): string => `${partition}\u0000${name}`;

/**
 * Creates the in-memory peering store.
 * @param options - Initial state and a write hook.
 * @returns The store.
 */
export function createMemoryPeeringStore(options: MemoryPeeringStoreOptions = {}): PeeringStore {
  const byName = new Map<string, StoredPeering>();
  const byId = new Map<string, StoredPeering>();
  const clusterId = options.initial?.clusterId ?? randomUUID();
  let index = Math.max(1, options.initial?.index ?? 1);
  let sorted: readonly StoredPeering[] | undefined;
  for (const peering of options.initial?.peerings ?? []) {
    byName.set(key(peering.Partition, peering.Name), peering);
    byId.set(peering.ID, peering);
  }
  const written = (): void => {
    sorted = undefined;
    options.onWrite?.({ clusterId, index, peerings: [...byName.values()] });
  };
  return {
    clusterId,
    get index() {
      return index;
    },
    get size() {
      return byName.size;
    },
    get: (partition, name) => byName.get(key(partition, name)),
    getById: (id) => byId.get(id),
    list(partition) {
      sorted ??= [...byName.values()].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
      return sorted.filter((peering) => peering.Partition === partition);
    },
    put(draft) {
      const k = key(draft.Partition, draft.Name);
      const previous = byName.get(k);
      index += 1;
      const stored: StoredPeering = {
        ...draft,
        CreateIndex: previous !== undefined && previous.ID === draft.ID ? previous.CreateIndex : index,
        ModifyIndex: index,
      };
      if (previous !== undefined) byId.delete(previous.ID);
      byName.set(k, stored);
      byId.set(stored.ID, stored);
      written();
      return stored;
    },
    remove(partition, name) {
      const k = key(partition, name);
      const previous = byName.get(k);
      if (previous === undefined) return false;
      byName.delete(k);
      byId.delete(previous.ID);
      index += 1;
      written();
      return true;
    },
  };
}
