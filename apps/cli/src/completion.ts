import tab from '@bomb.sh/tab/commander';
import { createClient } from '@sked/scheduler-client';
import type { Command } from 'commander';

/** Commands whose first argument is a job ID, and those whose first argument is an allocation ID. */
const JOB_COMMANDS = ['job status', 'job inspect', 'job history', 'job revert', 'job dispatch', 'job stop'];
const ALLOC_COMMANDS = ['alloc status', 'alloc stop', 'alloc signal', 'alloc restart', 'alloc exec'];

/** IDs fetched from the server before the completion request is answered (handlers are synchronous). */
interface Candidates {
  jobs: { id: string; description: string }[];
  allocs: { id: string; description: string }[];
}

const candidates: Candidates = { jobs: [], allocs: [] };

function flagValue(words: readonly string[], flag: string): string | undefined {
  const at = words.indexOf(flag);
  if (at >= 0) return words[at + 1];
  const inline = words.find((w) => w.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

const VALUE_FLAGS = new Set(['--address', '--token', '--namespace', '--region', '--filter', '--task']);

/** The words that name commands and arguments: flags and the values of flags left out. */
function commandWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (VALUE_FLAGS.has(word)) i++;
    else if (!word.startsWith('-')) out.push(word);
  }
  return out;
}

/**
 * Before a completion request (`sked complete -- WORDS...`) is answered, fetches the job or
 * allocation IDs the words call for from the server named by the words' `--address`, `--token`
 * and `--namespace` (or `SKED_*`), within `timeoutMs`. Any failure leaves the list empty: a
 * completion never prints an error.
 */
export async function prefetchCandidates(words: readonly string[], timeoutMs = 3000): Promise<void> {
  const path = commandWords(words).slice(0, 2).join(' ');
  const wantsJobs = JOB_COMMANDS.includes(path);
  const wantsAllocs = ALLOC_COMMANDS.includes(path);
  if (!wantsJobs && !wantsAllocs) return;
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
    if (wantsJobs) {
      const { data } = await client.jobs.list();
      candidates.jobs = data.map((j) => ({ id: j.ID, description: `${j.Type} ${j.Status}` }));
    } else {
      const { data } = await client.allocations.list({ taskStates: false });
      candidates.allocs = data.map((a) => ({
        id: a.ID,
        description: `${a.JobID} ${a.TaskGroup} ${a.ClientStatus}`,
      }));
    }
  } catch {
    // No server, no token, a timeout: complete without IDs.
  }
}

/**
 * Adds `sked completion bash|zsh|fish|powershell` (the script to source) and the hidden
 * `sked complete -- WORDS...` that the script calls, with @bomb.sh/tab: commands and flags from
 * the commander tree, job and allocation IDs from the server.
 */
export function addCompletion(program: Command): void {
  const root = tab(program, { completionCommandName: 'completion' });
  // Global flags work after the subcommand too, so every command completes them.
  for (const command of root.commands.values())
    for (const [name, option] of root.options)
      if (!command.options.has(name)) command.options.set(name, option);
  for (const path of JOB_COMMANDS) {
    const argument = root.commands.get(path)?.arguments.get('id');
    if (argument)
      argument.handler = (complete) => candidates.jobs.forEach((c) => complete(c.id, c.description));
  }
  for (const path of ALLOC_COMMANDS) {
    const argument = root.commands.get(path)?.arguments.get('id');
    if (argument)
      argument.handler = (complete) => candidates.allocs.forEach((c) => complete(c.id, c.description));
  }
}
