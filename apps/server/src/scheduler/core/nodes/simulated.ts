import { NodeSchedulingEligibility, NodeStatus } from '@sked/model';
import type { Node } from '../types.js';
import { iso } from '../internal/ids.js';

/** Options of the simulated client nodes. */
export interface SimulatedNodeOptions {
  /** Datacenter of every node. */
  readonly datacenter: string;
  /** Drivers the nodes offer (always `mock`; `raw_exec` when enabled). */
  readonly drivers: readonly string[];
  /** Region name (for the node's attributes). */
  readonly region: string;
}

/**
 * Builds one simulated node: 4000 MHz CPU, 8192 MB memory, 100 GB disk, node pool `default`,
 * attributes `kernel.name=linux`, `cpu.arch=amd64`, `driver.<name>=1` for each driver.
 */
export function simulatedNode(i: number, id: string, now: number, options: SimulatedNodeOptions): Node {
  const attrs: Record<string, string> = {
    'kernel.name': 'linux',
    'kernel.version': '6.1.0',
    'os.name': 'debian',
    'os.version': '12',
    'cpu.arch': 'amd64',
    'cpu.numcores': '4',
    'cpu.totalcompute': '4000',
    'memory.totalbytes': String(8192 * 1024 * 1024),
    'unique.hostname': `sked-node-${i + 1}`,
    'unique.network.ip-address': `127.0.0.${i + 2}`,
    'sked.version': '0.0.0',
  };
  const drivers: Node['Drivers'] = {};
  for (const d of options.drivers) {
    attrs[`driver.${d}`] = '1';
    drivers[d] = {
      Attributes: { [`driver.${d}`]: 'true' },
      Detected: true,
      Healthy: true,
      HealthDescription: 'Healthy',
      UpdateTime: iso(now),
    };
  }
  return {
    ID: id,
    Name: `sked-node-${i + 1}`,
    Datacenter: options.datacenter,
    NodePool: 'default',
    NodeClass: '',
    ComputedClass: `v1:${id.slice(0, 8)}`,
    HTTPAddr: `127.0.0.${i + 2}:4646`,
    TLSEnabled: false,
    Attributes: attrs,
    Meta: { rack: `r${(i % 2) + 1}`, zone: `z${i + 1}` },
    NodeResources: {
      Cpu: { CpuShares: 4000, TotalCpuCores: 4 },
      Memory: { MemoryMB: 8192 },
      Disk: { DiskMB: 100 * 1024 },
      Networks: [],
      NodeNetworks: [],
      Devices: null,
    },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 } },
    Resources: { CPU: 4000, MemoryMB: 8192, DiskMB: 100 * 1024, IOPS: 0, Networks: null, Devices: null },
    Reserved: { CPU: 0, MemoryMB: 0, DiskMB: 0, IOPS: 0, Networks: null, Devices: null },
    Links: {},
    Drain: false,
    DrainStrategy: null,
    SchedulingEligibility: NodeSchedulingEligibility.Eligible,
    Status: NodeStatus.Ready,
    StatusDescription: '',
    StatusUpdatedAt: Math.floor(now / 1000),
    Events: [
      {
        Message: 'Node registered',
        Subsystem: 'Cluster',
        Details: null,
        Timestamp: iso(now),
        CreateIndex: 0,
      },
    ],
    Drivers: drivers,
    CSIControllerPlugins: null,
    CSINodePlugins: null,
    HostVolumes: null,
    CreateIndex: 0,
    ModifyIndex: 0,
  };
}
