import type { Transport } from '@sked/http';
import type {
  JobDispatchRequest,
  JobEvaluateRequest,
  JobRevertRequest,
  JobStabilityRequest,
} from '@sked/model';
import {
  attempt,
  path,
  requireBoolean,
  requireInteger,
  requireObject,
  requireString,
  requireStringMap,
  send,
} from '@sked/http';
import { commonQuery, flag } from '../internal/query.js';
import type { JobsApi } from './api.js';
import { encodePayload, jobIdOf } from './bodies.js';

/** The endpoints that act on a stored job: dispatch, revert, stable, evaluate, periodic force, stop. */
export function createJobActions(
  transport: Transport,
): Pick<JobsApi, 'dispatch' | 'revert' | 'stable' | 'evaluate' | 'periodicForce' | 'stop'> {
  return {
    dispatch: (jobId, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: JobDispatchRequest = {
          ...(options.payload === undefined ? {} : { Payload: encodePayload(options.payload) }),
          ...(options.meta === undefined ? {} : { Meta: requireStringMap(options.meta, 'meta') }),
          ...(options.idPrefixTemplate === undefined
            ? {}
            : { IdPrefixTemplate: requireString(options.idPrefixTemplate, 'idPrefixTemplate') }),
        };
        return send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${id}/dispatch`,
            query: {
              ...commonQuery(options),
              IdempotencyToken:
                options.idempotencyToken === undefined
                  ? undefined
                  : requireString(options.idempotencyToken, 'idempotencyToken'),
            },
            body,
          },
          options,
        );
      }),
    revert: (jobId, version, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: JobRevertRequest = {
          JobID: id,
          JobVersion: requireInteger(version, 'version'),
          ...(options.enforcePriorVersion === undefined
            ? {}
            : { EnforcePriorVersion: requireInteger(options.enforcePriorVersion, 'enforcePriorVersion') }),
          ...(options.meshToken === undefined
            ? {}
            : { MeshToken: requireString(options.meshToken, 'meshToken') }),
          ...(options.secretsToken === undefined
            ? {}
            : { SecretsToken: requireString(options.secretsToken, 'secretsToken') }),
        };
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/revert`, query: commonQuery(options), body },
          options,
        );
      }),
    stable: (jobId, stability, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const given = requireObject(stability, 'stability');
        const body: JobStabilityRequest = {
          JobID: id,
          JobVersion: requireInteger(given['version'], 'stability.version'),
          Stable: requireBoolean(given['stable'], 'stability.stable'),
        };
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/stable`, query: commonQuery(options), body },
          options,
        );
      }),
    evaluate: (jobId, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body: JobEvaluateRequest = {
          JobID: id,
          ...(options.forceReschedule === undefined
            ? {}
            : {
                EvalOptions: { ForceReschedule: requireBoolean(options.forceReschedule, 'forceReschedule') },
              }),
        };
        return send(
          transport,
          { method: 'POST', path: path`/v1/job/${id}/evaluate`, query: commonQuery(options), body },
          options,
        );
      }),
    periodicForce: (jobId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${jobIdOf(jobId)}/periodic/force`,
            query: commonQuery(options),
          },
          options,
        ),
      ),
    stop: (jobId, options = {}) =>
      attempt(() =>
        send(
          transport,
          {
            method: 'DELETE',
            path: path`/v1/job/${jobIdOf(jobId)}`,
            query: {
              ...commonQuery(options),
              purge: flag(options.purge, 'purge'),
              global: flag(options.global, 'global'),
              eval_priority:
                options.evalPriority === undefined
                  ? undefined
                  : requireInteger(options.evalPriority, 'evalPriority', 1, 100),
              no_shutdown_delay: flag(options.noShutdownDelay, 'noShutdownDelay'),
            },
          },
          options,
        ),
      ),
  };
}
