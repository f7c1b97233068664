import type { Allocation, Job, JobSummary } from '@sked/model';
import { Command } from 'commander';

import { schedulerContext, type SchedulerContext } from '../context.js';
import { formatJobDiff } from '../diff-format.js';
import { CliError } from '../errors.js';
import { handler, integer } from '../handler.js';
import { examples, jobIdCommand } from '../help.js';
import { deploymentBlock } from '../monitor.js';
import { ago, formatNanos, keyValues, short, table, toJson } from '../output.js';
import { resolveJob } from '../resolve.js';

/** The allocation table of the service's CLI. */
export function allocTable(allocs: readonly Allocation[]): string {
  return table(
    ['ID', 'Node ID', 'Task Group', 'Version', 'Desired', 'Status', 'Created', 'Modified'],
    allocs.map((a) => [
      short(a.ID),
      short(a.NodeID),
      a.TaskGroup,
      a.Job?.Version ?? (a as { JobVersion?: number }).JobVersion ?? '',
      a.DesiredStatus,
      a.ClientStatus,
      ago(a.CreateTime),
      ago(a.ModifyTime),
    ]),
  );
}

function summaryTable(summary: JobSummary): string {
  return table(
    ['Task Group', 'Queued', 'Starting', 'Running', 'Failed', 'Complete', 'Lost'],
    Object.entries(summary.Summary ?? {}).map(([group, s]) => [
      group,
      s.Queued,
      s.Starting,
      s.Running,
      s.Failed,
      s.Complete,
      s.Lost,
    ]),
  );
}

async function list(ctx: SchedulerContext, filter: string | undefined): Promise<void> {
  const jobs = [];
  for await (const job of ctx.client.jobs.list.items(filter === undefined ? {} : { filter })) jobs.push(job);
  if (ctx.output.json) return ctx.output.out(toJson(jobs));
  if (jobs.length === 0) return ctx.output.out('No running jobs');
  const many = ctx.namespace === '*';
  ctx.output.out(
    table(
      [...(many ? ['Namespace'] : []), 'ID', 'Type', 'Priority', 'Status', 'Submit Date'],
      jobs.map((j) => [
        ...(many ? [j.Namespace] : []),
        j.ID,
        j.Type,
        j.Priority,
        j.Status,
        formatNanos(j.SubmitTime),
      ]),
    ),
  );
}

function jobHeader(job: Job): string {
  return keyValues([
    ['ID', job.ID],
    ['Name', job.Name],
    ['Submit Date', formatNanos(job.SubmitTime)],
    ['Type', job.Type],
    ['Priority', job.Priority],
    ['Datacenters', (job.Datacenters ?? []).join(',')],
    ['Namespace', job.Namespace],
    ['Node Pool', job.NodePool],
    ['Status', job.Status],
    ['Periodic', job.Periodic?.Enabled === true],
    ['Parameterized', job.ParameterizedJob != null],
  ]);
}

async function one(ctx: SchedulerContext, id: string): Promise<void> {
  const job = await resolveJob(ctx.client, id);
  const options = { namespace: job.Namespace };
  const [summary, deployment, allocs] = await Promise.all([
    ctx.client.jobs.summary(job.ID, options),
    ctx.client.jobs.latestDeployment(job.ID, options),
    ctx.client.jobs.allocations(job.ID, options),
  ]);
  if (ctx.output.json) {
    ctx.output.out(
      toJson({
        Job: job,
        Summary: summary.data,
        LatestDeployment: deployment.data,
        Allocations: allocs.data,
      }),
    );
    return;
  }
  const sections = [jobHeader(job)];
  if (job.Periodic?.Enabled || job.ParameterizedJob) {
    const c = summary.data.Children;
    sections.push(
      `Children Job Summary\n${table(['Pending', 'Running', 'Dead'], [[c?.Pending ?? 0, c?.Running ?? 0, c?.Dead ?? 0]])}`,
    );
  } else {
    sections.push(`Summary\n${summaryTable(summary.data)}`);
  }
  if (deployment.data) sections.push(`Latest Deployment\n${deploymentBlock(deployment.data)}`);
  const sorted = [...allocs.data].sort((a, b) => b.CreateIndex - a.CreateIndex);
  sections.push(`Allocations\n${sorted.length === 0 ? 'No allocations placed' : allocTable(sorted)}`);
  ctx.output.out(sections.join('\n\n'));
}

async function status(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string | undefined];
  const { filter } = command.opts<{ filter?: string }>();
  if (id === undefined) return list(ctx, filter);
  if (filter !== undefined) throw new CliError('--filter applies to the job list, not to one job.');
  return one(ctx, id);
}

async function inspect(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string];
  const { version } = command.opts<{ version?: number }>();
  const job = await resolveJob(ctx.client, id);
  if (version === undefined || version === job.Version) return ctx.output.out(toJson({ Job: job }));
  const { data } = await ctx.client.jobs.versions(job.ID, { namespace: job.Namespace });
  const found = data.Versions.find((v) => v.Version === version);
  if (found === undefined)
    throw new CliError(`Job "${job.ID}" has no version ${version}.`, {
      hint: `\`sked job history ${job.ID}\` lists them.`,
    });
  ctx.output.out(toJson({ Job: found }));
}

async function history(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string];
  const opts = command.opts<{ p?: boolean; version?: number }>();
  const job = await resolveJob(ctx.client, id);
  const { data } = await ctx.client.jobs.versions(job.ID, {
    namespace: job.Namespace,
    diffs: opts.p === true,
  });
  let versions = data.Versions.map((v, i) => ({ job: v, diff: data.Diffs?.[i] ?? null }));
  if (opts.version !== undefined) {
    versions = versions.filter((v) => v.job.Version === opts.version);
    if (versions.length === 0) throw new CliError(`Job "${job.ID}" has no version ${opts.version}.`);
  }
  if (ctx.output.json) return ctx.output.out(toJson(opts.p ? data : data.Versions));
  const blocks = versions.map(({ job: v, diff }) => {
    const pairs: [string, unknown][] = [
      ['Version', v.Version],
      ['Stable', v.Stable],
      ['Submit Date', formatNanos(v.SubmitTime)],
    ];
    const lines = [keyValues(opts.p && diff ? [...pairs, ['Diff', '']] : pairs).replace(/ <none>$/, '')];
    if (opts.p && diff) lines.push(formatJobDiff(diff).replace(/^/gm, '  '));
    return lines.join('\n');
  });
  ctx.output.out(blocks.join('\n\n'));
}

/** `job status`, `job inspect`, `job history`. */
export function readCommands(): Command[] {
  return [
    new Command('status')
      .description('List jobs, or show one job with its summary, latest deployment and allocations')
      .argument('[id]', 'job ID or a unique prefix of it')
      .option('--filter <expr>', 'filter expression for the list (server side)')
      .addHelpText(
        'after',
        examples(
          'sked job status',
          'sked job status web',
          'sked job status --filter \'Type == "batch"\' --json',
        ),
      )
      .action(handler(status)),
    jobIdCommand(
      'inspect',
      'Print a job as JSON ({"Job": ...}, which job run accepts)',
      'sked job inspect web > web.json',
    )
      .option('--version <n>', 'a past version of the job', integer)
      .action(handler(inspect)),
    jobIdCommand(
      'history',
      "List a job's versions, with -p the changes between them",
      'sked job history -p web',
    )
      .option('-p', 'show the diff of each version against the one before')
      .option('--version <n>', 'only this version', integer)
      .action(handler(history)),
  ];
}
