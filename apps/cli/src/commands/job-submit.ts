import type { JobPlanResponse } from '@sked/model';
import { Command } from 'commander';

import { schedulerContext, type SchedulerContext } from '../context.js';
import { formatJobDiff } from '../diff-format.js';
import { handler, integer } from '../handler.js';
import { withInterrupt } from '../interrupt.js';
import { readJobFile, type JobFile } from '../job-file.js';
import { metricLines } from '../monitor.js';
import { toJson } from '../output.js';
import { follow, jobTokenOptions } from './job-write.js';

function jobNamespace(file: JobFile, ctx: SchedulerContext): string {
  return ctx.globals.namespace ?? file.job.Namespace ?? ctx.namespace;
}

/** `--secrets-token` and `--mesh-token`: handed with the job (the server checks, then clears them). */
interface JobTokenOptions {
  secretsToken?: string;
  meshToken?: string;
}

/** The job of the file with the tokens of the flags (a flag wins over the file's own field). */
function withTokens(file: JobFile, opts: JobTokenOptions): JobFile['job'] {
  return {
    ...file.job,
    ...(opts.secretsToken === undefined ? {} : { SecretsToken: opts.secretsToken }),
    ...(opts.meshToken === undefined ? {} : { MeshToken: opts.meshToken }),
  };
}

async function run(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [path] = command.processedArgs as [string];
  const opts = command.opts<
    { detach?: boolean; checkIndex?: number; preserveCounts?: boolean } & JobTokenOptions
  >();
  return withInterrupt(async (signal) => {
    const file = await readJobFile(ctx.client, path, signal);
    const namespace = jobNamespace(file, ctx);
    const { data } = await ctx.client.jobs.create(withTokens(file, opts), {
      namespace,
      signal,
      submission: { Source: file.source, Format: file.format },
      ...(opts.checkIndex === undefined ? {} : { enforceIndex: opts.checkIndex }),
      ...(opts.preserveCounts ? { preserveCounts: true } : {}),
    });
    if (ctx.output.json) ctx.output.out(toJson(data));
    if (data.Warnings) ctx.output.err(`Job Warnings:\n${data.Warnings}`);
    const periodic = file.job.Periodic?.Enabled === true || file.job.ParameterizedJob != null;
    if (data.EvalID === '' || periodic) {
      if (!ctx.output.json) ctx.output.out(`Job registration successful`);
      return 0;
    }
    if (opts.detach) {
      if (!ctx.output.json) ctx.output.out(`Job registration successful\nEvaluation ID: ${data.EvalID}`);
      return 0;
    }
    const job = { ID: file.job.ID, Namespace: namespace };
    return follow(
      ctx,
      { evalId: data.EvalID, index: data.EvalCreateIndex },
      job,
      { followDeployment: true },
      signal,
    );
  });
}

function dryRun(plan: JobPlanResponse): string[] {
  const failed = Object.entries(plan.FailedTGAllocs ?? {});
  if (failed.length === 0) return ['Scheduler dry-run:', '- All tasks successfully allocated.'];
  const lines = ['Scheduler dry-run:', '- WARNING: Failed to place all allocations.'];
  for (const [group, metric] of failed) {
    const count = 1 + (metric.CoalescedFailures ?? 0);
    lines.push(`  Task Group "${group}" (failed to place ${count} allocation${count === 1 ? '' : 's'}):`);
    lines.push(...metricLines(metric).map((line) => `    * ${line}`));
  }
  return lines;
}

/** Whether a plan changes anything: its diff says so, else its placement annotations. */
export function planChanges(plan: JobPlanResponse): boolean {
  if (plan.Diff) return plan.Diff.Type !== 'None';
  return Object.values(plan.Annotations?.DesiredTGUpdates ?? {}).some(
    (u) => u.Place + u.Stop + u.DestructiveUpdate + u.Migrate + u.InPlaceUpdate > 0,
  );
}

async function plan(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [path] = command.processedArgs as [string];
  const opts = command.opts<{ verbose?: boolean } & JobTokenOptions>();
  const file = await readJobFile(ctx.client, path);
  const { data } = await ctx.client.jobs.plan(withTokens(file, opts), {
    namespace: jobNamespace(file, ctx),
    diff: true,
  });
  const changes = planChanges(data);
  if (ctx.output.json) {
    ctx.output.out(toJson(data));
    return changes ? 1 : 0;
  }
  const parts: string[] = [];
  if (data.Diff) parts.push(formatJobDiff(data.Diff, opts.verbose === true), '');
  parts.push(...dryRun(data), '');
  if (data.Warnings) parts.push('Job Warnings:', data.Warnings, '');
  parts.push(
    `Job Modify Index: ${data.JobModifyIndex}`,
    'To submit the job with version verification run:',
    '',
    `sked job run --check-index ${data.JobModifyIndex} ${path}`,
    '',
    'When running the job with the check-index flag, the job will only be run if the',
    'job modify index given matches the server-side version. If the index has',
    "changed, another user has modified the job and the plan's results are",
    'potentially invalid.',
  );
  ctx.output.out(parts.join('\n'));
  return changes ? 1 : 0;
}

async function validateJob(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [path] = command.processedArgs as [string];
  const file = await readJobFile(ctx.client, path);
  // Loaded here only: the schemas take a while to load, and only this command needs them.
  const { JobRegisterRequest, canonicalizeJob, formatProblems, jobProblems, validate } =
    await import('@sked/model');
  const result = validate(JobRegisterRequest, { Job: file.job });
  // The service's semantic checks read the defaults canonicalization fills, so they need a job that
  // matches the schema: they run once the schema problems are fixed, as on the server.
  const found = result.ok
    ? jobProblems(canonicalizeJob(result.value.Job)).map((p) => ({
        path: `/Job${p.path}`,
        message: p.message,
      }))
    : result.problems;
  const problems = found.length === 0 ? [] : formatProblems(found).split('\n');
  if (ctx.output.json) {
    ctx.output.out(toJson({ Valid: problems.length === 0, Errors: problems }));
    return problems.length === 0 ? 0 : 1;
  }
  if (problems.length === 0) {
    ctx.output.out('Job validation successful');
    return 0;
  }
  ctx.output.err(`Job validation errors:\n${problems.map((p) => `  * ${p}`).join('\n')}`);
  return 1;
}

const FILE_HELP = 'job file: HCL (.hcl), or JSON (a Job or {"Job": ...}); - reads stdin';

/** `job run`, `job plan`, `job validate`. */
export function submitCommands(): Command[] {
  const runCmd = jobTokenOptions(
    new Command('run')
      .description('Submit a job and follow its evaluation and deployment until done')
      .argument('<file>', FILE_HELP),
  )
    .option('-d, --detach', 'return at once with the evaluation ID')
    .option(
      '--check-index <index>',
      'submit only if the job modify index is still this (0: only if new)',
      integer,
    )
    .option('--preserve-counts', 'keep the task group counts of the running job')
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 error or failed deployment, 2 placement failed, 130 Ctrl-C (the job keeps running).\n\nExample:\n  $ sked job run web.hcl\n  $ sked job run --detach --check-index 7 web.json',
    )
    .action(handler(run));
  const planCmd = jobTokenOptions(
    new Command('plan')
      .description('Dry-run a job: the diff against the running version and the check-and-set index')
      .argument('<file>', FILE_HELP),
  )
    .option('-v, --verbose', 'show unchanged fields too')
    .addHelpText(
      'after',
      '\nExit codes: 0 no changes, 1 changes, 255 error.\n\nExample:\n  $ sked job plan web.hcl',
    )
    .action(handler(plan, undefined, 255));
  const validateCmd = new Command('validate')
    .description(
      "Check a job file without submitting it: the job schema, then the scheduler's semantic checks",
    )
    .argument('<file>', FILE_HELP)
    .addHelpText('after', '\nExample:\n  $ sked job validate web.hcl')
    .action(handler(validateJob));
  return [runCmd, planCmd, validateCmd];
}
