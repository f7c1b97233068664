/**
 * Fault rules: what a test asks the server to do wrong (answer a status, wait, cut the connection)
 * and to which requests. One parser checks a rule, whether it comes from code (`server.faults`) or
 * from the control endpoint's JSON, and names the field that is wrong.
 *
 * @packageDocumentation
 */
import { routePatternToRegExp } from './app.js';
import { isRecord } from './guards.js';

/** The listeners a fault can target. */
export const FAULT_SERVICES = ['scheduler', 'secrets', 'mesh'] as const;

/** A listener of the server: the scheduling, secrets or mesh service. */
export type FaultService = (typeof FAULT_SERVICES)[number];

/** Longest latency a rule may add, in milliseconds (10 minutes: the longest blocking query). */
export const MAX_FAULT_DELAY_MS = 600_000;

/**
 * A fault rule: which requests (`service`, `method`, `path`, counted from `nth` for `times`) and
 * what happens to them (`delayMs`, then `status` with `body` and `headers`, or `reset`).
 */
export interface FaultRule {
  /** Listener whose requests match. @defaultValue every listener */
  readonly service?: FaultService | undefined;
  /** Method, or methods, that match (case does not matter). @defaultValue every method */
  readonly method?: string | readonly string[] | undefined;
  /**
   * Path that matches, without the query: a route pattern as fastify writes them (`:name` is one
   * segment, a `*` segment is the rest of the path; a trailing `/` is ignored) or a regular
   * expression tested against the path as sent (not decoded). @defaultValue every path
   */
  readonly path?: string | RegExp | undefined;
  /** The first matching request that gets the fault, counting from 1 when the rule is added. @defaultValue 1 */
  readonly nth?: number | undefined;
  /** How many matching requests, from the `nth` on, get the fault; `'always'` for every one. @defaultValue 1 */
  readonly times?: number | 'always' | undefined;
  /** Answer with this status (200-599) instead of handling the request. */
  readonly status?: number | undefined;
  /**
   * The answer's body: a string is sent as `text/plain; charset=utf-8`, any other JSON value as
   * `application/json`. @defaultValue for a status of 400 or more, the listener's own error answer
   * with the message `injected fault`; else empty
   */
  readonly body?: unknown;
  /** Headers added to that answer. @defaultValue none */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Milliseconds to wait before the request is handled (or answered with `status`). @defaultValue 0 */
  readonly delayMs?: number | undefined;
  /** Cut the connection without answering (a network failure). @defaultValue false */
  readonly reset?: boolean | undefined;
}

/** A rule as checked: every default filled in. */
export interface CheckedFaultRule {
  readonly service: FaultService | undefined;
  readonly methods: ReadonlySet<string> | undefined;
  readonly path: string | RegExp | undefined;
  readonly pathPattern: RegExp | undefined;
  readonly nth: number;
  readonly times: number;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly delayMs: number;
  readonly reset: boolean;
}

/** Which open requests {@link FaultRule}-like filters select (drops). */
export interface FaultFilter {
  /** Listener. @defaultValue every listener */
  readonly service?: FaultService | undefined;
  /** Method or methods. @defaultValue every method */
  readonly method?: string | readonly string[] | undefined;
  /** Path pattern, as {@link FaultRule.path}. @defaultValue every path */
  readonly path?: string | RegExp | undefined;
}

const brand = Symbol.for('@sked/server/FaultRuleError');

/** A fault rule (or drop filter) that cannot be used; the message names the field. */
export class FaultRuleError extends Error {
  /** Literal class name. */
  override readonly name = 'FaultRuleError' as const;
  /** The field that is wrong (`status`, `headers.x-a`, ...), or `rule` for the whole. */
  readonly field: string;
  readonly [brand] = true;

  /**
   * @param field - The field that is wrong.
   * @param message - What is wrong, naming the field and quoting the value.
   */
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }

  /**
   * Whether a value is a {@link FaultRuleError}, across copies of the package.
   * @param value - Anything.
   * @returns True for a {@link FaultRuleError}.
   */
  static is(value: unknown): value is FaultRuleError {
    return typeof value === 'object' && value !== null && brand in value;
  }
}

const RULE_KEYS: ReadonlySet<string> = new Set([
  'service',
  'method',
  'path',
  'nth',
  'times',
  'status',
  'body',
  'headers',
  'delayMs',
  'reset',
]);
const FILTER_KEYS: ReadonlySet<string> = new Set(['service', 'method', 'path']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers that frame the answer: the server sets them, a rule cannot. */
const FRAMING: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
]);

function quote(value: unknown): string {
  if (value instanceof RegExp) return String(value);
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function fail(field: string, message: string): never {
  throw new FaultRuleError(field, `fault rule: ${JSON.stringify(field)} ${message}`);
}

function checkService(value: unknown): FaultService | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (FAULT_SERVICES as readonly string[]).includes(value)) {
    return value as FaultService;
  }
  return fail('service', `must be one of ${FAULT_SERVICES.join(', ')}, got ${quote(value)}`);
}

function checkMethods(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > 16) fail('method', `must name 1 to 16 methods, got ${list.length}`);
  return new Set(
    list.map((method) => {
      if (typeof method !== 'string' || method.length > 32 || !TOKEN.test(method)) {
        return fail('method', `must be an HTTP method such as "GET", got ${quote(method)}`);
      }
      return method.toUpperCase();
    }),
  );
}

function checkPath(value: unknown): { path: string | RegExp | undefined; pattern: RegExp | undefined } {
  if (value === undefined) return { path: undefined, pattern: undefined };
  if (value instanceof RegExp) return { path: value, pattern: value };
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 1024) {
    return fail(
      'path',
      `must be a path pattern starting with "/" (at most 1024 characters), got ${quote(value)}`,
    );
  }
  if (/[\s?#]|\p{Cc}/u.test(value)) {
    return fail('path', `must be a path without spaces, query or fragment, got ${quote(value)}`);
  }
  return { path: value, pattern: routePatternToRegExp(value.length > 1 ? value.replace(/\/+$/, '') : value) };
}

function checkInteger(field: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    return fail(field, `must be an integer from ${min} to ${max}, got ${quote(value)}`);
  }
  return value;
}

function checkHeaders(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (!isRecord(value))
    return fail('headers', `must be an object of header names to strings, got ${quote(value)}`);
  const names = Object.keys(value);
  if (names.length > 50) fail('headers', `must hold at most 50 headers, got ${names.length}`);
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of names) {
    const text = Object.getOwnPropertyDescriptor(value, name)?.value as unknown;
    if (!TOKEN.test(name) || name.length > 256)
      fail('headers', `names a header ${quote(name)} that is not a header name`);
    if (FRAMING.has(name.toLowerCase())) fail(`headers.${name}`, 'frames the answer: the server sets it');
    if (typeof text !== 'string' || text.length > 8192 || /[\r\n\0]/.test(text)) {
      fail(
        `headers.${name}`,
        `must be a string of at most 8192 characters without CR, LF or NUL, got ${quote(text)}`,
      );
    }
    out[name.toLowerCase()] = text;
  }
  return out;
}

function checkBody(value: unknown): unknown {
  if (value === undefined || typeof value === 'string') return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return fail(
      'body',
      `must be a string or a JSON value: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (text === undefined)
    return fail('body', `must be a string or a JSON value, got a value of type ${typeof value}`);
  return JSON.parse(text) as unknown;
}

function unknownKeys(value: Record<string, unknown>, known: ReadonlySet<string>, what: string): void {
  const extra = Object.keys(value).find((key) => !known.has(key));
  if (extra !== undefined) {
    fail(extra, `is not a field of a ${what} (fields: ${[...known].join(', ')})`);
  }
}

/**
 * Checks a fault rule (from code or from the control endpoint's JSON) and fills in its defaults.
 * @param value - The rule.
 * @returns The checked rule.
 * @throws {@link FaultRuleError} naming the field that is wrong (unknown fields included), or
 *   saying that the rule does nothing (no `status`, `delayMs` or `reset`).
 */
export function checkFaultRule(value: unknown): CheckedFaultRule {
  if (!isRecord(value)) return fail('rule', `must be an object, got ${quote(value)}`);
  unknownKeys(value, RULE_KEYS, 'fault rule');
  const get = (key: string): unknown => Object.getOwnPropertyDescriptor(value, key)?.value as unknown;
  const { path, pattern } = checkPath(get('path'));
  const rawTimes = get('times');
  const times =
    rawTimes === 'always' ? Number.POSITIVE_INFINITY : checkInteger('times', rawTimes, 1, 1_000_000_000, 1);
  const status = get('status') === undefined ? undefined : checkInteger('status', get('status'), 200, 599, 0);
  const reset = get('reset');
  if (reset !== undefined && typeof reset !== 'boolean')
    fail('reset', `must be true or false, got ${quote(reset)}`);
  const delayMs = checkInteger('delayMs', get('delayMs'), 0, MAX_FAULT_DELAY_MS, 0);
  const body = checkBody(get('body'));
  const headers = checkHeaders(get('headers'));
  if (reset === true && status !== undefined)
    fail('reset', 'cannot be combined with "status": a cut connection answers nothing');
  if (status === undefined && (body !== undefined || Object.keys(headers).length > 0)) {
    fail(body !== undefined ? 'body' : 'headers', 'needs a "status" to answer with');
  }
  if (status === undefined && reset !== true && delayMs === 0) {
    fail('rule', 'does nothing: give it a "status", a "delayMs" or "reset": true');
  }
  return {
    service: checkService(get('service')),
    methods: checkMethods(get('method')),
    path,
    pathPattern: pattern,
    nth: checkInteger('nth', get('nth'), 1, 1_000_000_000, 1),
    times,
    status,
    body,
    headers,
    delayMs,
    reset: reset === true,
  };
}

/** A checked filter of open requests. */
export interface CheckedFaultFilter {
  readonly service: FaultService | undefined;
  readonly methods: ReadonlySet<string> | undefined;
  readonly pathPattern: RegExp | undefined;
}

/**
 * Checks which open requests a drop selects.
 * @param value - `{ service, method, path }`, each optional.
 * @returns The checked filter.
 * @throws {@link FaultRuleError} naming the field that is wrong.
 */
export function checkFaultFilter(value: unknown): CheckedFaultFilter {
  if (value === undefined) return { service: undefined, methods: undefined, pathPattern: undefined };
  if (!isRecord(value)) return fail('filter', `must be an object, got ${quote(value)}`);
  unknownKeys(value, FILTER_KEYS, 'drop filter');
  const get = (key: string): unknown => Object.getOwnPropertyDescriptor(value, key)?.value as unknown;
  return {
    service: checkService(get('service')),
    methods: checkMethods(get('method')),
    pathPattern: checkPath(get('path')).pattern,
  };
}

/**
 * Whether a request matches a rule's or a filter's `service`, `method` and `path`.
 * @param filter - The checked rule or filter.
 * @param request - The request's listener, method and path (without the query).
 * @returns Whether it matches.
 */
export function faultMatches(
  filter: Pick<CheckedFaultFilter, 'service' | 'methods' | 'pathPattern'>,
  request: { readonly service: FaultService; readonly method: string; readonly path: string },
): boolean {
  if (filter.service !== undefined && filter.service !== request.service) return false;
  if (filter.methods !== undefined && !filter.methods.has(request.method.toUpperCase())) return false;
  if (filter.pathPattern !== undefined) {
    filter.pathPattern.lastIndex = 0;
    if (!filter.pathPattern.test(request.path)) return false;
  }
  return true;
}
