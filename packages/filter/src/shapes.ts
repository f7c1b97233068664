/**
 * Filters of one shape: texts that differ only in the values of their literals (`Name == "a"` and
 * `Name == "b"`) parse to the same tree and generate the same code, so the second one is not parsed
 * or generated again: its tokens give the shape and the literals, and the first one's factory is
 * given constants made from the new literals. As a database does with a prepared statement.
 *
 * A shape is the token sequence with every token's type, whether it touches the token before it
 * (the grammar reads whitespace there), the text of every token but a literal, and for a literal
 * whether it reads as a number (a numeric constant generates other code). A literal the first filter
 * did not use as a value (a quoted key, `Meta["a"]`) must be the same text too. Where the new values
 * would generate other code (a regular expression that does not compile), or a constant is not made
 * from literals alone (a clause answered by its closure), the filter is compiled in full.
 * @internal
 * @packageDocumentation
 */
import type { IToken } from 'chevrotain';
import { compileExpr } from './closures.js';
import { goParseFloat, goUnquote } from './internal/go-strconv.js';
import { compileRegex } from './internal/regex.js';
import { type Context, EMPTY_SCOPE, type Pred } from './lookup.js';
import { parseText } from './parse.js';
import { type Factory, instantiate, lazy } from './runtime.js';
import { DoubleQuoted, NumberLiteral, RawString } from './tokens.js';
import { intern } from './values.js';

/** How a constant of generated code is made from the literals it was made from. */
export interface Step {
  readonly make: 'intern' | 'number' | 'regex' | 'set' | 'all';
  /** The offsets of the literals it was made from (-1: not from a literal). */
  readonly at: readonly number[];
  /** What it was made from, for the parts not made from a literal. */
  readonly value: string | number | readonly string[] | undefined;
}

/** How to make one constant: `refs` are literals by index, or fixed texts. */
interface Made {
  readonly make: Step['make'];
  readonly refs: readonly (number | string)[];
  readonly value: Step['value'];
}

interface Shape {
  readonly factory: Factory;
  /** Per constant, how to make it. */
  readonly steps: readonly Made[];
  /** Literals that must be written as they were: their indexes, and their texts. */
  readonly fixedAt: readonly number[];
  readonly fixedText: readonly string[];
}

/** Most shapes remembered (the oldest goes first). */
export const SHAPE_LIMIT = 256;
const shapes = new Map<string, Shape>();
let enabled = true;
let made = 0;

/**
 * Turns filters made from shapes off (`false`: every text is parsed and generated) or on again.
 * For tests and the benchmark. @internal
 */
export function setShapes(on: boolean): void {
  enabled = on;
  shapes.clear();
}

/** How many filters were made from a shape so far. For tests. @internal */
export function madeFromShapes(): number {
  return made;
}

/** A filter's shape and its literal tokens with their values. */
export interface Shaped {
  readonly key: string;
  readonly literals: readonly IToken[];
  readonly values: readonly string[];
  /** Whether each value is internalized already. */
  readonly interned: readonly boolean[];
}

/** The shape of lexed text (tokens without lexical errors). */
export function shapeOfTokens(text: string, tokens: readonly IToken[]): Shaped {
  let key = '';
  let end = 0;
  const literals: IToken[] = [];
  const values: string[] = [];
  const interned: boolean[] = [];
  for (const t of tokens) {
    const type = t.tokenType;
    key += `${t.startOffset === end ? '' : ' '}${type.tokenTypeIdx ?? type.name}`;
    if (type === DoubleQuoted || type === RawString || type === NumberLiteral) {
      let value = t.image;
      let internal = false;
      if (type !== NumberLiteral) {
        // a short quoted text without escapes is JSON too, and JSON.parse internalizes it (intern)
        if (type === DoubleQuoted && value.length <= 11 && !value.includes('\\')) {
          try {
            value = JSON.parse(value) as string;
            internal = true;
          } catch {
            // a control character: Go takes it, JSON does not
          }
        }
        if (!internal) {
          const unquoted = goUnquote(t.image);
          value = unquoted.ok ? unquoted.value : '';
        }
      }
      literals.push(t);
      values.push(value);
      interned.push(internal);
      key += type === NumberLiteral || goParseFloat(value).ok ? '#' : '$';
    } else {
      key += `:${t.image}\u0000`;
    }
    end = t.startOffset + t.image.length;
  }
  return { key: end === text.length ? key : `${key} `, literals, values, interned };
}

/** The whole expression's closure of a text that parsed before. */
function closureOf(text: string): Pred {
  return lazy(() => {
    const parsed = parseText(text);
    if (!parsed.ok) throw new Error(`a filter of a known shape does not parse: ${text}`);
    const ctx: Context = { source: text, unknownSet: false, unknownValue: undefined, schema: undefined };
    return compileExpr(parsed.ast, EMPTY_SCOPE, ctx);
  });
}

const rawOf = (values: readonly string[], ref: number | string): string =>
  typeof ref === 'string' ? ref : (values[ref] as string);

/**
 * The filter of `text` made from the factory of its shape, or undefined when the shape is new or
 * its literals would generate other code.
 */
export function fromShape(text: string, shaped: Shaped): ((datum: unknown) => boolean) | undefined {
  const shape = enabled ? shapes.get(shaped.key) : undefined;
  if (shape === undefined) return undefined;
  const { literals, values } = shaped;
  for (let i = 0; i < shape.fixedAt.length; i++) {
    if (literals[shape.fixedAt[i] as number]?.image !== shape.fixedText[i]) return undefined;
  }
  const steps = shape.steps;
  const consts: unknown[] = [];
  for (let i = 0; i < steps.length; i++) {
    const { make, refs, value } = steps[i] as Made;
    const first = refs[0] ?? '';
    if (make === 'intern') {
      consts.push(
        typeof first === 'number' && shaped.interned[first] === true
          ? values[first]
          : intern(rawOf(values, first)),
      );
    } else if (make === 'number') {
      const n = typeof first === 'string' ? undefined : goParseFloat(rawOf(values, first));
      consts.push(n?.ok === true ? n.value : value);
    } else if (make === 'regex') {
      const re = compileRegex(rawOf(values, first));
      if (!re.ok) return undefined;
      consts.push(re.test);
    } else if (make === 'set') consts.push(new Set(refs.map((ref) => rawOf(values, ref))));
    else consts.push(closureOf(text));
  }
  made++;
  return instantiate(shape.factory, consts);
}

/** Remembers the shape of a filter just generated (when every constant is made from literals). */
export function rememberShape(shaped: Shaped, factory: Factory, steps: readonly Step[] | undefined): void {
  if (!enabled || steps === undefined || shapes.has(shaped.key)) return;
  const index = new Map(shaped.literals.map((t, i) => [t.startOffset, i]));
  const used = new Set<number>();
  const ref = (offset: number, value: string): number | string => {
    const i = index.get(offset);
    if (i === undefined) return value;
    used.add(i);
    return i;
  };
  const recipe = steps.map((step) => {
    const v = step.value;
    const texts = typeof v === 'object' ? v : [typeof v === 'string' ? v : String(v ?? '')];
    const refs = step.at.map((offset, k) => ref(offset, texts[k] ?? ''));
    return { make: step.make, refs, value: step.value };
  });
  const fixedAt = shaped.literals.flatMap((_, i) => (used.has(i) ? [] : [i]));
  const fixedText = fixedAt.map((i) => (shaped.literals[i] as IToken).image);
  if (shapes.size >= SHAPE_LIMIT) shapes.delete(shapes.keys().next().value as string);
  shapes.set(shaped.key, { factory, steps: recipe, fixedAt, fixedText });
}
