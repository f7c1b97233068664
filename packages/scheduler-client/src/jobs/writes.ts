import type { Transport } from '@sked/http';
import { JobPlanRequest, JobRegisterRequest, type JobInput, type JobParseRequest } from '@sked/model';
import { InvalidRequestError } from '../errors.js';
import {
  attempt,
  path,
  quote,
  requireBoolean,
  requireNonEmpty,
  requireObject,
  requireString,
  requireStringMap,
  send,
} from '@sked/http';
import { commonQuery } from '../internal/query.js';
import type { JobsApi } from './api.js';
import { idOfJob, jobIdOf, registerBody, registerNamespace } from './bodies.js';

/** The endpoints that submit a job: create, parse, update and plan. */
export function createJobWrites(transport: Transport): Pick<JobsApi, 'create' | 'parse' | 'update' | 'plan'> {
  return {
    create: (job, options = {}) =>
      attempt(() => {
        idOfJob(job);
        const effective = registerNamespace(job, options);
        return send(
          transport,
          {
            method: 'POST',
            path: '/v1/jobs',
            query: commonQuery(effective),
            body: registerBody(job, options),
            bodySchema: JobRegisterRequest,
            bodyName: 'the job register body',
          },
          effective,
        );
      }),
    parse: (source, options = {}) =>
      attempt(() => {
        const body: JobParseRequest = {
          JobHCL: requireNonEmpty(source, 'source'),
          ...(options.canonicalize === undefined
            ? {}
            : { Canonicalize: requireBoolean(options.canonicalize, 'canonicalize') }),
          ...(options.variables === undefined
            ? {}
            : { Variables: requireString(options.variables, 'variables') }),
          ...(options.variableFlags === undefined
            ? {}
            : { VariableFlags: requireStringMap(options.variableFlags, 'variableFlags') }),
          ...(options.hclv1 === undefined ? {} : { HCLv1: requireBoolean(options.hclv1, 'hclv1') }),
        };
        return send(
          transport,
          { method: 'POST', path: '/v1/jobs/parse', query: commonQuery(options), body },
          options,
        );
      }),
    update: (jobId, job, options = {}) =>
      attempt(() => {
        const id = jobIdOf(jobId);
        const body = requireObject(job, 'job');
        if (body['ID'] !== undefined && body['ID'] !== id) {
          throw new InvalidRequestError(
            `job.ID ${quote(body['ID'])} does not match the job ID ${quote(id)} of the path.`,
            'job.ID',
            body['ID'],
          );
        }
        const effective = registerNamespace(job, options);
        return send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${id}`,
            query: commonQuery(effective),
            body: registerBody(body['ID'] === undefined ? ({ ...job, ID: id } as JobInput) : job, options),
            bodySchema: JobRegisterRequest,
            bodyName: 'the job register body',
          },
          effective,
        );
      }),
    plan: (job, options = {}) =>
      attempt(() => {
        const id = idOfJob(job);
        const body: JobPlanRequest = {
          Job: job,
          ...(options.diff === undefined ? {} : { Diff: requireBoolean(options.diff, 'diff') }),
          ...(options.policyOverride === undefined
            ? {}
            : { PolicyOverride: requireBoolean(options.policyOverride, 'policyOverride') }),
        };
        const effective = registerNamespace(job, options);
        return send(
          transport,
          {
            method: 'POST',
            path: path`/v1/job/${id}/plan`,
            query: commonQuery(effective),
            body,
            bodySchema: JobPlanRequest,
            bodyName: 'the job plan body',
          },
          effective,
        );
      }),
  };
}
