/** Request bodies and checks the job endpoints share: IDs, registration bodies, dispatch payloads. */
import {
  MaxDispatchPayloadBytes,
  type JobInput,
  type JobRegisterRequest,
  type JobSubmissionInput,
} from '@sked/model';
import { InvalidRequestError } from '../errors.js';
import { quote, requireBoolean, requireInteger, requireObject } from '@sked/http';
import { requireId } from '../internal/ids.js';
import type { RequestOptions } from '../options.js';
import type { JobRegisterOptions } from './options.js';

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function jobIdOf(jobId: unknown): string {
  return requireId(jobId, 'jobId', 'Job ID');
}

export function idOfJob(job: unknown): string {
  const body = requireObject(job, 'job');
  return requireId(body['ID'], 'job.ID', 'Job ID (job.ID)');
}

export function registerBody(job: JobInput, options: JobRegisterOptions): JobRegisterRequest {
  return {
    Job: job,
    ...(options.enforceIndex === undefined
      ? {}
      : { EnforceIndex: true, JobModifyIndex: requireInteger(options.enforceIndex, 'enforceIndex') }),
    ...(options.evalPriority === undefined
      ? {}
      : { EvalPriority: requireInteger(options.evalPriority, 'evalPriority', 1, 100) }),
    ...(options.policyOverride === undefined
      ? {}
      : { PolicyOverride: requireBoolean(options.policyOverride, 'policyOverride') }),
    ...(options.preserveCounts === undefined
      ? {}
      : { PreserveCounts: requireBoolean(options.preserveCounts, 'preserveCounts') }),
    ...(options.submission === undefined
      ? {}
      : { Submission: requireObject(options.submission, 'submission') as JobSubmissionInput }),
  };
}

/** The namespace of a registration: the option, else the job's own, else the transport's. */
export function registerNamespace(job: JobInput, options: RequestOptions): RequestOptions {
  const own = (job as { Namespace?: unknown }).Namespace;
  if (options.namespace !== undefined || typeof own !== 'string' || own === '') return options;
  return { ...options, namespace: own };
}

export function encodePayload(payload: Uint8Array | string): string {
  if (typeof payload === 'string') {
    if (!base64Pattern.test(payload)) {
      throw new InvalidRequestError(
        `payload must be bytes or a base64 string, but ${quote(payload.length > 40 ? `${payload.slice(0, 40)}…` : payload)} is not valid base64.`,
        'payload',
        payload,
      );
    }
    const size = (payload.length / 4) * 3 - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
    checkPayloadSize(size, payload);
    return payload;
  }
  if (!(payload instanceof Uint8Array)) {
    throw new InvalidRequestError(
      `payload must be bytes or a base64 string, but got ${quote(payload)}.`,
      'payload',
      payload,
    );
  }
  checkPayloadSize(payload.byteLength, payload);
  // btoa of the bytes as a binary string: the same in Node and in browsers (Buffer is Node's alone)
  let binary = '';
  for (const byte of payload) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function checkPayloadSize(size: number, payload: unknown): void {
  if (size > MaxDispatchPayloadBytes) {
    throw new InvalidRequestError(
      `payload is ${size} bytes, more than the ${MaxDispatchPayloadBytes} bytes a dispatch payload may hold.`,
      'payload',
      payload,
    );
  }
}
