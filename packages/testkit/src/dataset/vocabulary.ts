/** The vocabulary of generated datasets: time origin, names, owners, drivers and small pickers. */
import type { Job } from '@sked/model';
import type { Random } from '../random.js';

export const SECOND = 1_000_000_000;
/** 2026-01-01T00:00:00Z in Unix nanoseconds: the start of generated time lines. */
export const EPOCH_NS = 1_767_225_600 * SECOND;

const NAME_PREFIXES = [
  'web',
  'api',
  'worker',
  'cache',
  'batch',
  'etl',
  'cron',
  'db',
  'queue',
  'gateway',
] as const;
const OWNERS = ['team-a', 'team-b', 'team-c', 'platform', 'data', 'payments', 'search', 'infra'] as const;
const TEAMS = ['team-a', 'team-b', 'team-c', 'platform', 'data', 'payments'] as const;
export const ENVS = ['prod', 'staging', 'dev'] as const;
export const DRIVERS = ['mock', 'mock', 'mock', 'raw_exec', 'docker', 'exec'] as const;
export const GROUP_NAMES = ['app', 'frontend', 'backend', 'cache', 'sidecar', 'worker'] as const;
export function nonEmpty(
  list: readonly string[] | undefined,
  fallback: readonly string[],
): readonly string[] {
  return list === undefined || list.length === 0 ? fallback : list;
}

export function jobId(random: Random, i: number): string {
  return `${random.pick(NAME_PREFIXES)}-${String(i).padStart(5, '0')}`;
}

export function pickType(random: Random): Job['Type'] {
  const roll = random.next();
  return roll < 0.7 ? 'service' : roll < 0.95 ? 'batch' : 'sysbatch';
}

export function pickStatus(random: Random): Job['Status'] {
  const roll = random.next();
  return roll < 0.7 ? 'running' : roll < 0.85 ? 'pending' : 'dead';
}

export function pickDatacenters(random: Random, datacenters: readonly string[]): string[] {
  if (datacenters.length > 1 && random.chance(0.3)) return [...datacenters];
  return [random.pick(datacenters)];
}

export function makeMeta(random: Random): Record<string, string> {
  const meta: Record<string, string> = {
    owner: random.pick(OWNERS),
    team: random.pick(TEAMS),
    env: random.pick(ENVS),
  };
  if (random.chance(0.2)) meta.version = `v${random.int(1, 9)}.${random.int(0, 20)}`;
  if (random.chance(0.1)) meta['cost-center'] = `cc-${random.int(100, 999)}`;
  return meta;
}
export function iso(unixNs: number): string {
  return new Date(Math.floor(unixNs / 1_000_000)).toISOString();
}
