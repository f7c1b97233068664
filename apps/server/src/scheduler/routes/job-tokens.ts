/**
 * The check of a submitted job's `SecretsToken` and `MeshToken` (BEHAVIOUR.md "Secret fields of a
 * job"): when ACLs are on, as the service does when it does not allow unauthenticated submitters,
 * the tokens are checked before anything is stored, then cleared by the core. With ACLs off
 * nothing is checked (the tokens are still cleared). A message never quotes a token.
 */
import { badRequest, forbidden } from '../../http/errors.js';
import type { SchedulerRouteContext } from './common.js';

/** The parts of a job (as submitted, or a stored version) the check reads. */
export interface JobTokenSubject {
  readonly TaskGroups?:
    | readonly {
        readonly Name?: string | undefined;
        readonly Tasks?:
          | readonly {
              readonly Name?: string | undefined;
              readonly Secrets?: { readonly Policies?: readonly string[] | null | undefined } | null;
            }[]
          | null
          | undefined;
      }[]
    | null
    | undefined;
}

/** The tokens handed with the job (the job's own fields, or a revert request's). */
export interface JobTokens {
  readonly SecretsToken?: string | null | undefined;
  readonly MeshToken?: string | null | undefined;
}

/** The policy that allows every policy (the secrets service's root token carries it). */
const ROOT_POLICY = 'root';

/**
 * The secrets service policies a job's tasks request (their `Secrets.Policies`), sorted and unique.
 * @param job - The job.
 * @returns The policy names.
 */
export function requestedPolicies(job: JobTokenSubject): string[] {
  const policies = new Set<string>();
  for (const group of job.TaskGroups ?? []) {
    for (const task of group.Tasks ?? []) {
      for (const policy of task.Secrets?.Policies ?? []) policies.add(policy);
    }
  }
  return [...policies].sort();
}

const list = (names: readonly string[]): string => names.map((name) => JSON.stringify(name)).join(', ');

function checkSecretsToken(ctx: SchedulerRouteContext, job: JobTokenSubject, token: string): void {
  const wanted = requestedPolicies(job);
  if (token === '') {
    if (wanted.length === 0) return;
    throw badRequest(
      `The job requests secrets service policies (${list(wanted)}) but carries no SecretsToken: with ACLs on, submit it with a SecretsToken that allows them`,
    );
  }
  const found = ctx.secretsTokens?.(token) ?? { status: 'unknown' };
  if (found.status === 'unknown') {
    throw badRequest('SecretsToken is not a token of the secrets service (unknown or revoked)');
  }
  if (found.status === 'expired') throw badRequest('SecretsToken has expired');
  if (found.policies.includes(ROOT_POLICY)) return;
  const missing = wanted.filter((policy) => !found.policies.includes(policy));
  if (missing.length > 0) {
    throw forbidden(`SecretsToken does not allow the policies the job requests: ${list(missing)}`);
  }
}

function checkMeshToken(ctx: SchedulerRouteContext, token: string): void {
  // The mesh service of this server knows the tokens of the server's ACL (the same file); it has
  // no service catalog, so there is no finer permission to check than "a token it accepts".
  if (token !== '' && ctx.acl.resolve(token) === undefined) {
    throw badRequest('MeshToken is not a token of the mesh service (unknown)');
  }
}

/**
 * Checks the tokens handed with a job when ACLs are on: a `SecretsToken` must be one the secrets
 * service holds, not expired, whose policies include every policy the job's tasks request (or
 * `root`), and a job whose tasks request policies must carry one; a `MeshToken` must be one the
 * mesh service accepts. With ACLs off it does nothing.
 * @param ctx - Route context (ACL, the secrets service's token lookup).
 * @param job - The job to be stored (for a revert: the version reverted to).
 * @param tokens - The tokens handed with it.
 * @throws 400 for a missing, unknown or expired token; 403 for a SecretsToken lacking a policy.
 */
export function checkJobTokens(ctx: SchedulerRouteContext, job: JobTokenSubject, tokens: JobTokens): void {
  if (!ctx.acl.enabled) return;
  checkSecretsToken(ctx, job, tokens.SecretsToken ?? '');
  checkMeshToken(ctx, tokens.MeshToken ?? '');
}
