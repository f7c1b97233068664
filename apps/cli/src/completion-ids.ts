import { createClient } from '@sked/scheduler-client';

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

/**
 * Which IDs a completion request (the words after `sked complete --`) calls for: job IDs for the
 * job commands and for `alloc exec --job`, allocation IDs for the other allocation commands.
 */
export function wantedIds(words: readonly string[]): 'jobs' | 'allocs' | undefined {
  const path = commandWords(words).slice(0, 2).join(' ');
  if (JOB_COMMANDS.includes(path)) return 'jobs';
  if (path === 'alloc exec' && words.includes('--job')) return 'jobs';
  if (ALLOC_COMMANDS.includes(path)) return 'allocs';
  return undefined;
}

/**
 * The job or allocation IDs a completion request calls for, from the server named by the words'
 * `--address`, `--token` and `--namespace` (or `SKED_*`), within `timeoutMs`. Any failure gives
 * none: a completion never prints an error.
 */
export async function fetchCandidates(words: readonly string[], timeoutMs = 3000): Promise<Candidate[]> {
  const wanted = wantedIds(words);
  if (wanted === undefined) return [];
  const address = flagValue(words, '--address');
  const token = flagValue(words, '--token');
  const namespace = flagValue(words, '--namespace');
  try {
    const client = createClient({
      ...(address === undefined ? {} : { address }),
      ...(token === undefined ? {} : { token }),
      ...(namespace === undefined ? {} : { namespace }),
      timeout: timeoutMs,
    });
    if (wanted === 'jobs') {
      const { data } = await client.jobs.list();
      return data.map((j) => ({ id: j.ID, description: `${j.Type} ${j.Status}` }));
    }
    const { data } = await client.allocations.list({ taskStates: false });
    return data.map((a) => ({ id: a.ID, description: `${a.JobID} ${a.TaskGroup} ${a.ClientStatus}` }));
  } catch {
    // No server, no token, a timeout: complete without IDs.
    return [];
  }
}
