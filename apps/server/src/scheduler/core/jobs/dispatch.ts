import { EvalTriggeredBy, jobProblems, JobStatus } from '@sked/model';
import type { Cluster } from '../api.js';
import type { CoreContext } from '../context.js';
import { canonicalize } from '../defaults.js';
import { badRequest } from '../errors.js';
import type { EvalQueue } from '../evals/eval-queue.js';
import type { Txn } from '../state/store.js';
import type { Job } from '../types.js';
import { mustJob, upsertJob } from './upsert.js';

type Parameterized = NonNullable<Job['ParameterizedJob']>;

/** Checks a dispatch's payload (decoded at the edge, see ../internal/dispatch-payload.ts) against the job's payload rule. */
function checkPayload(pj: Parameterized, payload: Uint8Array): void {
  if (pj.Payload === 'forbidden' && payload.length > 0)
    throw badRequest('Payload is not allowed for this job');
  if (pj.Payload === 'required' && payload.length === 0)
    throw badRequest('Payload is not provided but required');
}

/** Checks a dispatch's meta against the job's required and optional keys. */
function checkMeta(pj: Parameterized, meta: Record<string, string>): void {
  const required = pj.MetaRequired ?? [];
  const optional = pj.MetaOptional ?? [];
  const missing = required.filter((k) => !Object.hasOwn(meta, k));
  if (missing.length > 0)
    throw badRequest(`Dispatch did not provide required meta keys: [${missing.join(' ')}]`);
  const extra = Object.keys(meta).filter((k) => !required.includes(k) && !optional.includes(k));
  if (extra.length > 0)
    throw badRequest(`Dispatch provided unpermitted meta keys: [${extra.sort().join(' ')}]`);
}

/** The live child an earlier dispatch with the same idempotency token created, if any. */
function priorDispatch(tx: Txn, parent: Job, token: string): Job | undefined {
  if (token === '') return undefined;
  return tx
    .all('jobs')
    .find(
      (j) =>
        j.ParentID === parent.ID &&
        j.Namespace === parent.Namespace &&
        j.DispatchIdempotencyToken === token &&
        j.Status !== JobStatus.Dead,
    );
}

/**
 * The child's ID passes the same checks as any job's ID (the model's, as registration applies
 * them), or the dispatch is refused naming `IdPrefixTemplate`, the only part the client chose: a
 * child no read, re-registration or plan would accept is never stored.
 */
function checkChildId(parent: Job, childId: string, template: string): void {
  const problems = jobProblems({ ...parent, ID: childId, Name: childId }).filter((p) => p.path === '/ID');
  if (problems.length > 0)
    throw badRequest(
      `Invalid IdPrefixTemplate ${JSON.stringify(template)}: the dispatched job's ID would be refused: ${problems.map((p) => p.message).join(' ')}`,
    );
}

/** Dispatches a parameterized job: a child job with the payload and meta, and its evaluation. */
export function createDispatchJob(
  ctx: CoreContext,
  queue: Pick<EvalQueue, 'makeEval'>,
): Cluster['dispatchJob'] {
  return (input) =>
    ctx.store.write((tx) => {
      const parent = mustJob(tx, input.namespace, input.id);
      const pj = parent.ParameterizedJob;
      if (!pj || parent.Dispatched)
        throw badRequest(`Specified job "${parent.ID}" is not a parameterized job`);
      if (parent.Stop) throw badRequest(`Specified job "${parent.ID}" is stopped`);
      const payload = Buffer.from(input.payload ?? new Uint8Array());
      checkPayload(pj, payload);
      const meta = input.meta ?? {};
      checkMeta(pj, meta);
      const token = input.idempotencyToken ?? '';
      const prior = priorDispatch(tx, parent, token);
      if (prior)
        return {
          Index: prior.ModifyIndex,
          JobCreateIndex: prior.CreateIndex,
          EvalCreateIndex: 0,
          EvalID: '',
          DispatchedJobID: prior.ID,
        };
      const suffix = ctx.newId().slice(0, 8);
      const sec = Math.floor(ctx.nowMs() / 1000);
      const prefix = input.idPrefixTemplate ? `${input.idPrefixTemplate}-` : '';
      const childId = `${parent.ID}/dispatch-${prefix}${sec}-${suffix}`;
      checkChildId(parent, childId, input.idPrefixTemplate ?? '');
      const child = canonicalize(
        {
          ...parent,
          ID: childId,
          Name: childId,
          ParentID: parent.ID,
          Dispatched: true,
          ParameterizedJob: null,
          Payload: payload.length > 0 ? payload.toString('base64') : null,
          Meta: { ...parent.Meta, ...meta },
          Status: JobStatus.Pending,
        },
        { region: ctx.region, dispatchIdempotencyToken: token },
      );
      child.ParameterizedJob = pj;
      const stored = upsertJob(ctx, tx, child, undefined);
      const e = queue.makeEval(tx, stored, EvalTriggeredBy.JobRegister);
      return {
        Index: tx.index,
        JobCreateIndex: stored.CreateIndex,
        EvalCreateIndex: tx.index,
        EvalID: e.ID,
        DispatchedJobID: childId,
      };
    });
}
