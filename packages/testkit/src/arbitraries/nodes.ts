/** The arbitrary of client nodes. */
import { NodeSchedulingEligibility, NodeStatus, type Node } from '@sked/model';
import fc from 'fast-check';
import {
  indexArbitrary,
  isoTimeArbitrary,
  metaArbitrary,
  nameArbitrary,
  nullable,
  values,
} from './common.js';

/** A {@link Node} as the `Node` event topic carries it. */
export function nodeArbitrary(): fc.Arbitrary<Node> {
  const size = fc.integer({ min: 0, max: 100_000 });
  return fc.record({
    ID: fc.uuid(),
    Datacenter: fc.constantFrom('dc1', 'dc2'),
    Name: nameArbitrary(),
    HTTPAddr: fc.integer({ min: 1, max: 254 }).map((n) => `10.0.0.${n}:4646`),
    TLSEnabled: fc.boolean(),
    Attributes: nullable(
      fc.dictionary(fc.constantFrom('kernel.name', 'cpu.arch', 'os.name'), nameArbitrary()),
    ),
    NodeResources: nullable(
      fc.record({
        Cpu: fc.record({ CpuShares: size }),
        Memory: fc.record({ MemoryMB: size }),
        Disk: fc.record({ DiskMB: size }),
        Networks: fc.constant(null),
        NodeNetworks: fc.constant(null),
        Devices: fc.constant(null),
      }),
    ),
    ReservedResources: fc.constant(null),
    Resources: nullable(
      fc.record({
        CPU: size,
        MemoryMB: size,
        DiskMB: size,
        IOPS: size,
        Networks: fc.constant(null),
        Devices: fc.constant(null),
      }),
    ),
    Reserved: fc.constant(null),
    Links: nullable(fc.dictionary(nameArbitrary(), nameArbitrary(), { maxKeys: 2 })),
    Meta: nullable(metaArbitrary()),
    NodeClass: fc.constantFrom('', 'big', 'small'),
    ComputedClass: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `v1:${n}`),
    Drain: fc.boolean(),
    DrainStrategy: fc.constant(null),
    SchedulingEligibility: values(NodeSchedulingEligibility),
    Status: values(NodeStatus),
    StatusDescription: fc.string({ maxLength: 20 }),
    StatusUpdatedAt: fc.integer({ min: 1_577_836_800, max: 1_893_456_000 }),
    Events: nullable(
      fc.array(
        fc.record({
          Message: fc.string({ maxLength: 20 }),
          Subsystem: fc.constantFrom('Cluster', 'Drain', 'Driver'),
          Details: fc.constant(null),
          Timestamp: isoTimeArbitrary(),
          CreateIndex: indexArbitrary(),
        }),
        { maxLength: 2 },
      ),
    ),
    Drivers: nullable(
      fc.dictionary(
        fc.constantFrom('mock', 'raw_exec'),
        fc.record({
          Attributes: fc.constant(null),
          Detected: fc.boolean(),
          Healthy: fc.boolean(),
          HealthDescription: fc.string({ maxLength: 10 }),
          UpdateTime: isoTimeArbitrary(),
        }),
      ),
    ),
    CSIControllerPlugins: fc.constant(null),
    CSINodePlugins: fc.constant(null),
    HostVolumes: fc.constant(null),
    CreateIndex: indexArbitrary(),
    ModifyIndex: indexArbitrary(),
  });
}
