/**
 * Canonicalization of the parts of a job shared by jobs, groups and tasks: placement rules, ports,
 * networks, services, volume requests and scaling policies.
 *
 * @packageDocumentation
 */
import type {
  Affinity,
  AffinityInput,
  Constraint,
  ConstraintInput,
  Spread,
  SpreadInput,
} from './constraint.js';
import type { NetworkResource, NetworkResourceInput, Port, PortInput } from './network.js';
import type { VolumeRequest, VolumeRequestInput } from './task-group.js';
import type { ScalingPolicy, ScalingPolicyInput } from './task.js';
import type { Service, ServiceInput } from './task-service.js';
import { JobDefaults } from './job-defaults.js';
import { cloneRecord, copyList, copyMap, mapList, nonEmpty } from './internal/copy.js';

export function canonicalizeConstraint(constraint: ConstraintInput): Constraint {
  return {
    LTarget: constraint.LTarget ?? '',
    RTarget: constraint.RTarget ?? '',
    Operand: nonEmpty(constraint.Operand) ?? JobDefaults.Operand,
  };
}

export function canonicalizeAffinity(affinity: AffinityInput): Affinity {
  return {
    LTarget: affinity.LTarget ?? '',
    RTarget: affinity.RTarget ?? '',
    Operand: nonEmpty(affinity.Operand) ?? JobDefaults.Operand,
    Weight: affinity.Weight ?? JobDefaults.Weight,
  };
}

export function canonicalizeSpread(spread: SpreadInput): Spread {
  return {
    Attribute: spread.Attribute ?? '',
    Weight: spread.Weight ?? JobDefaults.Weight,
    SpreadTarget: mapList(spread.SpreadTarget, (target) => ({
      Value: target.Value ?? '',
      Percent: target.Percent ?? 0,
    })),
  };
}

function canonicalizePort(port: PortInput): Port {
  return {
    Label: port.Label ?? '',
    Value: port.Value ?? 0,
    To: port.To ?? 0,
    HostNetwork: nonEmpty(port.HostNetwork) ?? JobDefaults.HostNetwork,
  };
}

export function canonicalizeNetwork(network: NetworkResourceInput): NetworkResource {
  return {
    Mode: nonEmpty(network.Mode) ?? JobDefaults.NetworkMode,
    Device: network.Device ?? '',
    CIDR: network.CIDR ?? '',
    IP: network.IP ?? '',
    MBits: network.MBits ?? 0,
    DNS:
      network.DNS === undefined || network.DNS === null
        ? null
        : {
            Servers: copyList(network.DNS.Servers),
            Searches: copyList(network.DNS.Searches),
            Options: copyList(network.DNS.Options),
          },
    ReservedPorts: mapList(network.ReservedPorts, canonicalizePort),
    DynamicPorts: mapList(network.DynamicPorts, canonicalizePort),
  };
}

export function canonicalizeService(service: ServiceInput, defaultName: string): Service {
  const name = nonEmpty(service.Name) ?? defaultName;
  return {
    Name: name,
    PortLabel: service.PortLabel ?? '',
    Tags: copyList(service.Tags),
    Checks: mapList(service.Checks, (check) => ({
      Name: nonEmpty(check.Name) ?? `service: ${JSON.stringify(name)} check`,
      Type: check.Type ?? '',
      Command: check.Command ?? '',
      Args: copyList(check.Args),
      Path: check.Path ?? '',
      Protocol: check.Protocol ?? '',
      PortLabel: check.PortLabel ?? '',
      Interval: check.Interval ?? 0,
      Timeout: check.Timeout ?? 0,
      InitialStatus: check.InitialStatus ?? '',
    })),
  };
}

export function canonicalizeVolume(name: string, request: VolumeRequestInput): VolumeRequest {
  return {
    Name: nonEmpty(request.Name) ?? name,
    Type: request.Type ?? '',
    Source: request.Source ?? '',
    ReadOnly: request.ReadOnly ?? false,
    AccessMode: request.AccessMode ?? '',
    AttachmentMode: request.AttachmentMode ?? '',
    PerAlloc: request.PerAlloc ?? false,
  };
}

export function canonicalizeScaling(
  policy: ScalingPolicyInput,
  count: number,
  target: Record<string, string> | null,
): ScalingPolicy {
  const min = policy.Min ?? count;
  return {
    ID: policy.ID ?? '',
    Type: nonEmpty(policy.Type) ?? (target === null ? '' : 'horizontal'),
    Target: policy.Target === undefined || policy.Target === null ? target : copyMap(policy.Target),
    Min: min,
    Max: policy.Max ?? Math.max(min, count),
    Policy: policy.Policy === undefined || policy.Policy === null ? null : cloneRecord(policy.Policy),
    Enabled: policy.Enabled ?? true,
  };
}
