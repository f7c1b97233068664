import type { Peering } from '@sked/model';
import type { StoredPeering } from './store.js';
import type { StreamTimes } from './streams.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The record as read and listed: every field of the spec's peering record, the stream times
 * merged in, and none of the server's secrets.
 * @param peering - The stored peering.
 * @param times - Its stream times.
 * @returns The wire record.
 */
export function toWire(peering: StoredPeering, times: StreamTimes): Peering {
  return {
    ID: peering.ID,
    Name: peering.Name,
    State: peering.State,
    Partition: peering.Partition,
    PeerID: peering.PeerID,
    PeerServerName: peering.PeerServerName,
    PeerServerAddresses: peering.PeerServerAddresses === null ? null : [...peering.PeerServerAddresses],
    Meta: peering.Meta === null ? null : { ...peering.Meta },
    StreamStatus: {
      ImportedServices: null,
      ExportedServices: [],
      LastHeartbeat: iso(times.lastHeartbeat),
      LastReceive: iso(times.lastReceive),
      LastSend: iso(times.lastSend),
    },
    Remote: { Partition: peering.Remote.Partition, Datacenter: peering.Remote.Datacenter },
    DeletedAt: peering.DeletedAt,
    CreateIndex: peering.CreateIndex,
    ModifyIndex: peering.ModifyIndex,
  };
}
