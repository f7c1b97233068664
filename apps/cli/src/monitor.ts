import { EventTopic, type AllocationMetric, type Deployment, type Evaluation } from '@sked/model';
import { isEventOf, type SchedulerClient } from '@sked/scheduler-client';

import { INTERRUPTED } from './interrupt.js';
import { blockingWaitMs } from './timeout.js';
import { keyValues, short, table } from './output.js';
import type { Progress } from './progress.js';

/** What to follow: the evaluation a write created, in the namespace of its job. */
export interface MonitorTarget {
  readonly evalId: string;
  readonly jobId: string;
  readonly namespace: string;
  /** Index to replay the event stream from (the write's index). */
  readonly index: number;
  /** Follow the deployment the evaluation started (job run, revert). */
  readonly followDeployment: boolean;
}

const EVAL_DONE = new Set(['complete', 'failed', 'canceled', 'cancelled', 'blocked']);
const DEPLOYMENT_DONE = new Set(['successful', 'failed', 'cancelled']);

function placementFailures(evaluation: Evaluation): string[] {
  const lines: string[] = [];
  for (const [group, metric] of Object.entries(evaluation.FailedTGAllocs ?? {})) {
    const failed = 1 + (metric.CoalescedFailures ?? 0);
    lines.push(`Task Group "${group}" (failed to place ${failed} allocation${failed === 1 ? '' : 's'}):`);
    lines.push(...metricLines(metric).map((line) => `  * ${line}`));
  }
  return lines;
}

/** The reasons of a placement failure, as the service's CLI words them. */
export function metricLines(metric: AllocationMetric): string[] {
  const lines: string[] = [];
  if (metric.NodesEvaluated === 0) lines.push('No nodes were eligible for evaluation');
  for (const [dc, count] of Object.entries(metric.NodesAvailable ?? {}))
    if (count === 0) lines.push(`No nodes are available in datacenter "${dc}"`);
  for (const [constraint, count] of Object.entries(metric.ConstraintFiltered ?? {}))
    lines.push(`Constraint "${constraint}": ${count} nodes excluded by filter`);
  if (metric.NodesExhausted > 0) lines.push(`Resources exhausted on ${metric.NodesExhausted} nodes`);
  for (const [dimension, count] of Object.entries(metric.DimensionExhausted ?? {}))
    lines.push(`Dimension "${dimension}" exhausted on ${count} nodes`);
  return lines;
}

async function evaluationNow(client: SchedulerClient, target: MonitorTarget, signal: AbortSignal) {
  const { data } = await client.jobs.evaluations(target.jobId, { namespace: target.namespace, signal });
  return data.find((e) => e.ID === target.evalId);
}

/** Waits until the evaluation is done: a read first, then its events. */
async function awaitEvaluation(
  client: SchedulerClient,
  target: MonitorTarget,
  progress: Progress,
  signal: AbortSignal,
): Promise<Evaluation> {
  const first = await evaluationNow(client, target, signal);
  if (first !== undefined && EVAL_DONE.has(first.Status)) return first;
  progress.status(`Evaluation "${short(target.evalId)}" ${first?.Status ?? 'pending'}`);
  for await (const event of client.events({
    index: target.index,
    topics: [`Evaluation:${target.evalId}`],
    namespace: target.namespace,
    signal,
  })) {
    if (!isEventOf(event, EventTopic.Evaluation)) continue;
    const evaluation = event.Payload.Evaluation;
    if (evaluation.ID !== target.evalId) continue;
    progress.status(`Evaluation "${short(target.evalId)}" ${evaluation.Status}`);
    if (EVAL_DONE.has(evaluation.Status)) return evaluation;
  }
  throw new Error('The event stream ended before the evaluation finished.');
}

async function reportAllocations(
  client: SchedulerClient,
  target: MonitorTarget,
  progress: Progress,
  signal: AbortSignal,
): Promise<void> {
  const { data } = await client.jobs.allocations(target.jobId, { namespace: target.namespace, signal });
  for (const alloc of data.filter((a) => a.EvalID === target.evalId))
    progress.log(
      `Allocation "${short(alloc.ID)}" created: node "${short(alloc.NodeID)}", group "${alloc.TaskGroup}"`,
    );
}

/** The deployment's groups as the service's CLI shows them under `Deployed`. */
export function deployedTable(deployment: Deployment): string {
  const rows = Object.entries(deployment.TaskGroups ?? {}).map(([group, s]) => [
    group,
    s.DesiredTotal,
    s.PlacedAllocs,
    s.HealthyAllocs,
    s.UnhealthyAllocs,
    s.RequireProgressBy ?? '<none>',
  ]);
  return table(['Task Group', 'Desired', 'Placed', 'Healthy', 'Unhealthy', 'Progress Deadline'], rows);
}

/** A deployment as `key = value` lines and its `Deployed` table. */
export function deploymentBlock(deployment: Deployment): string {
  return [
    keyValues([
      ['ID', deployment.ID],
      ['Job ID', deployment.JobID],
      ['Job Version', deployment.JobVersion],
      ['Status', deployment.Status],
      ['Description', deployment.StatusDescription],
    ]),
    '',
    'Deployed',
    deployedTable(deployment),
  ].join('\n');
}

async function awaitDeployment(
  client: SchedulerClient,
  target: MonitorTarget,
  deploymentId: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<Deployment> {
  let last = '';
  for await (const { data } of client.jobs.deployments.watch(target.jobId, {
    namespace: target.namespace,
    signal,
    wait: blockingWaitMs(),
  })) {
    const deployment = data.find((d) => d.ID === deploymentId);
    if (deployment === undefined) continue;
    const summary = Object.entries(deployment.TaskGroups ?? {})
      .map(([group, s]) => `${group} ${s.HealthyAllocs}/${s.DesiredTotal} healthy`)
      .join(', ');
    const line = `Deployment "${short(deploymentId)}" ${deployment.Status}: ${summary}`;
    if (progress.live) progress.status(`${line}\n\n${deploymentBlock(deployment)}`);
    else if (line !== last) progress.log(line);
    last = line;
    if (DEPLOYMENT_DONE.has(deployment.Status)) return deployment;
  }
  throw new Error('The watch ended before the deployment finished.');
}

/**
 * Follows an evaluation, then (for `job run` and `revert`) the deployment it started, until it
 * succeeds or fails. Returns the exit code: 0 done, 2 placement failed, 1 evaluation or
 * deployment failed, 130 stopped by Ctrl-C (the job keeps running).
 */
export async function monitor(
  client: SchedulerClient,
  target: MonitorTarget,
  progress: Progress,
  signal: AbortSignal,
): Promise<number> {
  try {
    progress.log(`Monitoring evaluation "${short(target.evalId)}"`, true);
    const evaluation = await awaitEvaluation(client, target, progress, signal);
    progress.log(`Evaluation triggered by job "${target.jobId}"`);
    if (evaluation.DeploymentID)
      progress.log(`Evaluation within deployment: "${short(evaluation.DeploymentID)}"`);
    await reportAllocations(client, target, progress, signal);
    progress.log(`Evaluation status changed: "pending" -> "${evaluation.Status}"`);
    if (evaluation.Status !== 'complete') {
      progress.log(
        `Evaluation "${short(target.evalId)}" finished with status "${evaluation.Status}": ${evaluation.StatusDescription}`,
        true,
      );
      return 1;
    }
    const failures = placementFailures(evaluation);
    if (failures.length > 0) {
      progress.log(
        `Evaluation "${short(target.evalId)}" finished with status "complete" but failed to place all allocations:`,
        true,
      );
      for (const line of failures) progress.log(line);
      if (evaluation.BlockedEval)
        progress.log(
          `Evaluation "${short(evaluation.BlockedEval)}" waiting for additional capacity to place remainder`,
        );
      return 2;
    }
    progress.log(`Evaluation "${short(target.evalId)}" finished with status "complete"`, true);
    if (!target.followDeployment || !evaluation.DeploymentID) return 0;
    progress.log(`Monitoring deployment "${short(evaluation.DeploymentID)}"`, true);
    const deployment = await awaitDeployment(client, target, evaluation.DeploymentID, progress, signal);
    progress.done();
    const mark = deployment.Status === 'successful' ? '✓' : '!';
    progress.log(`${mark} Deployment "${short(deployment.ID)}" ${deployment.Status}`, true);
    progress.block(`\n${deploymentBlock(deployment)}`);
    return deployment.Status === 'successful' ? 0 : 1;
  } catch (error) {
    if (!signal.aborted) throw error;
    progress.done();
    progress.log('Stopped waiting: the job keeps running.', true);
    progress.log(`Follow it with: sked job status ${target.jobId}`);
    return INTERRUPTED;
  } finally {
    progress.done();
  }
}
