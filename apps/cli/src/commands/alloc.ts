import type { Allocation, TaskState } from '@sked/model';
import { Command } from 'commander';

import { schedulerContext, type SchedulerContext } from '../context.js';
import { CliError } from '../errors.js';
import { handler } from '../handler.js';
import { withInterrupt } from '../interrupt.js';
import { ago, formatNanos, keyValues, short, table, toJson } from '../output.js';
import { resolveAllocId } from '../resolve.js';
import { execCommand } from './alloc-exec.js';
import { allocTable } from './job-read.js';
import { follow } from './job-write.js';

function eventsTable(state: TaskState): string {
  const events = [...(state.Events ?? [])].reverse();
  if (events.length === 0) return 'No events';
  return table(
    ['Time', 'Type', 'Description'],
    events.map((e) => [formatNanos(e.Time), e.Type, e.DisplayMessage || e.Message || e.DriverError || '']),
  );
}

function allocDetails(alloc: Allocation): string {
  const sections = [
    keyValues([
      ['ID', alloc.ID],
      ['Eval ID', short(alloc.EvalID)],
      ['Name', alloc.Name],
      ['Node ID', short(alloc.NodeID)],
      ['Job ID', alloc.JobID],
      ['Job Version', alloc.Job?.Version],
      ['Client Status', alloc.ClientStatus],
      ['Client Description', alloc.ClientDescription],
      ['Desired Status', alloc.DesiredStatus],
      ['Desired Description', alloc.DesiredDescription],
      ['Created', ago(alloc.CreateTime)],
      ['Modified', ago(alloc.ModifyTime)],
    ]),
  ];
  for (const [task, state] of Object.entries(alloc.TaskStates ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    sections.push(`Task "${task}" is "${state.State}"\nRecent Events:\n${eventsTable(state)}`);
  }
  return sections.join('\n\n');
}

async function status(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string | undefined];
  const { filter } = command.opts<{ filter?: string }>();
  if (id === undefined) {
    const allocs: Allocation[] = [];
    for await (const a of ctx.client.allocations.list.items(filter === undefined ? {} : { filter }))
      allocs.push(a);
    if (ctx.output.json) return ctx.output.out(toJson(allocs));
    if (allocs.length === 0) return ctx.output.out('No allocations');
    return ctx.output.out(allocTable(allocs));
  }
  const { data } = await ctx.client.allocations.read(await resolveAllocId(ctx.client, id));
  ctx.output.out(ctx.output.json ? toJson(data) : allocDetails(data));
}

async function stop(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string];
  const { detach } = command.opts<{ detach?: boolean }>();
  return withInterrupt(async (signal) => {
    const allocId = await resolveAllocId(ctx.client, id, { signal });
    const { data: alloc } = await ctx.client.allocations.read(allocId, { signal });
    const { data } = await ctx.client.allocations.stop(allocId, { signal });
    if (ctx.output.json) ctx.output.out(toJson(data));
    const job = { ID: alloc.JobID, Namespace: alloc.Namespace };
    return follow(ctx, { evalId: data.EvalID, index: data.Index }, job, { detach }, signal);
  });
}

async function lifecycle(
  ctx: SchedulerContext,
  id: string,
  verb: 'signal' | 'restart',
  task?: string,
  sig?: string,
) {
  const allocId = await resolveAllocId(ctx.client, id);
  const options = task === undefined ? {} : { task };
  if (verb === 'signal') await ctx.client.allocations.signal(allocId, sig ?? 'SIGKILL', options);
  else await ctx.client.allocations.restart(allocId, options);
  if (ctx.output.json) ctx.output.out('{}');
  else
    ctx.output.out(
      verb === 'signal'
        ? `Signal ${sig ?? 'SIGKILL'} sent to ${short(allocId)}`
        : `Restarted ${short(allocId)}`,
    );
}

async function signal(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id, task] = command.processedArgs as [string, string | undefined];
  const { signal: sig } = command.opts<{ signal: string }>();
  if (!/^(SIG)?[A-Z0-9]+$/.test(sig))
    throw new CliError(`"${sig}" is not a signal name (such as SIGHUP or SIGUSR1).`);
  return lifecycle(ctx, id, 'signal', task, sig.startsWith('SIG') ? sig : `SIG${sig}`);
}

async function restart(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id, task] = command.processedArgs as [string, string | undefined];
  return lifecycle(ctx, id, 'restart', task);
}

/** The `alloc` command and its subcommands. */
export function allocCommand(): Command {
  return new Command('alloc')
    .description('Allocations: status, stop, signal, restart, exec')
    .addCommand(
      new Command('status')
        .description('List allocations, or show one with its tasks and their recent events')
        .argument('[id]', 'allocation ID or a prefix of it')
        .option('--filter <expr>', 'filter expression for the list (server side)')
        .addHelpText('after', '\nExample:\n  $ sked alloc status\n  $ sked alloc status 8ba85cef')
        .action(handler(status)),
    )
    .addCommand(
      new Command('stop')
        .description('Stop an allocation (it is rescheduled) and follow the evaluation')
        .argument('<id>', 'allocation ID or a prefix of it')
        .option('-d, --detach', 'return at once with the evaluation ID')
        .addHelpText('after', '\nExample:\n  $ sked alloc stop 8ba85cef')
        .action(handler(stop)),
    )
    .addCommand(
      new Command('signal')
        .description('Send a signal to the tasks of an allocation, or to one task')
        .argument('<id>', 'allocation ID or a prefix of it')
        .argument('[task]', 'task name (default: every task)')
        .option('-s, --signal <name>', 'signal name', 'SIGKILL')
        .addHelpText('after', '\nExample:\n  $ sked alloc signal -s SIGHUP 8ba85cef server')
        .action(handler(signal)),
    )
    .addCommand(
      new Command('restart')
        .description('Restart the tasks of an allocation in place, or one task')
        .argument('<id>', 'allocation ID or a prefix of it')
        .argument('[task]', 'task name (default: every task)')
        .addHelpText('after', '\nExample:\n  $ sked alloc restart 8ba85cef')
        .action(handler(restart)),
    )
    .addCommand(execCommand());
}
