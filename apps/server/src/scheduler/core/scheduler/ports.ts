import type { Allocation, Node, TaskGroup } from '../types.js';
import type { World } from './world.js';

/** A port given to an allocation. */
export interface AllocatedPort {
  Label: string;
  Value: number;
  To: number;
  HostIP: string;
}

/** The ports an allocation holds (from AllocatedResources.Shared.Ports). */
export function allocPorts(a: Allocation): AllocatedPort[] {
  const shared = a.AllocatedResources?.['Shared'] as { Ports?: AllocatedPort[] } | undefined;
  return shared?.Ports ?? [];
}

export interface PortAsk {
  label: string;
  value: number;
  to: number;
}

export function groupPorts(g: TaskGroup): { reserved: PortAsk[]; dynamic: PortAsk[] } {
  const reserved: PortAsk[] = [];
  const dynamic: PortAsk[] = [];
  for (const n of (g.Networks ?? []) as { ReservedPorts?: unknown; DynamicPorts?: unknown }[]) {
    for (const p of (Array.isArray(n.ReservedPorts) ? n.ReservedPorts : []) as Record<string, unknown>[])
      reserved.push({
        label: typeof p['Label'] === 'string' ? p['Label'] : '',
        value: Number(p['Value'] ?? 0),
        to: Number(p['To'] ?? 0),
      });
    for (const p of (Array.isArray(n.DynamicPorts) ? n.DynamicPorts : []) as Record<string, unknown>[])
      dynamic.push({
        label: typeof p['Label'] === 'string' ? p['Label'] : '',
        value: 0,
        to: Number(p['To'] ?? 0),
      });
  }
  return { reserved, dynamic };
}

/** First dynamic host port. */
export const DYNAMIC_MIN = 20000;
export const DYNAMIC_MAX = 32000;

/** Takes the group's reserved ports and the first free dynamic ports on a node. */
export function takePorts(world: World, g: TaskGroup, node: Node): AllocatedPort[] {
  let used = world.ports.get(node.ID);
  if (!used) world.ports.set(node.ID, (used = new Set()));
  const ip = node.Attributes['unique.network.ip-address'] ?? '127.0.0.1';
  const { reserved, dynamic } = groupPorts(g);
  const out: AllocatedPort[] = [];
  for (const p of reserved) {
    used.add(p.value);
    out.push({ Label: p.label, Value: p.value, To: p.to, HostIP: ip });
  }
  let next = DYNAMIC_MIN;
  for (const p of dynamic) {
    while (used.has(next) && next < DYNAMIC_MAX) next++;
    used.add(next);
    out.push({ Label: p.label, Value: next, To: p.to, HostIP: ip });
  }
  return out;
}
