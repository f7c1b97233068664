import { ExecError, type SchedulerClient } from '@sked/scheduler-client';
import { Command } from 'commander';

import { schedulerContext } from '../context.js';
import { CliError } from '../errors.js';
import { handler } from '../handler.js';
import { INTERRUPTED } from '../interrupt.js';
import { resolveAllocId } from '../resolve.js';

/** Flags of `alloc exec` and the global ones that take a value (to find where the command starts). */
const VALUE_FLAGS = new Set(['--task', '--address', '--token', '--namespace', '--region']);

/**
 * `sked alloc exec [flags] ID CMD [ARGS...]`: everything from CMD on belongs to the remote
 * command, flags included (`sh -c 'ls -t'`), as with the service's CLI. Commander would read
 * those flags as its own, so this puts a `--` before CMD when the user did not write one.
 */
export function separateExecCommand(argv: readonly string[]): string[] {
  const at = argv.findIndex((word, i) => word === 'exec' && argv[i - 1] === 'alloc');
  if (at < 0) return [...argv];
  let operands = 0;
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') return [...argv];
    if (word.startsWith('-') && word !== '-') {
      if (VALUE_FLAGS.has(word)) i++;
      continue;
    }
    operands++;
    if (operands === 2) return [...argv.slice(0, i), '--', ...argv.slice(i)];
  }
  return [...argv];
}

/** A running allocation of the job, picked at random (as `--job` does in the service's CLI). */
async function runningAllocOf(client: SchedulerClient, jobId: string): Promise<string> {
  const { data } = await client.jobs.allocations(jobId);
  const running = data.filter((a) => a.ClientStatus === 'running');
  const pick = running[Math.floor(Math.random() * running.length)];
  if (pick === undefined)
    throw new CliError(`Job "${jobId}" has no running allocation.`, {
      hint: `\`sked job status ${jobId}\` shows its allocations.`,
    });
  return pick.ID;
}

function terminalSize(): { width: number; height: number } {
  return { width: process.stdout.columns || 80, height: process.stdout.rows || 24 };
}

async function pump(source: AsyncIterable<Uint8Array>, sink: NodeJS.WriteStream): Promise<void> {
  for await (const chunk of source) if (!sink.write(chunk)) await new Promise((r) => sink.once('drain', r));
}

async function exec(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [id, argv] = command.processedArgs as [string, string[]];
  const opts = command.opts<{ task?: string; tty?: boolean; stdin?: boolean; job?: boolean }>();
  const allocId = opts.job ? await runningAllocOf(ctx.client, id) : await resolveAllocId(ctx.client, id);
  let task = opts.task;
  if (task === undefined) {
    const { data } = await ctx.client.allocations.read(allocId);
    const tasks = Object.keys(data.TaskStates ?? {}).sort();
    if (tasks.length !== 1)
      throw new CliError(
        `Allocation ${allocId.slice(0, 8)} has ${tasks.length} tasks: name one with --task.`,
        {
          hint: `Tasks: ${tasks.join(', ') || '<none>'}`,
        },
      );
    task = tasks[0] ?? '';
  }
  const stdin = process.stdin;
  const tty = opts.tty ?? (stdin.isTTY === true && process.stdout.isTTY === true);
  const interactive = opts.stdin !== false;
  const controller = new AbortController();
  const session = ctx.client.exec(allocId, task, argv, {
    tty,
    signal: controller.signal,
    ...(tty ? { size: terminalSize() } : {}),
  });
  const onResize = (): void => {
    const { width, height } = terminalSize();
    session.resize(width, height);
  };
  const onData = (chunk: Buffer): void => session.write(chunk);
  const onEnd = (): void => session.closeStdin();
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    controller.abort(new DOMException('Interrupted by Ctrl-C.', 'AbortError'));
  };
  const raw = tty && stdin.isTTY === true;
  process.on('SIGINT', onSigint);
  // On a terminal node updates columns/rows on SIGWINCH, then emits 'resize'.
  if (tty && process.stdout.isTTY) process.stdout.on('resize', onResize);
  else if (tty) process.on('SIGWINCH', onResize);
  if (raw) stdin.setRawMode(true);
  if (interactive) {
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.resume();
  } else session.closeStdin();
  try {
    const output = Promise.all([pump(session.stdout, process.stdout), pump(session.stderr, process.stderr)]);
    const code = await session.exitCode;
    await output;
    return code;
  } catch (error) {
    if (interrupted) return INTERRUPTED;
    if (ExecError.is(error) && error.reason)
      throw new CliError(error.reason, {
        hint: error.code === 1008 ? 'Check the allocation, --task and the command.' : 'See the server log.',
        cause: error,
      });
    throw error;
  } finally {
    if (raw) stdin.setRawMode(false);
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    stdin.pause();
    process.off('SIGINT', onSigint);
    process.off('SIGWINCH', onResize);
    process.stdout.off('resize', onResize);
  }
}

/** `alloc exec`. */
export function execCommand(): Command {
  return new Command('exec')
    .description("Run a command in an allocation's task; its exit code becomes sked's")
    .argument('<id>', 'allocation ID or a prefix of it (a job ID with --job)')
    .argument('<command...>', 'command and arguments')
    .option('--task <name>', 'task to run in (default: the only task)')
    .option('--job', 'the ID is a job ID: use one of its running allocations, at random')
    .option('-t, --tty', 'allocate a terminal (default: when stdin and stdout are terminals)')
    .option('--no-tty', 'never allocate a terminal')
    .option('--no-stdin', 'do not pass stdin to the command')
    .addHelpText(
      'after',
      "\nThe remote exit code becomes sked's own. Resizing the terminal resizes the remote one.\n\nExample:\n  $ sked alloc exec 8ba85cef /bin/sh\n  $ sked alloc exec --job web ls\n  $ sked alloc exec --task server 8ba85cef sh -c 'echo $HOME'",
    )
    .action(handler(exec));
}
