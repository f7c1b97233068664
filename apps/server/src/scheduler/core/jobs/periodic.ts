import { EvalTriggeredBy, JobStatus, nextCronLaunch, parseCron } from '@sked/model';
import type { Cluster } from '../api.js';
import type { TimerHandle } from '../clock.js';
import type { CoreContext } from '../context.js';
import { canonicalize } from '../defaults.js';
import { badRequest } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import { jobKey } from '../state/keys.js';
import type { Txn } from '../state/store.js';
import type { Evaluation, Job } from '../types.js';
import { mustJob, upsertJob } from './upsert.js';

/** The next cron launch of a periodic job (ms) after `nowMs`, if it is enabled, in its `TimeZone`. */
export function nextLaunchOf(job: Job, nowMs: number): number | undefined {
  if (!job.Periodic || !job.Periodic.Enabled || job.Stop || job.ParentID !== '') return undefined;
  try {
    return nextCronLaunch(parseCron(job.Periodic.Spec, { timeZone: job.Periodic.TimeZone }), nowMs);
  } catch {
    return undefined;
  }
}

/** Periodic jobs: the cron timers, and launching children (on time or forced). */
export interface Periodic {
  /** (Re)arms the cron timer of a periodic job after it was written. */
  readonly armPeriodic: (namespace: string, id: string) => void;
  forcePeriodic: Cluster['forcePeriodic'];
}

/** Creates the periodic launcher. */
export function createPeriodic(ctx: CoreContext, queue: Pick<EvalQueue, 'makeEval'>): Periodic {
  const { store } = ctx;
  const periodicTimers = new Map<string, TimerHandle>();

  /** Launches a child of a periodic job (force, or the cron timer). */
  const launchPeriodic = (tx: Txn, job: Job): Evaluation => {
    let sec = Math.floor(ctx.nowMs() / 1000);
    while (tx.get('jobs', jobKey(job.Namespace, `${job.ID}/periodic-${sec}`))) sec++;
    const childId = `${job.ID}/periodic-${sec}`;
    const child = canonicalize(
      { ...job, ID: childId, Name: childId, ParentID: job.ID, Periodic: null, Status: JobStatus.Pending },
      { region: ctx.region },
    );
    const stored = upsertJob(ctx, tx, child, undefined);
    const e = queue.makeEval(tx, stored, EvalTriggeredBy.PeriodicJob);
    return e;
  };

  const forcePeriodic: Cluster['forcePeriodic'] = (input) =>
    store.write((tx) => {
      const job = mustJob(tx, input.namespace, input.id);
      if (!job.Periodic || job.Dispatched || job.ParentID !== '')
        throw badRequest("can't force launch non-periodic job");
      if (job.Stop) throw badRequest(`Specified job "${job.ID}" is stopped`);
      const e = launchPeriodic(tx, job);
      return { EvalID: e.ID, EvalCreateIndex: tx.index, Index: tx.index };
    });

  /** The cron timer fired: launch a child unless the job stopped or overlap is prohibited. */
  const launchDue = (key: string): void => {
    store.write((tx) => {
      const cur = tx.get('jobs', key);
      if (!cur || !cur.Periodic || cur.Stop) return;
      const running = tx
        .all('jobs')
        .some((c) => c.ParentID === cur.ID && c.Namespace === cur.Namespace && c.Status !== JobStatus.Dead);
      if (cur.Periodic.ProhibitOverlap && running) return;
      launchPeriodic(tx, cur);
    });
  };

  const armPeriodic = (namespace: string, id: string): void => {
    const key = jobKey(namespace, id);
    periodicTimers.get(key)?.cancel();
    periodicTimers.delete(key);
    const job = store.jobs.get(key);
    const at = job ? nextLaunchOf(job, ctx.nowMs()) : undefined;
    if (at === undefined) return;
    periodicTimers.set(
      key,
      ctx.timers.later(
        () => {
          periodicTimers.delete(key);
          launchDue(key);
          armPeriodic(namespace, id);
        },
        at - ctx.nowMs(),
        { kind: 'job', namespace, id },
      ),
    );
  };

  return { armPeriodic, forcePeriodic };
}
