/**
 * Validation of values against the model's schemas, with problems a user can act on.
 *
 * @packageDocumentation
 */
import type { Static, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { Settings } from 'typebox/system';

import { ValidationError } from './errors.js';

/**
 * One reason a value does not match a schema.
 *
 * @since 0.1.0
 */
export interface ValidationProblem {
  /** JSON Pointer (RFC 6901) of the offending value inside the validated one, for example `/Job/TaskGroups/0/Count`; `""` is the value itself. */
  readonly path: string;
  /** What is wrong, phrased for a user, for example `expected an integer but got the string "x"`. */
  readonly message: string;
}

/**
 * Result of {@link validate}: the typed value, or every problem found.
 *
 * @since 0.1.0
 */
export type ValidationResult<T> =
  | {
      /** The value matches the schema. */
      readonly ok: true;
      /** The validated value itself (not a copy; unknown extra fields are kept). */
      readonly value: T;
    }
  | {
      /** The value does not match the schema. */
      readonly ok: false;
      /** The problems, in document order; never empty. */
      readonly problems: readonly ValidationProblem[];
    };

/**
 * Options of {@link validate}.
 *
 * @since 0.1.0
 */
export interface ValidateOptions {
  /**
   * Most problems listed; further ones are summarised by one last problem at the root
   * (`"... and 12 more problems"`, or `"... and more problems"` when the search stopped early), so a
   * hostile body can make neither the answer huge nor the search long.
   *
   * @defaultValue 100
   */
  readonly maxProblems?: number;
}

interface RawError {
  readonly keyword: string;
  readonly schemaPath: string;
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

const DEFAULT_MAX_PROBLEMS = 100;
/**
 * Raw errors collected per listed problem, at most (a value with a million bad items should not cost a
 * million messages; TypeBox's error pass slows down with the number of errors it buffers).
 */
const RAW_ERRORS_PER_PROBLEM = 4;

const validators = new WeakMap<TSchema, Validator>();

/**
 * TypeBox buffers at most `maxErrors` errors (8 by default, a global setting). Raise the limit for this
 * synchronous call only, so every problem is found without changing the setting for anyone else.
 */
function collectErrors(validator: Validator, value: unknown, limit: number): RawError[] {
  const previous = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: limit });
  try {
    return validator.Errors(value) as unknown as RawError[];
  } finally {
    Settings.Set({ maxErrors: previous });
  }
}

function validatorFor(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = Compile(schema) as unknown as Validator;
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Checks a value against a schema and returns it typed, or lists every problem.
 *
 * The validator of each schema is compiled on first use and cached (by schema object), so
 * validating on every request costs one compiled check. `validate` never throws: a value that
 * cannot even be inspected (a throwing getter, a revoked proxy) is reported as a problem.
 *
 * @param schema - One of the model's schemas, for example {@link JobRegisterRequest}.
 * @param value - Any value, typically a parsed JSON body.
 * @param options - See {@link ValidateOptions}.
 * @returns `{ ok: true, value }` with the value typed by the schema, or `{ ok: false, problems }`.
 * @example
 * ```ts
 * const result = validate(JobRegisterRequest, { Job: { ID: 'web', TaskGroups: [{ Name: 'g', Count: 'x' }] } });
 * if (!result.ok) console.log(formatProblems(result.problems));
 * // Job.TaskGroups[0].Count: expected an integer but got the string "x"
 * ```
 * @since 0.1.0
 */
export function validate<S extends TSchema>(
  schema: S,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult<Static<S>> {
  const maxProblems = Math.max(1, Math.floor(options.maxProblems ?? DEFAULT_MAX_PROBLEMS));
  try {
    const validator = validatorFor(schema);
    if (validator.Check(value)) return { ok: true, value: value as Static<S> };
    const limit = maxProblems * RAW_ERRORS_PER_PROBLEM + 8;
    const errors = collectErrors(validator, value, limit);
    const full = errors.length >= limit;
    const problems = toProblems(errors, { root: value, schema }, full);
    if (problems.length === 0) {
      problems.push({ path: '', message: 'does not match the expected shape' });
    }
    if (problems.length > maxProblems || full) {
      const kept = problems.slice(0, maxProblems - 1);
      const rest = problems.length - kept.length;
      kept.push({ path: '', message: full ? '... and more problems' : `... and ${rest} more problems` });
      return { ok: false, problems: kept };
    }
    return { ok: false, problems };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [{ path: '', message: `could not be validated: ${truncate(reason, 200)}` }],
    };
  }
}

/**
 * Options of {@link assertValid}.
 *
 * @since 0.1.0
 */
export interface AssertValidOptions extends ValidateOptions {
  /**
   * What is validated, in words, for the error message (for example `the job register body`).
   *
   * @defaultValue `"the value"`
   */
  readonly subject?: string;
}

/**
 * Checks a value against a schema and returns it typed, or throws every problem.
 *
 * @param schema - One of the model's schemas.
 * @param value - Any value.
 * @param options - See {@link AssertValidOptions}.
 * @returns The value, typed by the schema.
 * @throws {@link ValidationError} when the value does not match; its `problems` are those of {@link validate}.
 * @example
 * ```ts
 * const body = assertValid(JobRegisterRequest, JSON.parse(text), { subject: 'the job register body' });
 * ```
 * @since 0.1.0
 */
export function assertValid<S extends TSchema>(
  schema: S,
  value: unknown,
  options: AssertValidOptions = {},
): Static<S> {
  const result = validate(schema, value, options);
  if (!result.ok) throw new ValidationError(options.subject ?? 'the value', result.problems);
  return result.value;
}

/**
 * Type guard: whether a value matches a schema (the compiled, cached check without building problems).
 *
 * @param schema - One of the model's schemas.
 * @param value - Any value.
 * @returns `true` when `value` matches `schema`; never throws.
 * @example
 * ```ts
 * if (matches(EventEnvelope, JSON.parse(line))) handle(line);
 * ```
 * @since 0.1.0
 */
export function matches<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  try {
    return validatorFor(schema).Check(value);
  } catch {
    return false;
  }
}

/**
 * Formats problems one per line as `<dotted path>: <message>`, for error responses and CLI output.
 *
 * Paths are printed the way a user writes them in code: `Job.TaskGroups[0].Count`, `Job.Meta["a b"]`;
 * the value itself is `(root)`.
 *
 * @param problems - Problems from {@link validate}.
 * @returns The lines joined with `\n` (`""` for no problems).
 * @example
 * ```ts
 * formatProblems([{ path: '/Job/TaskGroups/0/Count', message: 'expected an integer but got the string "x"' }]);
 * // 'Job.TaskGroups[0].Count: expected an integer but got the string "x"'
 * ```
 * @since 0.1.0
 */
export function formatProblems(problems: readonly ValidationProblem[]): string {
  return problems.map((problem) => `${pointerToDotted(problem.path)}: ${problem.message}`).join('\n');
}

/**
 * Converts a JSON Pointer into the dotted form {@link formatProblems} prints.
 *
 * @param pointer - A JSON Pointer such as `/Job/TaskGroups/0/Count`.
 * @returns The dotted form such as `Job.TaskGroups[0].Count`, or `(root)` for `""`.
 * @since 0.1.0
 */
export function pointerToDotted(pointer: string): string {
  if (pointer === '') return '(root)';
  let out = '';
  for (const segment of parsePointer(pointer)) {
    if (/^(?:0|[1-9][0-9]*)$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(truncate(segment, 100))}]`;
  }
  return out;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function escapeSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function valueAt(root: unknown, pointer: string): unknown {
  let current: unknown = root;
  for (const segment of parsePointer(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function ancestors(pointer: string): string[] {
  const out = [pointer];
  let current = pointer;
  while (current !== '') {
    current = current.slice(0, current.lastIndexOf('/'));
    out.push(current);
  }
  return out;
}

interface Context {
  /** The validated value. */
  readonly root: unknown;
  /** The schema validated against. */
  readonly schema: TSchema;
}

function toProblems(
  allErrors: readonly RawError[],
  context: Context,
  truncated: boolean,
): ValidationProblem[] {
  let errors = allErrors;
  if (truncated) {
    // The search stopped before some unions reported their own (summary) error. Their other branches'
    // errors still read well on their own, except the "must be null" of a nullable field: drop those.
    const anyOfs = new Set(
      errors
        .filter((error) => error.keyword === 'anyOf')
        .map((error) => `${error.schemaPath} ${error.instancePath}`),
    );
    errors = errors.filter((error) => {
      if (error.keyword !== 'type' || error.params.type !== 'null') return true;
      const union = error.schemaPath.replace(/\/anyOf\/\d+$/, '');
      return union === error.schemaPath || anyOfs.has(`${union} ${error.instancePath}`);
    });
  }
  const out: ValidationProblem[] = [];
  emit(errors, context, out);
  const seen = new Set<string>();
  return out.filter((problem) => {
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function emit(errors: readonly RawError[], context: Context, out: ValidationProblem[]): void {
  const anyOfsByPath = new Map<string, RawError[]>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf') continue;
    const list = anyOfsByPath.get(error.instancePath);
    if (list === undefined) anyOfsByPath.set(error.instancePath, [error]);
    else list.push(error);
  }
  const owned = new Map<RawError, RawError[]>();
  const top: RawError[] = [];
  for (const error of errors) {
    let owner: RawError | undefined;
    if (anyOfsByPath.size > 0) {
      const candidates = ancestors(error.instancePath);
      // Outermost first: the shortest instance path, then the shortest schema path.
      for (let i = candidates.length - 1; i >= 0 && owner === undefined; i -= 1) {
        const path = candidates[i] ?? '';
        for (const anyOf of anyOfsByPath.get(path) ?? []) {
          if (anyOf === error || !error.schemaPath.startsWith(`${anyOf.schemaPath}/anyOf/`)) continue;
          if (owner === undefined || anyOf.schemaPath.length < owner.schemaPath.length) owner = anyOf;
        }
      }
    }
    if (owner === undefined) top.push(error);
    else {
      const list = owned.get(owner);
      if (list === undefined) owned.set(owner, [error]);
      else list.push(error);
    }
  }
  for (const error of top) {
    if (error.keyword === 'anyOf') emitAnyOf(error, owned.get(error) ?? [], context, out);
    else emitOne(error, context, out);
  }
}

function emitAnyOf(
  anyOf: RawError,
  branchErrors: readonly RawError[],
  context: Context,
  out: ValidationProblem[],
): void {
  const prefix = `${anyOf.schemaPath}/anyOf/`;
  const branches = new Map<number, RawError[]>();
  let maxIndex = -1;
  for (const error of branchErrors) {
    const index = Number.parseInt(error.schemaPath.slice(prefix.length), 10);
    if (!Number.isInteger(index)) continue;
    maxIndex = Math.max(maxIndex, index);
    const list = branches.get(index);
    if (list === undefined) branches.set(index, [error]);
    else list.push(error);
  }
  const value = valueAt(context.root, anyOf.instancePath);
  const alternatives: string[] = [];
  let best: RawError[] | undefined;
  for (let index = 0; index <= maxIndex; index += 1) {
    const errors = branches.get(index);
    // A branch without attributed errors was reported elsewhere (recursive schemas): nothing to add.
    if (errors === undefined) return;
    const shallow = errors.find(
      (error) =>
        error.instancePath === anyOf.instancePath &&
        (error.keyword === 'type' || error.keyword === 'const' || error.keyword === 'enum'),
    );
    if (shallow === undefined) {
      if (best === undefined || errors.length < best.length) best = errors;
    } else {
      alternatives.push(...expectations(shallow));
    }
  }
  if (best !== undefined) {
    emit(best, context, out);
    return;
  }
  if (alternatives.length === 0) {
    out.push({
      path: anyOf.instancePath,
      message: `does not match any allowed shape; got ${describe(value)}`,
    });
    return;
  }
  out.push({
    path: anyOf.instancePath,
    message: `expected ${expectation(alternatives)} but got ${describe(value)}`,
  });
}

/** The alternatives a failed keyword accepted: `an integer`, `"service"`, ... */
function expectations(error: RawError): string[] {
  switch (error.keyword) {
    case 'type':
      return [typeName(error.params.type)];
    case 'const':
      return [literal(error.params.allowedValue)];
    case 'enum':
      return (Array.isArray(error.params.allowedValues) ? error.params.allowedValues : []).map(literal);
    default:
      return ['a valid value'];
  }
}

/** `"a"`, `"a" or "b"`, `one of "a", "b" or "c"`, `an integer or a string`. */
function expectation(alternatives: readonly string[]): string {
  const unique = [...new Set(alternatives)];
  const allLiterals = unique.every((item) => !/^(?:an? |one of )/.test(item));
  return unique.length > 2 && allLiterals ? `one of ${joinAlternatives(unique)}` : joinAlternatives(unique);
}

function emitOne(error: RawError, context: Context, out: ValidationProblem[]): void {
  const value = valueAt(context.root, error.instancePath);
  const path = error.instancePath;
  const params = error.params;
  const got = (): string => describe(value);
  const expected = customExpectation(context.schema, error.schemaPath);
  if (expected !== undefined && error.keyword !== 'required') {
    out.push({ path, message: `expected ${expected} but got ${got()}` });
    return;
  }
  switch (error.keyword) {
    case 'type':
      out.push({ path, message: `expected ${typeName(params.type)} but got ${got()}` });
      return;
    case 'required': {
      const names = Array.isArray(params.requiredProperties) ? params.requiredProperties : [];
      for (const name of names) {
        out.push({ path: `${path}/${escapeSegment(String(name))}`, message: 'is required but missing' });
      }
      return;
    }
    case 'enum':
    case 'const':
      out.push({ path, message: `expected ${expectation(expectations(error))} but got ${got()}` });
      return;
    case 'minimum':
      out.push({ path, message: `expected a number of at least ${String(params.limit)} but got ${got()}` });
      return;
    case 'maximum':
      out.push({ path, message: `expected a number of at most ${String(params.limit)} but got ${got()}` });
      return;
    case 'exclusiveMinimum':
      out.push({ path, message: `expected a number greater than ${String(params.limit)} but got ${got()}` });
      return;
    case 'exclusiveMaximum':
      out.push({ path, message: `expected a number less than ${String(params.limit)} but got ${got()}` });
      return;
    case 'minLength':
      out.push({
        path,
        message:
          params.limit === 1
            ? 'must not be empty'
            : `expected at least ${String(params.limit)} characters but got ${got()}`,
      });
      return;
    case 'maxLength':
      out.push({ path, message: `expected at most ${String(params.limit)} characters but got ${got()}` });
      return;
    case 'minItems':
      out.push({
        path,
        message:
          params.limit === 1
            ? 'must not be an empty list'
            : `expected at least ${String(params.limit)} items but got ${got()}`,
      });
      return;
    case 'maxItems':
      out.push({ path, message: `expected at most ${String(params.limit)} items but got ${got()}` });
      return;
    case 'pattern':
      out.push({
        path,
        message: `expected a string matching /${String(params.pattern)}/ but got ${got()}`,
      });
      return;
    case 'format':
      out.push({ path, message: `expected a valid ${String(params.format)} but got ${got()}` });
      return;
    default:
      out.push({ path, message: `${error.message} (got ${got()})` });
  }
}

/**
 * Schemas may carry `'x-expected'`: the words used for "expected ..." when the value does not match
 * (for example `base64-encoded text`), instead of a pattern only a programmer reads.
 */
function customExpectation(schema: TSchema, schemaPath: string): string | undefined {
  if (!schemaPath.startsWith('#')) return undefined;
  let node: unknown = schema;
  for (const segment of parsePointer(schemaPath.slice(1))) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  if (node === null || typeof node !== 'object') return undefined;
  const expected = (node as Record<string, unknown>)['x-expected'];
  return typeof expected === 'string' ? expected : undefined;
}

function typeName(type: unknown): string {
  if (Array.isArray(type)) return joinAlternatives(type.map(typeName));
  switch (type) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return `a value of type ${String(type)}`;
  }
}

function joinAlternatives(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? 'a valid value';
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1) ?? ''}`;
}

function literal(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value, 60));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? 'undefined';
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Describes a value in a few words for a message: `the string "x"`, `the number 1.5`, `an array of 3 items`.
 *
 * @internal
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return value.length > 60
        ? `the string ${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)`
        : `the string ${JSON.stringify(value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'bigint':
      return `the big integer ${String(value)}`;
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
