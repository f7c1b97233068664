/**
 * Sends one fuzz case and checks the laws: never a 5xx (nor a WebSocket closed as a server fault),
 * always a message, JSON answers typed `application/json` exactly, every documented 2xx body valid
 * against its schema, no state change after a refused write, no 2xx write for a token without the
 * capability, and the listener alive afterwards.
 *
 * @packageDocumentation
 */
import type { FuzzCase } from './cases.js';
import type { Description, Listener } from './openapi.js';
import { sendRaw, type RawResponse } from './raw-http.js';
import type { Target } from './target.js';

/** What the checks need of a target. */
export type CheckedTarget = Pick<Target, 'acl' | 'ports' | 'tokenHeaders' | 'snapshot' | 'probe'>;

/** The kinds of defect the fuzzer reports. */
export type ProblemKind =
  | 'server-error'
  | 'no-message'
  | 'envelope'
  | 'content-type'
  | 'schema'
  | 'state-change'
  | 'acl-write'
  | 'dead'
  | 'no-answer';

/** A defect, with what reproduces it. */
export interface Problem {
  readonly kind: ProblemKind;
  readonly detail: string;
  readonly fuzzCase: FuzzCase;
  readonly acl: boolean;
  readonly status: number | undefined;
}

/** What one case did. */
export interface Outcome {
  readonly status: number | undefined;
  readonly problems: readonly Problem[];
  /** Whether a 2xx was checked against the operation's documented status and body. */
  readonly documented: boolean;
}

const writes = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/**
 * The one operation that takes POST but is a read (the token self-lookup). Plan and parse change
 * nothing either, but they need a capability: they are checked as writes.
 */
const readLike = new Set(['lookupSelfToken_post']);

/** Decoded names the request's path names, for the secrets snapshot. */
function touchedNames(fuzzCase: FuzzCase): string[] {
  const segment = fuzzCase.target.split('?')[0]?.split('/').at(-1) ?? '';
  return /^[A-Za-z0-9._~%-]+$/.test(segment) && segment.length < 200 ? [segment] : [];
}

function messageOf(response: RawResponse): string {
  const text = response.body.toString('utf8').trim();
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return text;
  try {
    const value = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(value.errors)) return value.errors.join('; ');
  } catch {
    return text;
  }
  return text;
}

/**
 * What is wrong with an error answer's envelope: plain text on the scheduling and mesh listeners,
 * `{"errors": [...]}` JSON on the secrets listener (design/BEHAVIOUR.md).
 */
function envelopeError(listener: Listener, response: RawResponse): string | undefined {
  const type = response.headers.get('content-type') ?? '';
  const text = response.body.toString('utf8');
  if (listener !== 'secrets') {
    return type.startsWith('text/plain')
      ? undefined
      : `error typed "${type}", not text/plain: ${text.slice(0, 120)}`;
  }
  try {
    const value = JSON.parse(text) as { errors?: unknown };
    if (type.startsWith('application/json') && Array.isArray(value.errors)) return undefined;
  } catch {
    // not JSON: reported below
  }
  return `error typed "${type}" is not {"errors": [...]}: ${text.slice(0, 120)}`;
}

/** Whether an error answer may carry no message: the secrets service's documented `404 {"errors":[]}`. */
function emptyMessageAllowed(fuzzCase: FuzzCase, response: RawResponse): boolean {
  return (
    fuzzCase.operation.listener === 'secrets' &&
    response.status === 404 &&
    response.body.toString('utf8').trim() === '{"errors":[]}'
  );
}

function checkSuccess(
  description: Description,
  fuzzCase: FuzzCase,
  response: RawResponse,
  add: (kind: ProblemKind, detail: string) => void,
): boolean {
  const { operation } = fuzzCase;
  const type = response.headers.get('content-type');
  if (
    response.body.length > 0 &&
    type !== undefined &&
    type.includes('json') &&
    type !== 'application/json'
  ) {
    add('content-type', `Content-Type "${type}", not "application/json"`);
  }
  // Only a request of the operation itself answers the operation's documented body.
  const method = fuzzCase.method === 'LIST' ? 'GET' : fuzzCase.method;
  if (fuzzCase.mutation !== 'valid' || operation.stream || method !== operation.method) return false;
  if (response.status !== operation.success) {
    add('schema', `status ${response.status}, documented ${operation.success}`);
    return true;
  }
  if (operation.response === undefined) return true;
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    add('schema', `2xx body is not JSON: ${response.body.toString('utf8').slice(0, 120)}`);
    return true;
  }
  const error = description.validate(operation, body);
  if (error !== undefined) add('schema', error);
  return true;
}

/**
 * Sends a case to a target and checks every law.
 * @param description - The description (schemas).
 * @param target - The server.
 * @param fuzzCase - The request.
 * @returns The status and the defects seen.
 */
export async function checkCase(
  description: Description,
  target: CheckedTarget,
  fuzzCase: FuzzCase,
): Promise<Outcome> {
  const { operation } = fuzzCase;
  const listener = operation.listener;
  const problems: Problem[] = [];
  let status: number | undefined;
  const add = (kind: ProblemKind, detail: string): void => {
    problems.push({ kind, detail, fuzzCase, acl: target.acl, status });
  };
  const write = writes.has(fuzzCase.method) && !readLike.has(operation.operationId);
  const touched = touchedNames(fuzzCase);
  const before = write ? await target.snapshot(listener, touched) : undefined;
  let response: RawResponse;
  try {
    response = await sendRaw(
      target.ports[listener],
      {
        method: fuzzCase.method,
        target: fuzzCase.target,
        headers: { ...fuzzCase.headers, ...target.tokenHeaders(listener, fuzzCase.role) },
        body: fuzzCase.body,
      },
      { stream: operation.stream && fuzzCase.method === 'GET' },
    );
  } catch (error) {
    add('no-answer', (error as Error).message);
    const dead = await target.probe(listener);
    if (dead !== undefined) add('dead', dead);
    return { status, problems, documented: false };
  }
  status = response.status;
  if (status >= 500) add('server-error', `${status} ${messageOf(response).slice(0, 200)}`);
  if (status === 101) {
    const close = response.close;
    if (close === undefined) add('no-answer', 'the WebSocket was not closed');
    else if (close.code === 1011 || close.code >= 4000)
      add('server-error', `closed ${close.code} ${close.reason}`);
    else if (close.code !== 1000 && close.reason.trim() === '')
      add('no-message', `closed ${close.code} without a reason`);
  } else if (status >= 300 && messageOf(response) === '' && !emptyMessageAllowed(fuzzCase, response)) {
    add('no-message', `${status} with an empty message`);
  }
  if (status >= 300 && status !== 101) {
    const envelope = envelopeError(listener, response);
    if (envelope !== undefined) add('envelope', envelope);
  }
  const documented = status >= 200 && status < 300 && checkSuccess(description, fuzzCase, response, add);
  if (write && status >= 300) {
    const after = await target.snapshot(listener, touched);
    const gone = (before ?? []).filter((fact) => !after.includes(fact));
    const added = after.filter((fact) => !(before ?? []).includes(fact));
    if (gone.length + added.length > 0) {
      add(
        'state-change',
        `refused with ${status}, but the state changed: -${JSON.stringify(gone)} +${JSON.stringify(added)}`,
      );
    }
  }
  if (target.acl && write && fuzzCase.role !== 'good' && !operation.open && status >= 200 && status < 300) {
    add('acl-write', `a ${fuzzCase.role} token got ${status} for a write`);
  }
  const dead = await target.probe(listener);
  if (dead !== undefined) add('dead', dead);
  return { status, problems, documented };
}

/**
 * One line that reproduces a case (method, target, headers, body with long runs shortened).
 * @param fuzzCase - The case.
 * @returns The line.
 */
export function describeCase(fuzzCase: FuzzCase): string {
  const shorten = (text: string): string =>
    text.length > 300 ? `${text.slice(0, 150)}…(${text.length} chars)…${text.slice(-60)}` : text;
  const body =
    fuzzCase.body === undefined ? '' : ` body=${shorten(JSON.stringify(fuzzCase.body.toString('latin1')))}`;
  return `${fuzzCase.operation.listener} ${fuzzCase.method} ${shorten(fuzzCase.target)} [${fuzzCase.mutation}, role ${fuzzCase.role}] headers=${JSON.stringify(fuzzCase.headers)}${body}`;
}
