/**
 * Validation of values against the model's schemas, with problems a user can act on.
 *
 * @packageDocumentation
 */
import type { Static, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { Settings } from 'typebox/system';
import { ValidationError } from './errors.js';
import { parsePointer } from './internal/pointer.js';
import { toProblems } from './internal/problems.js';
import { truncate } from './internal/describe.js';

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

export interface RawError {
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
