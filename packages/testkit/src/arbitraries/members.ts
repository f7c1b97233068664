/**
 * Arbitraries of what the cluster and its services keep about their members: client nodes, the
 * secrets service's LDAP configuration and the mesh service's peerings.
 */
import {
  NodeSchedulingEligibility,
  NodeStatus,
  PeeringState,
  type LdapConfigRequest,
  type Node,
  type Peering,
} from '@sked/model';
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

/** An LDAP configuration body: a random subset of the fields, in either accepted form. */
export function ldapConfigRequestArbitrary(): fc.Arbitrary<LdapConfigRequest> {
  const seconds = fc.oneof(fc.integer({ min: 0, max: 86_400 }), fc.constantFrom('90s', '1h', '30m'));
  const list = fc.oneof(fc.array(nameArbitrary(), { maxLength: 3 }), fc.constantFrom('', 'default', 'a,b'));
  return fc.record(
    {
      url: fc.constantFrom('ldap://127.0.0.1', 'ldaps://ldap.example.com'),
      case_sensitive_names: fc.boolean(),
      request_timeout: seconds,
      starttls: fc.boolean(),
      tls_min_version: fc.constantFrom('tls10', 'tls11', 'tls12', 'tls13'),
      tls_max_version: fc.constantFrom('tls12', 'tls13'),
      insecure_tls: fc.boolean(),
      binddn: fc.constant('cn=admin,dc=example,dc=com'),
      bindpass: fc.string({ maxLength: 12 }),
      userdn: fc.constant('ou=Users,dc=example,dc=com'),
      userattr: fc.constantFrom('cn', 'uid', 'sAMAccountName'),
      deny_null_bind: fc.boolean(),
      groupdn: fc.constant('ou=Groups,dc=example,dc=com'),
      token_ttl: seconds,
      token_policies: list,
      token_bound_cidrs: list,
      token_num_uses: fc.integer({ min: 0, max: 10 }),
      token_type: fc.constantFrom('', 'service', 'batch', 'default'),
    },
    { requiredKeys: [] },
  );
}

/** A {@link Peering} record, as read or listed. */
export function peeringArbitrary(): fc.Arbitrary<Peering> {
  return fc.record(
    {
      ID: fc.uuid(),
      Name: nameArbitrary(),
      State: values(PeeringState),
      Partition: fc.constant('default'),
      PeerID: fc.oneof(fc.constant(''), fc.uuid()),
      PeerServerName: fc.constantFrom('', 'server.dc1.peering.example'),
      PeerServerAddresses: nullable(
        fc.array(
          fc.integer({ min: 1, max: 254 }).map((n) => `10.0.0.${n}:8300`),
          { maxLength: 3 },
        ),
      ),
      Meta: nullable(metaArbitrary()),
      StreamStatus: nullable(
        fc.record({
          ImportedServices: nullable(fc.array(nameArbitrary(), { maxLength: 3 })),
          ExportedServices: nullable(fc.array(nameArbitrary(), { maxLength: 3 })),
          LastHeartbeat: nullable(isoTimeArbitrary()),
          LastReceive: nullable(isoTimeArbitrary()),
          LastSend: nullable(isoTimeArbitrary()),
        }),
      ),
      Remote: fc.record({ Partition: fc.constant('default'), Datacenter: fc.constantFrom('dc1', 'dc2') }),
      DeletedAt: nullable(isoTimeArbitrary()),
      CreateIndex: indexArbitrary(),
      ModifyIndex: indexArbitrary(),
    },
    {
      requiredKeys: [
        'ID',
        'Name',
        'State',
        'PeerID',
        'PeerServerName',
        'PeerServerAddresses',
        'Meta',
        'StreamStatus',
        'Remote',
        'CreateIndex',
        'ModifyIndex',
      ],
    },
  );
}
