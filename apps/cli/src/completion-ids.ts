import { createSchedulerClient, type SchedulerClient } from '@sked/scheduler-client';

import { meshClientFor } from './mesh-context.js';
import { connectionOptions } from './service-config.js';
import { resolveJob } from './resolve.js';
import { secretsClientFor } from './secrets-context.js';

/** Commands whose first argument is a job ID, and those whose first argument is an allocation ID. */
export const JOB_COMMANDS: readonly string[] = [
  'status',
  'inspect',
  'history',
  'revert',
  'dispatch',
  'stop',
].map((name) => `job ${name}`);
export const ALLOC_COMMANDS: readonly string[] = ['status', 'stop', 'signal', 'restart', 'exec'].map(
  (name) => `alloc ${name}`,
);

/** An ID to offer, with the words shown beside it. */
export interface Candidate {
  readonly id: string;
  readonly description: string;
}

/** Flags that take a value (the value is not a command word). */
const VALUE_FLAGS = new Set([
  '--address',
  '--token',
  '--namespace',
  '--region',
  '--filter',
  '--task',
  '-s',
  '--signal',
  '--version',
  '--check-version',
  '--check-index',
  '--secrets-token',
  '--mesh-token',
  '--mount',
]);

function flagValue(words: readonly string[], flag: string): string | undefined {
  const at = words.indexOf(flag);
  if (at >= 0) return words[at + 1];
  const inline = words.find((w) => w.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

/** The words that name commands and arguments: flags and the values of flags left out. */
export function commandWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (VALUE_FLAGS.has(word)) i++;
    else if (!word.startsWith('-')) out.push(word);
  }
  return out;
}

/** `ldap group|user read|write|delete NAME`: the commands that name a group or a user. */
export const LDAP_NAME_COMMANDS: readonly string[] = ['group', 'user'].flatMap((kind) =>
  ['read', 'write', 'delete'].map((name) => `ldap ${kind} ${name}`),
);
/** `peering read|delete NAME`: the commands that name an existing peering. */
export const PEERING_COMMANDS: readonly string[] = ['read', 'delete'].map((name) => `peering ${name}`);
/** The flag of each command whose value is a version of the job it names. */
export const VERSION_FLAGS: ReadonlyMap<string, '--version' | '--check-version'> = new Map([
  ['job inspect', '--version'],
  ['job history', '--version'],
  ['job revert', '--check-version'],
]);

/** What a completion request offers from a server (`job`: the job whose versions). */
export type Wanted =
  | { readonly kind: 'jobs' | 'allocs' | 'ldap-groups' | 'ldap-users' | 'peerings' }
  | { readonly kind: 'versions' | 'current-version'; readonly job: string };

/**
 * What a completion request (the words after `sked complete --`, the last one the word being
 * completed) calls for: job IDs for the job commands and for `alloc exec --job`, allocation IDs for
 * the other allocation commands, the job's versions for `job revert ID VERSION` and `--version`
 * (its current version for `--check-version`), group or user names for the `ldap group|user`
 * commands, peering names for `peering read|delete`.
 */
export function wantedIds(words: readonly string[]): Wanted | undefined {
  const command = commandWords(words);
  const path = command.slice(0, 2).join(' ');
  const flag = VERSION_FLAGS.get(path);
  const last = words.at(-1) ?? '';
  if (flag !== undefined && (words.at(-2) === flag || last.startsWith(`${flag}=`))) {
    const job = command[2];
    if (job === undefined) return undefined;
    return { kind: flag === '--version' ? 'versions' : 'current-version', job };
  }
  if (path === 'job revert' && command.length === 4) return { kind: 'versions', job: command[2] as string };
  // The ID is the first argument: nothing to fetch past it.
  if (command.length !== 3 && (JOB_COMMANDS.includes(path) || ALLOC_COMMANDS.includes(path)))
    return undefined;
  if (JOB_COMMANDS.includes(path)) return { kind: 'jobs' };
  if (path === 'alloc exec' && words.includes('--job')) return { kind: 'jobs' };
  if (ALLOC_COMMANDS.includes(path)) return { kind: 'allocs' };
  if (command.length === 4 && LDAP_NAME_COMMANDS.includes(command.slice(0, 3).join(' ')))
    return { kind: command[1] === 'group' ? 'ldap-groups' : 'ldap-users' };
  if (command.length === 3 && PEERING_COMMANDS.includes(path)) return { kind: 'peerings' };
  return undefined;
}

/** The flags of a request that say which server, as the commands read them. */
function flagsOf(words: readonly string[]): { address?: string; token?: string; namespace?: string } {
  const out: { address?: string; token?: string; namespace?: string } = {};
  for (const name of ['address', 'token', 'namespace'] as const) {
    const value = flagValue(words, `--${name}`);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The job's versions, newest first (all, or only the current one). */
async function versions(
  client: SchedulerClient,
  id: string,
  currentOnly: boolean,
  signal: AbortSignal,
): Promise<Candidate[]> {
  const job = await resolveJob(client, id, { signal });
  const { data } = await client.jobs.versions(job.ID, { namespace: job.Namespace, signal });
  const list = currentOnly ? data.Versions.filter((v) => v.Version === job.Version) : data.Versions;
  return list.map((v) => ({
    id: String(v.Version),
    description: `${v.Stable ? 'stable' : 'not stable'}, submitted ${new Date(v.SubmitTime / 1e6).toISOString()}`,
  }));
}

async function fetchWanted(
  words: readonly string[],
  wanted: Wanted,
  timeoutMs: number,
): Promise<Candidate[]> {
  const flags = flagsOf(words);
  const signal = AbortSignal.timeout(timeoutMs);
  const scheduler = (): SchedulerClient =>
    createSchedulerClient({
      ...connectionOptions('scheduler', { ...flags, timeout: timeoutMs }),
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    });
  switch (wanted.kind) {
    case 'jobs': {
      const { data } = await scheduler().jobs.list({ signal });
      return data.map((j) => ({ id: j.ID, description: `${j.Type} ${j.Status}` }));
    }
    case 'allocs': {
      const { data } = await scheduler().allocations.list({ taskStates: false, signal });
      return data.map((a) => ({ id: a.ID, description: `${a.JobID} ${a.TaskGroup} ${a.ClientStatus}` }));
    }
    case 'versions':
    case 'current-version':
      return versions(scheduler(), wanted.job, wanted.kind === 'current-version', signal);
    case 'ldap-groups':
    case 'ldap-users': {
      const kind = wanted.kind === 'ldap-groups' ? 'groups' : 'users';
      const { client } = await secretsClientFor(flags, flagValue(words, '--mount') ?? 'ldap');
      const { data: names } = await client.ldap[kind].list({ signal });
      return names.map((name) => ({ id: name, description: kind === 'groups' ? 'LDAP group' : 'LDAP user' }));
    }
    case 'peerings': {
      const { data } = await meshClientFor(flags).peerings.list({ signal });
      return data.map((p) => ({
        id: p.Name,
        description: `${p.State} ${p.Remote?.Datacenter ?? ''}`.trim(),
      }));
    }
  }
}

/**
 * What a completion request calls for ({@link wantedIds}), from the server named by the words'
 * `--address`, `--token`, `--namespace` (and `--mount`), or the environment and saved login as the
 * commands use them, within `timeoutMs`. Any failure gives none: a completion never prints an error.
 */
export async function fetchCandidates(
  words: readonly string[],
  timeoutMs = 3000,
): Promise<{ wanted: Wanted | undefined; candidates: Candidate[] }> {
  const wanted = wantedIds(words);
  if (wanted === undefined) return { wanted, candidates: [] };
  try {
    return { wanted, candidates: await fetchWanted(words, wanted, timeoutMs) };
  } catch {
    // No server, no token, a timeout: complete without candidates.
    return { wanted, candidates: [] };
  }
}
