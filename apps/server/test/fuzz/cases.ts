/**
 * The fuzzer's requests as fast-check arbitraries: for every operation of the description, valid
 * requests (a seed body or one generated from the documented schema, path values that exist or
 * are fresh, documented query parameters) and malformed ones (one {@link Mutation} applied).
 *
 * @packageDocumentation
 */
import fc from 'fast-check';
import type { Description, Operation } from './openapi.js';
import {
  MARKERS,
  anyTypeValue,
  hostileNames,
  hostileQueryValues,
  hostileSegments,
  notJsonBodies,
  pathsOf,
  replaceAt,
  spliceMarkers,
  wrongContentTypes,
  type Mutation,
} from './mutations.js';
import { preferredPathValue, seedBody } from './seeds.js';

/** Who sends the request: the token that may do everything, a read-only one, none, or an unknown one. */
export type Role = 'good' | 'reader' | 'none' | 'bogus';

/** One request of the fuzzer. */
export interface FuzzCase {
  readonly operation: Operation;
  /** `valid`, or the mutation that makes it malformed. */
  readonly mutation: 'valid' | Mutation;
  readonly method: string;
  /** The request target: path and query, escaped as sent. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  readonly role: Role;
}

/** What the arbitraries draw path values from. */
export interface CasePools {
  /** Existing values by path parameter name (`job_id`, `alloc_id`, `name`, ...). */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** A peering token made at set-up. */
  readonly peeringToken: string;
  /** The roles requests are sent as. */
  readonly roles: readonly Role[];
}

const freshName = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
/** Names a valid request may carry that are also properties of every plain object, or dotted. */
const trickyName = fc.constantFrom(
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'a.b.c',
  'ns.dotted',
);

/** Values of parameters whose meaning a random string would miss (mostly ones that exist). */
const namedValues = new Map<string, fc.Arbitrary<string>>([
  ['region', fc.oneof({ arbitrary: fc.constant('global'), weight: 4 }, freshName, trickyName)],
  [
    'namespace',
    fc.oneof({ arbitrary: fc.constant('default'), weight: 4 }, fc.constant('*'), freshName, trickyName),
  ],
  ['version', fc.constantFrom('0', '1', '2')],
  ['per_page', fc.integer({ min: 1, max: 5 }).map(String)],
  [
    'filter',
    fc.constantFrom('ID != ""', 'Meta.team == "frontend"', 'Status == "running"', '"dc1" in Datacenters'),
  ],
  ['prefix', fc.constantFrom('', 'ab', 'we')],
  ['node', fc.constantFrom('nope', 'ab')],
  ['type', fc.constantFrom('csi')],
  ['partition', fc.constantFrom('default')],
]);

function queryValue(name: string, schema: Record<string, unknown>): fc.Arbitrary<string> {
  const named = namedValues.get(name);
  if (named !== undefined) return named;
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]).map(String));
  switch (schema['type']) {
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'integer':
      return fc.nat({ max: 1000 }).map(String);
    case 'array':
      return fc.constantFrom('Job', 'Allocation:*', '*');
    default:
      return fc.oneof(fc.constantFrom('default', '1s', 'a'), freshName, trickyName);
  }
}

/** The query of a valid request: every required parameter, some of the others. */
function validQuery(operation: Operation): fc.Arbitrary<[string, string][]> {
  // `wait` with an `index` would block: the fuzzer keeps reads short.
  const params = operation.query.filter((p) => p.name !== 'index' && p.name !== 'wait' && p.name !== 'topic');
  const draws = params.map((p) =>
    fc
      .tuple(p.required ? fc.constant(true) : fc.boolean(), queryValue(p.name, p.schema))
      .map(([take, value]): [string, string][] => (take ? [[p.name, encodeURIComponent(value)]] : [])),
  );
  return fc.tuple(...draws).map((lists) => lists.flat());
}

function pathValue(operation: Operation, name: string, pools: CasePools): fc.Arbitrary<string> {
  const preferred = preferredPathValue(operation.operationId, name);
  const known = preferred === undefined ? (pools.values.get(name) ?? []) : [preferred];
  const other = fc.oneof({ arbitrary: freshName, weight: 3 }, trickyName);
  return known.length === 0 ? other : fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 2 }, other);
}

function buildTarget(
  operation: Operation,
  segments: readonly string[],
  query: readonly [string, string][],
): string {
  let index = 0;
  const path = operation.path.replace(/\{\w+\}/g, () => segments[index++] ?? '');
  return query.length === 0 ? path : `${path}?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** A valid body: the operation's seed, or a value of the documented schema. */
function validBody(description: Description, operation: Operation, seed: unknown): fc.Arbitrary<unknown> {
  if (operation.body === undefined) return fc.constant(undefined);
  const generated = description.arbitrary(operation.body);
  return seed === undefined ? generated : fc.oneof({ arbitrary: fc.constant(seed), weight: 3 }, generated);
}

/** Applies a body mutation to a valid body; undefined when it does not apply. */
function mutateBody(
  mutation: Mutation,
  body: unknown,
): fc.Arbitrary<{ body: unknown; raw?: Buffer; type?: string }> {
  const paths = pathsOf(body);
  const at = paths.length === 0 ? fc.constant([] as (string | number)[]) : fc.constantFrom(...paths);
  const objects = [[], ...paths.filter((p) => isObjectAt(body, p))];
  switch (mutation) {
    case 'wrong-type':
      return fc.tuple(at, anyTypeValue).map(([path, value]) => ({ body: replaceAt(body, path, value) }));
    case 'missing-property':
      return at.map((path) => ({ body: path.length === 0 ? {} : replaceAt(body, path, undefined, true) }));
    case 'unknown-property':
      return fc
        .tuple(fc.constantFrom(...objects), fc.constantFrom(...hostileNames), anyTypeValue)
        .map(([path, name, value]) => ({ body: replaceAt(body, [...path, name], value) }));
    case 'deep-nesting':
    case 'huge-string':
    case 'invalid-utf8':
    case 'huge-integer': {
      const markers = {
        'deep-nesting': [MARKERS.deep, MARKERS.deepArray, MARKERS.deepHcl],
        'huge-string': [MARKERS.huge],
        'invalid-utf8': [MARKERS.badUtf8],
        'huge-integer': [MARKERS.bigInteger, MARKERS.bigExponent, MARKERS.unsafeInteger],
      }[mutation];
      // Either a property's value or a new property of an object.
      const place = fc.oneof(
        at.map((path) => ({ path, add: false })),
        fc.constantFrom(...objects).map((path) => ({ path: [...path, 'Fuzz'], add: true })),
      );
      return fc.tuple(place, fc.constantFrom(...markers)).map(([{ path }, marker]) => {
        const value = replaceAt(body, path, marker);
        return { body: value, raw: spliceMarkers(value) };
      });
    }
    case 'not-json':
      return fc.constantFrom(...notJsonBodies).map((text) => ({ body, raw: Buffer.from(text) }));
    case 'wrong-content-type':
      return fc.constantFrom(...wrongContentTypes).map((type) => ({ body, type }));
    default:
      return fc.constant({ body });
  }
}

function isObjectAt(body: unknown, path: readonly (string | number)[]): boolean {
  let node = body;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

const bodyMutations: readonly Mutation[] = [
  'wrong-type',
  'missing-property',
  'unknown-property',
  'deep-nesting',
  'huge-string',
  'invalid-utf8',
  'huge-integer',
  'not-json',
  'wrong-content-type',
];

/** The mutations that apply to an operation (body ones only where it takes a body). */
export function mutationsOf(operation: Operation): Mutation[] {
  const out: Mutation[] = ['hostile-query', 'wrong-method'];
  if (operation.pathParameters.length > 0) out.push('hostile-path');
  if (operation.body !== undefined) out.push(...bodyMutations);
  return out;
}

/**
 * Requests for one operation: valid ones, or malformed with `mutation` applied.
 * @param description - The description (schemas).
 * @param operation - The operation.
 * @param mutation - `valid`, or how to break the request.
 * @param pools - Path values and roles.
 * @returns The arbitrary.
 */
export function caseArbitrary(
  description: Description,
  operation: Operation,
  mutation: 'valid' | Mutation,
  pools: CasePools,
): fc.Arbitrary<FuzzCase> {
  const segments = fc.tuple(...operation.pathParameters.map((name) => pathValue(operation, name, pools)));
  return fc
    .tuple(segments, validQuery(operation), fc.constantFrom(...pools.roles))
    .chain(([values, query, role]) => {
      const path = new Map(operation.pathParameters.map((name, i) => [name, values[i] ?? '']));
      const seed = seedBody(operation.operationId, { path, peeringToken: pools.peeringToken });
      const encoded = values.map((value) => encodeURIComponent(value));
      return validBody(description, operation, seed).chain((body) =>
        malformed(operation, mutation, { encoded, query, body, role }),
      );
    });
}

interface Parts {
  readonly encoded: readonly string[];
  readonly query: readonly [string, string][];
  readonly body: unknown;
  readonly role: Role;
}

function malformed(operation: Operation, mutation: 'valid' | Mutation, parts: Parts): fc.Arbitrary<FuzzCase> {
  const make = (
    over: Partial<Omit<FuzzCase, 'operation' | 'mutation'>> & {
      raw?: Buffer;
      type?: string;
      value?: unknown;
    },
  ): FuzzCase => {
    const value = 'value' in over ? over.value : parts.body;
    const raw = over.raw ?? (value === undefined ? undefined : Buffer.from(JSON.stringify(value)));
    const headers: Record<string, string> = {};
    if (raw !== undefined) headers['content-type'] = over.type ?? 'application/json';
    return {
      operation,
      mutation,
      method: over.method ?? operation.method,
      target: over.target ?? buildTarget(operation, parts.encoded, parts.query),
      headers,
      body: raw,
      role: parts.role,
    };
  };
  if (mutation === 'valid') {
    // The secrets service's lists are also asked with the LIST verb (no `list=true`).
    if (operation.listener !== 'secrets' || !operation.query.some((p) => p.name === 'list' && p.required)) {
      return fc.constant(make({}));
    }
    const verb = make({ method: 'LIST', target: buildTarget(operation, parts.encoded, []) });
    return fc.constantFrom(make({}), verb);
  }
  if (mutation === 'hostile-query') {
    const names = [...operation.query.map((p) => p.name), ...hostileNames.filter((n) => n !== '')];
    return fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(...hostileQueryValues), fc.boolean())
      .map(([name, value, repeat]) => {
        const query: [string, string][] = [
          ...parts.query.filter(([k]) => k !== name || repeat),
          [name, value],
        ];
        return make({ target: buildTarget(operation, parts.encoded, query) });
      });
  }
  if (mutation === 'hostile-path') {
    return fc
      .tuple(fc.nat({ max: parts.encoded.length - 1 }), fc.constantFrom(...hostileSegments))
      .map(([index, segment]) => {
        const encoded = parts.encoded.map((value, i) => (i === index ? segment : value));
        return make({ target: buildTarget(operation, encoded, parts.query) });
      });
  }
  if (mutation === 'wrong-method') {
    const others = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'LIST', 'TRACE'].filter(
      (m) => m !== operation.method,
    );
    return fc.constantFrom(...others).map((method) => make({ method }));
  }
  return mutateBody(mutation, parts.body).map(({ body, raw, type }) =>
    make({ value: body, ...(raw === undefined ? {} : { raw }), ...(type === undefined ? {} : { type }) }),
  );
}
