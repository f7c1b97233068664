import { hasControlCharacter, namespaceNameProblem } from '@sked/model';
import type { Cluster, VolumeRegistration } from '../api.js';
import type { CoreContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { clientTerminal } from '../internal/status.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { CsiVolume } from '../types.js';

/** What the volume writes need from the rest of the core. */
export interface VolumeDeps {
  /** Blocked evaluations retry (capacity or claims freed). */
  readonly unblock: () => void;
}

/**
 * The stored volume of one volume of a register request. The route validated its shape (the model's
 * `CsiVolumeInput`: access and attachment modes among the known ones) and its path; here only
 * what the state decides: an ID, a plugin, and no volume of that ID yet.
 */
function volumeOf(tx: Txn, v: VolumeRegistration, namespaceOfRequest: string): CsiVolume {
  const id = v.ID;
  if (id === '') throw badRequest('Volume ID is required');
  if (hasControlCharacter(id))
    throw badRequest(`Volume ID ${JSON.stringify(id)} contains a control character`);
  const namespace = v.Namespace !== undefined && v.Namespace !== '' ? v.Namespace : namespaceOfRequest;
  const invalid = namespaceNameProblem(namespace);
  if (invalid !== undefined) throw badRequest(invalid.replace(/\.$/, ''));
  const pluginId = v.PluginID ?? '';
  if (pluginId === '') throw badRequest(`Volume "${id}" is missing a PluginID`);
  if (tx.get('volumes', jobKey(namespace, id))) throw badRequest(`volume "${id}" already exists`);
  const nodes = tx.all('nodes').length;
  return {
    ID: id,
    Name: v.Name || id,
    ExternalID: v.ExternalID ?? '',
    Namespace: namespace,
    Topologies: v.Topologies ?? null,
    AccessMode: v.AccessMode || 'single-node-writer',
    AttachmentMode: v.AttachmentMode || 'file-system',
    MountOptions: v.MountOptions ?? null,
    Secrets: v.Secrets ?? null,
    Parameters: v.Parameters ?? null,
    Context: v.Context ?? null,
    Capacity: v.Capacity ?? 0,
    RequestedCapabilities: v.RequestedCapabilities ?? null,
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
      for (const v of input.volumes) tx.put('volumes', volumeOf(tx, v, input.namespace));
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
