/**
 * Value semantics: how each operator reads the value a selector found (go-bexpr on JSON data,
 * FILTER.md sections 4 and 5), the special values the lookup produces, and evaluation errors.
 * @internal
 * @packageDocumentation
 */
import type { MatchOperator, Span } from './ast.js';
import { FilterEvaluationError, FilterEvaluationErrorCode, type ValueKind } from './errors.js';
import { goParseBool, goParseFloat, goParseInt, type GoParse } from './internal/go-strconv.js';
import { compileRegex, type CompiledRegex } from './internal/regex.js';
import type { Getter, Pred } from './lookup.js';
import { printSelector } from './print.js';

/** Typed mode: what a `null` map field reads as (an empty map; `is nil` still sees it as nil). */
export const NULL_MAP: Readonly<Record<string, unknown>> = Object.freeze({});
/** Typed mode: what a `null` list field reads as (an empty list; `is nil` still sees it as nil). */
export const NULL_LIST: readonly unknown[] = Object.freeze([]);

/**
 * The internalized copy of a string (property keys are internalized), so that comparing it with
 * field values, which are often internalized too, is a pointer comparison, as with a literal.
 * A long key is stored in a new empty record with a null prototype (`__proto__` is then a key like
 * any other) and read back: about 0.8 µs. A reused record cost five times more (a key deleted
 * from it leaves a dictionary behind), an object literal with the key as a computed property ten.
 */
// oxlint-disable-next-line eslint/no-control-regex -- what JSON needs escaped in a string
const JSON_PLAIN = /^[^"\\\u0000-\u001f]*$/;

export function intern(s: string): string {
  // V8's JSON parser internalizes the short strings it reads (up to 9 characters in Node 24): a
  // quarter of the cost of the record below. Longer strings, or another engine, take the record.
  if (s.length < 10) {
    const parsed: unknown = JSON.parse(JSON_PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));
    if (typeof parsed === 'string') return parsed;
  }
  const record: Record<string, 0> = { __proto__: null } as unknown as Record<string, 0>;
  record[s] = 0;
  return Object.keys(record)[0] ?? s;
}

/** Marks a missing last key under an object: the operator's default applies. */
export const MISSING: unique symbol = Symbol('missing');
/** A Go int (array index bound by `as i, v`): compared with ParseInt, not ParseFloat. */
export class IntValue {
  constructor(readonly n: number) {}
}

export const hasOwn = {
  call: (o: object, key: string): boolean => Object.hasOwn(o, key),
};

export function kindOf(v: unknown): ValueKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      if (Array.isArray(v)) return 'array';
      if (v instanceof IntValue) return 'integer';
      return 'object';
    default:
      return 'unsupported';
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof IntValue);
}

export function article(kind: ValueKind): string {
  switch (kind) {
    case 'null':
      return 'null';
    case 'array':
    case 'integer':
    case 'object':
    case 'unsupported':
      return `an ${kind === 'unsupported' ? 'unsupported value' : kind}`;
    default:
      return `a ${kind}`;
  }
}

export function pointer(path: readonly string[]): string {
  return '/' + path.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

export function safePrint(path: readonly string[]): string {
  try {
    return printSelector(path);
  } catch {
    return pointer(path);
  }
}

/** Static facts about one clause, for its errors. */
export interface Site {
  readonly selector: string;
  readonly span: Span;
  readonly source: string | undefined;
  /** Typed mode: the field holds Go integers (`==` parses the value with ParseInt). */
  readonly int?: boolean;
  /** Typed mode: the field is a list of Go integers. */
  readonly intItems?: boolean;
}

export function fail(site: Site, code: FilterEvaluationErrorCode, kind: ValueKind, reason: string): never {
  throw new FilterEvaluationError({
    code,
    reason,
    selector: site.selector,
    valueKind: kind,
    span: site.span,
    source: site.source,
  });
}

/** The error for a value of a kind the operator cannot read (`what` says which kinds it reads). */
export function unsupported(v: unknown, site: Site, what: string): never {
  const kind = kindOf(v);
  return fail(
    site,
    FilterEvaluationErrorCode.UnsupportedKind,
    kind,
    `The selector ${site.selector} is ${article(kind)}; ${what}.`,
  );
}

/** Lazily parsed forms of a raw value (the reference converts on every evaluation; results are pure). */
export class RawValue {
  private f: GoParse<number> | undefined;
  private b: GoParse<boolean> | undefined;
  private i: GoParse<bigint> | undefined;
  private r: CompiledRegex | undefined;
  constructor(readonly raw: string) {}
  float(): GoParse<number> {
    return (this.f ??= goParseFloat(this.raw));
  }
  bool(): GoParse<boolean> {
    return (this.b ??= goParseBool(this.raw));
  }
  int(): GoParse<bigint> {
    return (this.i ??= goParseInt(this.raw));
  }
  regex(): CompiledRegex {
    return (this.r ??= compileRegex(this.raw));
  }
}

export function oneLine(text: string): string {
  return text.replaceAll('\r', '\\r').replaceAll('\n', '\\n');
}

export function invalidValue(site: Site, raw: string, kind: ValueKind, why: string): never {
  fail(
    site,
    FilterEvaluationErrorCode.InvalidValue,
    kind,
    `The value ${JSON.stringify(raw)} cannot be compared with ${site.selector}, which is ${article(kind)}: ${why}.`,
  );
}

/** Why a value does not convert for a field of each kind, by the parse's reason. */
const NOT_CONVERTIBLE = {
  number: { range: 'it is out of the float64 range', syntax: 'it is not a number' },
  integer: { range: 'it is out of the int64 range', syntax: 'it is not an integer' },
  // ParseBool has no range error: either reason gets the same sentence.
  boolean: {
    range: 'it is not one of 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False',
    syntax: 'it is not one of 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False',
  },
} as const;

/** The converted value (as the field's kind reads it), or the error the reference reports. */
function converted<T>(
  parsed: GoParse<T>,
  value: RawValue,
  site: Site,
  kind: keyof typeof NOT_CONVERTIBLE,
): T {
  if (!parsed.ok) invalidValue(site, value.raw, kind, NOT_CONVERTIBLE[kind][parsed.reason]);
  return parsed.value;
}

export function equalTo(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v === 'string') return v === value.raw;
  if (typeof v === 'number' && site.int === true) return intEqual(v, value, site);
  if (typeof v === 'number') return v === converted(value.float(), value, site, 'number');
  if (typeof v === 'boolean') return v === converted(value.bool(), value, site, 'boolean');
  if (v instanceof IntValue) return BigInt(v.n) === converted(value.int(), value, site, 'integer');
  return unsupported(v, site, '"==" and "!=" compare only strings, numbers and booleans');
}

/** Typed mode: a Go integer field compared with ParseInt (`50.0` is an error, `0x32` is 50). */
export function intEqual(v: number, value: RawValue, site: Site): boolean {
  const i = converted(value.int(), value, site, 'integer');
  return Number.isInteger(v) && BigInt(v) === i;
}

export function contains(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v === 'string') return v.includes(value.raw);
  if (Array.isArray(v)) {
    const raw = value.raw;
    for (let i = 0; i < v.length; i++) {
      const el: unknown = v[i];
      if (typeof el === 'string') {
        if (el === raw) return true;
      } else if (typeof el === 'number' && site.intItems === true) {
        if (intEqual(el, value, site)) return true;
      } else if (typeof el === 'number') {
        const f = value.float();
        if (f.ok) {
          if (el === f.value) return true;
        } else if (f.reason === 'range') {
          invalidValue(site, raw, 'number', `it is out of the float64 range (element ${i})`);
        }
      } else if (typeof el === 'boolean') {
        const b = value.bool();
        if (b.ok && el === b.value) return true;
      } else {
        const kind = kindOf(el);
        fail(
          site,
          kind === 'null'
            ? FilterEvaluationErrorCode.NullElement
            : FilterEvaluationErrorCode.UncomparableElement,
          kind,
          `The array ${site.selector} has ${article(kind)} element at index ${i}, which "in" cannot compare.`,
        );
      }
    }
    return false;
  }
  if (isObject(v)) return v[value.raw] !== undefined && hasOwn.call(v, value.raw);
  return unsupported(v, site, '"in" and "contains" work on strings, arrays and objects');
}

export function isEmpty(v: unknown, site: Site): boolean {
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  if (isObject(v)) {
    for (const k in v) if (hasOwn.call(v, k) && v[k] !== undefined) return false;
    return true;
  }
  return unsupported(v, site, '"is empty" works on strings, arrays and objects');
}

export function isNil(v: unknown, site: Site): boolean {
  if (v === null || v === undefined || v === NULL_MAP || v === NULL_LIST) return true;
  if (typeof v === 'object' && !(v instanceof IntValue)) return false;
  return unsupported(v, site, '"is nil" works on null, arrays and objects');
}

export function matches(v: unknown, value: RawValue, site: Site): boolean {
  if (typeof v !== 'string') {
    unsupported(v, site, '"matches" works on strings only');
  }
  const re = value.regex();
  if (!re.ok) {
    fail(
      site,
      FilterEvaluationErrorCode.InvalidRegex,
      'string',
      `The regular expression ${JSON.stringify(value.raw)} is invalid: ${oneLine(re.reason)}.`,
    );
  }
  return re.test(v);
}

export const NEGATED: Readonly<Record<MatchOperator, MatchOperator>> = {
  equal: 'not-equal',
  'not-equal': 'equal',
  in: 'not-in',
  'not-in': 'in',
  matches: 'not-matches',
  'not-matches': 'matches',
  'is-empty': 'is-not-empty',
  'is-not-empty': 'is-empty',
  'is-nil': 'is-not-nil',
  'is-not-nil': 'is-nil',
};

/** How each operator other than `==`/`!=` reads a value found: the test, and whether it is negated. */
const TESTS: Readonly<
  Record<
    Exclude<MatchOperator, 'equal' | 'not-equal'>,
    readonly [(v: unknown, value: RawValue, site: Site) => boolean, boolean]
  >
> = {
  in: [contains, false],
  'not-in': [contains, true],
  matches: [matches, false],
  'not-matches': [matches, true],
  'is-empty': [(v, _value, site) => isEmpty(v, site), false],
  'is-not-empty': [(v, _value, site) => isEmpty(v, site), true],
  'is-nil': [(v, _value, site) => isNil(v, site), false],
  'is-not-nil': [(v, _value, site) => isNil(v, site), true],
};

/** The answer of each operator when the last key is missing under an object (FILTER.md section 3). */
export const MISSING_DEFAULT: Readonly<Record<MatchOperator, boolean>> = {
  equal: false,
  'not-equal': true,
  in: false,
  'not-in': true,
  matches: false,
  'not-matches': true,
  'is-empty': true,
  'is-not-empty': false,
  'is-nil': true,
  'is-not-nil': false,
};

/** The closure of one operator over a getter: missing-key defaults, then the value semantics above. */
export function genericMatch(operator: MatchOperator, get: Getter, value: RawValue, site: Site): Pred {
  const raw = value.raw;
  const missing = MISSING_DEFAULT[operator];
  if (operator === 'equal' || operator === 'not-equal') {
    const eq = operator === 'equal';
    return (root, env) => {
      const v = get(root, env);
      if (typeof v === 'string') return (v === raw) === eq;
      return v === MISSING ? missing : equalTo(v, value, site) === eq;
    };
  }
  const [test, negated] = TESTS[operator];
  if (negated) {
    return (root, env) => {
      const v = get(root, env);
      return v === MISSING ? missing : !test(v, value, site);
    };
  }
  return (root, env) => {
    const v = get(root, env);
    return v === MISSING ? missing : test(v, value, site);
  };
}
