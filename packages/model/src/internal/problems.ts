/**
 * Turns the raw errors of a compiled schema check into problems a user can act on: one per wrong
 * value, at its JSON Pointer, in document order, nullable and union fields reported as the user meant them.
 *
 * @packageDocumentation
 */
import type { TSchema } from 'typebox';
import type { RawError, ValidationProblem } from '../validate.js';
import { ancestors, escapeSegment, valueAt } from './pointer.js';
import { customExpectation, describe, joinAlternatives, literal, schemaAt, typeName } from './describe.js';

interface Context {
  /** The validated value. */
  readonly root: unknown;
  /** The schema validated against. */
  readonly schema: TSchema;
}

export function toProblems(
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
    // Every shallow error of the branch: a branch that is itself a union of literals has one each.
    const shallow = errors.filter(
      (error) =>
        error.instancePath === anyOf.instancePath &&
        (error.keyword === 'type' || error.keyword === 'const' || error.keyword === 'enum'),
    );
    if (shallow.length === 0) {
      if (best === undefined || errors.length < best.length) best = errors;
    } else {
      for (const error of shallow) alternatives.push(...expectations(error));
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

/** The problem of a key an object with `additionalProperties: false` does not know, naming the known ones. */
function unknownKey(schema: TSchema, schemaPath: string): string {
  const parent = schemaAt(schema, schemaPath.slice(0, -'/additionalProperties'.length));
  const properties = parent?.['properties'];
  const known = properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
  return known.length === 0 ? 'is not a known key' : `is not a known key; known keys: ${known.join(', ')}`;
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
    case 'additionalProperties':
      return; // each unknown key has its own problem (below), at its own path
    case 'boolean':
      if (error.schemaPath.endsWith('/additionalProperties')) {
        out.push({ path, message: unknownKey(context.schema, error.schemaPath) });
      } else out.push({ path, message: `${error.message} (got ${got()})` });
      return;
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
