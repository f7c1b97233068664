import { Command } from 'commander';

import { schedulerContext, type SchedulerContext } from '../context.js';
import { handler, integer, collect, parsePairs } from '../handler.js';
import { examples, jobIdCommand } from '../help.js';
import { withInterrupt } from '../interrupt.js';
import { readInput } from '../job-file.js';
import { monitor, type MonitorTarget } from '../monitor.js';
import { keyValues, toJson } from '../output.js';
import { resolveJob } from '../resolve.js';

/**
 * Follows the evaluation a write created (then, with `followDeployment`, the deployment it
 * started), unless `detach`: then prints the evaluation's ID and returns.
 */
export async function follow(
  ctx: SchedulerContext,
  written: { readonly evalId: string; readonly index: number },
  job: { readonly ID: string; readonly Namespace: string },
  options: { readonly followDeployment?: boolean; readonly detach?: boolean | undefined },
  signal: AbortSignal,
): Promise<number> {
  if (written.evalId === '') return 0;
  if (options.detach) {
    if (!ctx.output.json) ctx.output.out(`Evaluation ID: ${written.evalId}`);
    return 0;
  }
  const target: MonitorTarget = {
    evalId: written.evalId,
    index: written.index,
    jobId: job.ID,
    namespace: job.Namespace,
    followDeployment: options.followDeployment === true,
  };
  // the live view's libraries (log-update, its width tables) load only for a command that follows
  const { createProgress } = await import('../progress.js');
  return monitor(
    ctx.client,
    target,
    createProgress(ctx.output.json ? process.stderr : process.stdout),
    signal,
  );
}

async function revert(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [id, version] = command.processedArgs as [string, number];
  const opts = command.opts<{
    detach?: boolean;
    checkVersion?: number;
    secretsToken?: string;
    meshToken?: string;
  }>();
  return withInterrupt(async (signal) => {
    const job = await resolveJob(ctx.client, id, { signal });
    const { data } = await ctx.client.jobs.revert(job.ID, version, {
      namespace: job.Namespace,
      signal,
      ...(opts.checkVersion === undefined ? {} : { enforcePriorVersion: opts.checkVersion }),
      ...(opts.secretsToken === undefined ? {} : { secretsToken: opts.secretsToken }),
      ...(opts.meshToken === undefined ? {} : { meshToken: opts.meshToken }),
    });
    if (ctx.output.json) ctx.output.out(toJson(data));
    const written = { evalId: data.EvalID, index: data.EvalCreateIndex };
    return follow(ctx, written, job, { followDeployment: true, detach: opts.detach }, signal);
  });
}

async function dispatch(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [id, input] = command.processedArgs as [string, string | undefined];
  const opts = command.opts<{
    meta?: string[];
    detach?: boolean;
    idPrefixTemplate?: string;
    idempotencyToken?: string;
  }>();
  const meta = parsePairs(opts.meta ?? [], '--meta');
  return withInterrupt(async (signal) => {
    const payload = input === undefined ? undefined : Buffer.from(await readInput(input, 'payload'));
    const job = await resolveJob(ctx.client, id, { signal });
    const { data } = await ctx.client.jobs.dispatch(job.ID, {
      namespace: job.Namespace,
      signal,
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
      ...(payload === undefined ? {} : { payload }),
      ...(opts.idPrefixTemplate === undefined ? {} : { idPrefixTemplate: opts.idPrefixTemplate }),
      ...(opts.idempotencyToken === undefined ? {} : { idempotencyToken: opts.idempotencyToken }),
    });
    if (ctx.output.json) ctx.output.out(toJson(data));
    else
      ctx.output.out(
        keyValues([
          ['Dispatched Job ID', data.DispatchedJobID],
          ['Evaluation ID', data.EvalID],
        ]),
      );
    if (opts.detach) return 0;
    const dispatched = { ID: data.DispatchedJobID, Namespace: job.Namespace };
    return follow(ctx, { evalId: data.EvalID, index: data.EvalCreateIndex }, dispatched, {}, signal);
  });
}

async function stop(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string];
  const opts = command.opts<{ purge?: boolean; detach?: boolean }>();
  return withInterrupt(async (signal) => {
    const job = await resolveJob(ctx.client, id, { signal });
    const { data } = await ctx.client.jobs.stop(job.ID, {
      namespace: job.Namespace,
      signal,
      ...(opts.purge ? { purge: true } : {}),
    });
    if (ctx.output.json) ctx.output.out(toJson(data));
    return follow(
      ctx,
      { evalId: data.EvalID, index: data.EvalCreateIndex },
      job,
      { detach: opts.detach },
      signal,
    );
  });
}

/** Adds `--secrets-token` and `--mesh-token` to a command that submits or reverts a job. */
export function jobTokenOptions(command: Command): Command {
  return command
    .option(
      '--secrets-token <token>',
      "a secrets service token allowing the policies the job's tasks request (checked when ACLs are on)",
    )
    .option('--mesh-token <token>', 'a mesh service token for the job (checked when ACLs are on)');
}

/** `job revert`, `job dispatch`, `job stop`. */
export function writeCommands(): Command[] {
  return [
    jobTokenOptions(
      jobIdCommand(
        'revert',
        'Revert a job to an earlier version and follow the evaluation and deployment',
        'sked job revert web 0',
      ).argument('<version>', 'version to revert to', integer),
    )
      .option('-d, --detach', 'return at once with the evaluation ID')
      .option('--check-version <n>', 'revert only if the current version is still this', integer)
      .action(handler(revert)),
    new Command('dispatch')
      .description('Dispatch an instance of a parameterized job')
      .argument('<id>', 'parameterized job ID')
      .argument('[input]', 'payload file; - reads stdin')
      .option('-m, --meta <key=value>', 'metadata of the instance (repeatable)', collect)
      .option('-d, --detach', 'return at once with the evaluation ID')
      .option('--id-prefix-template <prefix>', 'prefix of the dispatched job ID')
      .option('--idempotency-token <token>', 'dispatch at most once for this token')
      .addHelpText(
        'after',
        examples(
          'sked job dispatch -m input=a.csv report payload.json',
          'echo hi | sked job dispatch report -',
        ),
      )
      .action(handler(dispatch)),
    jobIdCommand(
      'stop',
      'Stop a job (and its allocations); follows the evaluation unless --detach',
      'sked job stop --purge web',
    )
      .option('--purge', 'remove the job at once instead of leaving it to garbage collection')
      .option('-d, --detach', 'return at once with the evaluation ID')
      .action(handler(stop)),
  ];
}
