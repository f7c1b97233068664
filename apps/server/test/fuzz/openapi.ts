/**
 * The fuzzer's view of `GET /v1/openapi.json`: the operations of the three listeners, an ajv
 * (JSON Schema 2020-12) validator for each documented 2xx body, and fast-check arbitraries of
 * values that follow a documented schema.
 *
 * @packageDocumentation
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';

type Schema = Readonly<Record<string, unknown>>;

/** The listener an operation is served on (the operation's tag). */
export type Listener = 'scheduler' | 'secrets' | 'mesh';

/** One operation (a method of a path) of the description. */
export interface Operation {
  readonly listener: Listener;
  readonly method: string;
  /** The OpenAPI path, `/v1/job/{job_id}`. */
  readonly path: string;
  readonly operationId: string;
  /** Path parameter names, in order. */
  readonly pathParameters: readonly string[];
  /** Query parameters with their schema and whether they are required. */
  readonly query: readonly { readonly name: string; readonly schema: Schema; readonly required: boolean }[];
  /** The request body schema, when the operation takes one. */
  readonly body: Schema | undefined;
  readonly bodyRequired: boolean;
  /** The documented success status (101 for a WebSocket). */
  readonly success: number;
  /** The documented success body schema. */
  readonly response: Schema | undefined;
  /** A WebSocket endpoint. */
  readonly websocket: boolean;
  /** An endpoint whose answer does not end (newline-delimited JSON). */
  readonly stream: boolean;
  /** Whether it needs no token. */
  readonly open: boolean;
}

/** The description, read once. */
export interface Description {
  readonly document: Schema;
  readonly operations: readonly Operation[];
  /** Validates a 2xx body; undefined when it conforms, else the ajv errors as text. */
  validate(operation: Operation, body: unknown): string | undefined;
  /** An arbitrary of values the schema accepts (as far as the generator knows the keywords). */
  arbitrary(schema: Schema): fc.Arbitrary<unknown>;
  /** Resolves a `$ref`. */
  resolve(schema: Schema): Schema;
}

const methods = ['get', 'post', 'put', 'delete'] as const;

function asSchema(value: unknown): Schema {
  return (typeof value === 'object' && value !== null ? value : {}) as Schema;
}

function listenerOf(tags: unknown): Listener {
  const tag = Array.isArray(tags) ? tags[0] : undefined;
  if (tag === 'scheduler' || tag === 'secrets' || tag === 'mesh') return tag;
  throw new Error(`operation with an unknown tag ${JSON.stringify(tags)}`);
}

function readOperation(path: string, method: string, raw: Schema): Operation {
  const parameters = (raw['parameters'] ?? []) as Schema[];
  const responses = asSchema(raw['responses']);
  const success = Object.keys(responses)
    .map(Number)
    .find((code) => code < 300);
  if (success === undefined) throw new Error(`${method} ${path} documents no success`);
  const content = asSchema(asSchema(responses[String(success)])['content']);
  const requestBody = asSchema(raw['requestBody']);
  const bodyContent = asSchema(asSchema(requestBody['content'])['application/json']);
  return {
    listener: listenerOf(raw['tags']),
    method: method.toUpperCase(),
    path,
    operationId: String(raw['operationId']),
    pathParameters: parameters.filter((p) => p['in'] === 'path').map((p) => String(p['name'])),
    query: parameters
      .filter((p) => p['in'] === 'query')
      .map((p) => ({
        name: String(p['name']),
        schema: asSchema(p['schema']),
        required: p['required'] === true,
      })),
    body: bodyContent['schema'] === undefined ? undefined : asSchema(bodyContent['schema']),
    bodyRequired: requestBody['required'] === true,
    success,
    response:
      content['application/json'] === undefined
        ? undefined
        : asSchema(asSchema(content['application/json'])['schema']),
    websocket: success === 101,
    stream: String(asSchema(responses[String(success)])['description']).includes('newline-delimited'),
    open: Array.isArray(raw['security']) && raw['security'].length === 0,
  };
}

/**
 * Reads the description served by the scheduling listener.
 * @param document - The parsed `GET /v1/openapi.json`.
 * @returns The operations, a validator and a generator.
 */
export function readDescription(document: Schema): Description {
  const paths = asSchema(document['paths']);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of methods) {
      const raw = asSchema(item)[method];
      if (raw !== undefined) operations.push(readOperation(path, method, asSchema(raw)));
    }
  }
  const schemas = asSchema(asSchema(document['components'])['schemas']);
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ $id: 'sked:openapi', components: { schemas } });
  const validators = new Map<Operation, ValidateFunction>();
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"sked:openapi#/components/'));
  const resolve = (schema: Schema): Schema => {
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    if (!Object.hasOwn(schemas, name)) throw new Error(`unresolvable $ref ${ref}`);
    return resolve(asSchema(schemas[name]));
  };
  return {
    document,
    operations,
    resolve,
    validate(operation, body) {
      if (operation.response === undefined) return undefined;
      let validator = validators.get(operation);
      if (validator === undefined) {
        validator = ajv.compile(asSchema(rewrite(operation.response)));
        validators.set(operation, validator);
      }
      if (validator(body)) return undefined;
      return ajv.errorsText(validator.errors, { separator: '; ' });
    },
    arbitrary: (schema) => valueOf(schema, resolve, 0),
  };
}

const MAX_DEPTH = 6;

function typeArbitrary(
  type: string,
  schema: Schema,
  resolve: (s: Schema) => Schema,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: typeof schema['minimum'] === 'number' ? schema['minimum'] : -1000,
        max: typeof schema['maximum'] === 'number' ? schema['maximum'] : 100_000,
      });
    case 'number':
      return fc.double({ min: 0, max: 1000, noNaN: true });
    case 'string': {
      if (typeof schema['pattern'] === 'string') return fc.stringMatching(new RegExp(schema['pattern']));
      const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
      const maxLength =
        typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Math.max(minLength, 12);
      return fc.string({ minLength, maxLength });
    }
    case 'array': {
      const minLength = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const maxLength = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Math.max(minLength, 2);
      if (depth >= MAX_DEPTH && minLength === 0) return fc.constant([]);
      return fc.array(valueOf(asSchema(schema['items']), resolve, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, resolve, depth);
    default:
      return fc.constant(null);
  }
}

function objectArbitrary(
  schema: Schema,
  resolve: (s: Schema) => Schema,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = asSchema(schema['properties']);
  const required = new Set((schema['required'] ?? []) as string[]);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    // Deep in the tree only what is required, so values stay small.
    if (depth >= MAX_DEPTH && !required.has(name)) continue;
    record[name] = valueOf(asSchema(sub), resolve, depth + 1);
  }
  const base = fc.record(record, { requiredKeys: [...required].filter((name) => name in record) });
  const patterns = Object.values(asSchema(schema['patternProperties']));
  if (patterns.length === 0 || depth >= MAX_DEPTH) return base;
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }),
    valueOf(asSchema(patterns[0]), resolve, depth + 1),
    { maxKeys: 2, noNullPrototype: true },
  );
  return fc.tuple(base, extra).map(([a, b]) => ({ ...b, ...(a as object) }));
}

/**
 * An arbitrary of values accepted by a schema, for the keywords the model's schemas use.
 * @param schema - The schema.
 * @param resolve - Resolves `$ref`.
 * @param depth - How deep the value already is.
 * @returns The arbitrary.
 */
function valueOf(schema: Schema, resolve: (s: Schema) => Schema, depth: number): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  if ('const' in resolved) return fc.constant(resolved['const']);
  if (Array.isArray(resolved['enum'])) return fc.constantFrom(...(resolved['enum'] as unknown[]));
  const choices = (resolved['anyOf'] ?? resolved['oneOf']) as Schema[] | undefined;
  if (Array.isArray(choices)) {
    // Past the depth limit, prefer the simplest branch (null, a scalar) so values end.
    if (depth >= MAX_DEPTH)
      return valueOf(choices.find((c) => c['type'] === 'null') ?? choices[0] ?? {}, resolve, depth);
    return fc.oneof(...choices.map((choice) => valueOf(choice, resolve, depth + 1)));
  }
  const type = resolved['type'];
  if (Array.isArray(type))
    return fc.oneof(...type.map((t) => typeArbitrary(String(t), resolved, resolve, depth)));
  if (typeof type === 'string') return typeArbitrary(type, resolved, resolve, depth);
  if (resolved['properties'] !== undefined) return objectArbitrary(resolved, resolve, depth);
  return fc.jsonValue({ maxDepth: 2 });
}
