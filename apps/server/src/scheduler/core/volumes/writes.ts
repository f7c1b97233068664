import type { Cluster } from '../api.js';
import type { CoreContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { clientTerminal } from '../internal/status.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { CsiVolume } from '../types.js';

/** The access modes of a CSI volume. */
export const ACCESS_MODES = [
  'single-node-reader-only',
  'single-node-writer',
  'multi-node-reader-only',
  'multi-node-single-writer',
  'multi-node-multi-writer',
];
/** The attachment modes of a CSI volume. */
export const ATTACHMENT_MODES = ['file-system', 'block-device'];

/** What the volume writes need from the rest of the core. */
export interface VolumeDeps {
  /** Blocked evaluations retry (capacity or claims freed). */
  readonly unblock: () => void;
}

/** The stored volume of one registration body (checked). */
function volumeOf(
  tx: Txn,
  raw: unknown,
  input: { namespace: string; pathId?: string | undefined; count: number },
): CsiVolume {
  const o = (raw ?? {}) as Record<string, unknown>;
  const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const id = str('ID');
  if (id === '') throw badRequest('Volume ID is required');
  if (input.pathId !== undefined && input.pathId !== '' && input.count === 1 && id !== input.pathId)
    throw badRequest(`Volume ID "${id}" does not match the volume ID in the path "${input.pathId}"`);
  const namespace = str('Namespace') !== '' ? str('Namespace') : input.namespace;
  const pluginId = str('PluginID');
  if (pluginId === '') throw badRequest(`Volume "${id}" is missing a PluginID`);
  const access = str('AccessMode');
  if (access !== '' && !ACCESS_MODES.includes(access))
    throw badRequest(`Volume "${id}" has an unknown AccessMode "${access}"`);
  const attach = str('AttachmentMode');
  if (attach !== '' && !ATTACHMENT_MODES.includes(attach))
    throw badRequest(`Volume "${id}" has an unknown AttachmentMode "${attach}"`);
  if (tx.get('volumes', jobKey(namespace, id))) throw badRequest(`volume "${id}" already exists`);
  const nodes = tx.all('nodes').length;
  return {
    ID: id,
    Name: str('Name') || id,
    ExternalID: str('ExternalID'),
    Namespace: namespace,
    Topologies: Array.isArray(o['Topologies']) ? (o['Topologies'] as Record<string, string>[]) : null,
    AccessMode: access || 'single-node-writer',
    AttachmentMode: attach || 'file-system',
    MountOptions: (o['MountOptions'] as Record<string, unknown> | undefined) ?? null,
    Secrets: (o['Secrets'] as Record<string, string> | undefined) ?? null,
    Parameters: (o['Parameters'] as Record<string, string> | undefined) ?? null,
    Context: (o['Context'] as Record<string, string> | undefined) ?? null,
    Capacity: typeof o['Capacity'] === 'number' ? o['Capacity'] : 0,
    RequestedCapabilities: Array.isArray(o['RequestedCapabilities']) ? o['RequestedCapabilities'] : null,
    Schedulable: true,
    PluginID: pluginId,
    Provider: pluginId,
    ProviderVersion: '1.0.0',
    Version: '',
    ControllerRequired: false,
    ControllersHealthy: 0,
    ControllersExpected: 0,
    NodesHealthy: nodes,
    NodesExpected: nodes,
    ResourceExhausted: 0,
    ReadAllocs: {},
    WriteAllocs: {},
    Allocations: [],
    Claims: {},
    CreateIndex: tx.index,
    ModifyIndex: tx.index,
  };
}

/** Whether the allocation holding a claim still runs on its client. */
function claimLive(tx: Txn, allocId: string): boolean {
  const a = tx.get('allocs', allocId);
  return a !== undefined && !clientTerminal(a);
}

/** Register, deregister and detach of CSI volumes, and the release of claims. */
export function createVolumeWrites(
  ctx: CoreContext,
  deps: VolumeDeps,
): Pick<Cluster, 'registerVolume' | 'deregisterVolume' | 'detachVolume'> & {
  readonly releaseClaims: (allocId: string) => void;
} {
  const { store } = ctx;

  const registerVolume: Cluster['registerVolume'] = (input) =>
    store.write((tx) => {
      if (input.volumes.length === 0) throw badRequest('No volumes to register');
      for (const raw of input.volumes)
        tx.put(
          'volumes',
          volumeOf(tx, raw, {
            namespace: input.namespace,
            pathId: input.pathId,
            count: input.volumes.length,
          }),
        );
      tx.after(deps.unblock);
      return { Index: tx.index };
    });

  const deregisterVolume: Cluster['deregisterVolume'] = (input) =>
    store.write((tx) => {
      const v = tx.get('volumes', jobKey(input.namespace, input.id));
      if (!v) throw notFound('volume not found');
      const claims = Object.values(v.Claims);
      if (claims.some((c) => claimLive(tx, c.AllocationID)) || (!input.force && claims.length > 0))
        throw badRequest(`volume "${v.ID}" is in use`);
      tx.delete('volumes', jobKey(v.Namespace, v.ID));
      return { Index: tx.index };
    });

  const detachVolume: Cluster['detachVolume'] = (input) =>
    store.write((tx) => {
      if (input.node === '') throw badRequest('The "node" query parameter is required');
      const v = tx.get('volumes', jobKey(input.namespace, input.id));
      if (!v) throw notFound('volume not found');
      const nodes = tx.all('nodes').filter((n) => n.ID === input.node || n.ID.startsWith(input.node));
      const node = nodes[0];
      if (!node || nodes.length > 1)
        throw notFound(nodes.length > 1 ? `node prefix "${input.node}" is ambiguous` : 'node not found');
      const onNode = Object.values(v.Claims).filter((c) => c.NodeID === node.ID);
      if (onNode.some((c) => claimLive(tx, c.AllocationID))) throw badRequest(`volume "${v.ID}" is in use`);
      if (onNode.length === 0) return { Index: store.index }; // not attached there: nothing to write
      const claims = { ...v.Claims };
      for (const c of onNode) delete claims[c.AllocationID];
      tx.put('volumes', { ...v, Claims: claims, ModifyIndex: tx.index });
      return { Index: tx.index };
    });

  /** Releases a finished allocation's claims (the volume watcher). */
  const releaseClaims = (allocId: string): void => {
    store.write((tx) => {
      for (const v of tx.all('volumes')) {
        if (!v.Claims[allocId]) continue;
        if (claimLive(tx, allocId)) continue;
        const claims = { ...v.Claims };
        delete claims[allocId];
        tx.put('volumes', { ...v, Claims: claims, ModifyIndex: tx.index });
      }
    });
    deps.unblock();
  };

  return { registerVolume, deregisterVolume, detachVolume, releaseClaims };
}
