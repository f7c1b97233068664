import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { datumArb, expressionArb } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import { referenceEvaluate } from '../test/reference.js';
import { typedDatumArb } from '../test/schemas.js';
import type { Expression } from './ast.js';
import { compileFilter, setCodegen } from './compile.js';
import { FilterSyntaxError } from './errors.js';
import type { CompileOptions } from './options.js';

/**
 * Field lookup sees own properties only, as a JSON object has: data behind a prototype chain (a class,
 * `Object.create(...)`, a null prototype) answers exactly as the same data with only its own properties.
 */

type Outcome = boolean | 'error';

/** Names every object inherits (or that mean something to JavaScript), put in place of the arbitraries' names. */
const RENAME: Readonly<Record<string, string>> = {
  Tags: 'constructor',
  'a/b': '__proto__',
  'with space': 'toString',
  in: 'hasOwnProperty',
  '0': 'valueOf',
};
const renamed = (s: string): string => (Object.hasOwn(RENAME, s) ? (RENAME[s] as string) : s);

function defineOwn(o: object, key: string, value: unknown): void {
  // a plain assignment of "__proto__" would set the prototype instead of an own property
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A JSON datum with the keys renamed (own properties, "__proto__" included). */
function renameDatum(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(renameDatum);
  if (typeof v !== 'object' || v === null) return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) defineOwn(out, renamed(k), renameDatum(x));
  return out;
}

/** An AST with the selector segments and values renamed alike. */
function renameAst(node: Expression): Expression {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, left: renameAst(node.left), right: renameAst(node.right) };
    case 'not':
      return { ...node, operand: renameAst(node.operand) };
    case 'match':
      return {
        ...node,
        selector: { ...node.selector, path: node.selector.path.map(renamed) },
        value: node.value === null ? null : { ...node.value, raw: renamed(node.value.raw) },
      };
    case 'collection':
      return {
        ...node,
        selector: { ...node.selector, path: node.selector.path.map(renamed) },
        body: renameAst(node.body),
      };
  }
}

const DECOY_KEYS = ['a', 'b', 'x', 'Meta', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'v'];
const DECOY_VALUES: readonly unknown[] = ['a', 'x', '1', 1, 0, true, null, [], {}, ['a'], { a: 'a' }];

/**
 * The datum as own data (`plain`) and the same datum with prototypes (`chained`): each object is
 * kept, rebuilt on a null prototype, or rebuilt on a chain of one or two prototypes that holds decoy
 * properties and some of the object's own keys (moved there, so absent from `plain`).
 */
function hide(v: unknown, next: () => number): { plain: unknown; chained: unknown } {
  if (Array.isArray(v)) {
    const parts = v.map((x) => hide(x, next));
    return { plain: parts.map((p) => p.plain), chained: parts.map((p) => p.chained) };
  }
  if (typeof v !== 'object' || v === null) return { plain: v, chained: v };
  const mode = next() % 4;
  const plain = {};
  const far = {};
  const near: object = next() % 2 === 0 ? far : Object.create(far);
  const chained: object = mode === 0 ? {} : mode === 1 ? Object.create(null) : Object.create(near);
  for (const [k, x] of Object.entries(v)) {
    const part = hide(x, next);
    if (mode === 3 && next() % 2 === 0) {
      defineOwn(next() % 2 === 0 ? near : far, k, part.chained);
    } else {
      defineOwn(plain, k, part.plain);
      defineOwn(chained, k, part.chained);
    }
  }
  if (mode >= 2) {
    for (let n = next() % 4; n > 0; n--) {
      const key = DECOY_KEYS[next() % DECOY_KEYS.length] as string;
      if (!Object.hasOwn(chained, key)) {
        defineOwn(next() % 2 === 0 ? near : far, key, DECOY_VALUES[next() % DECOY_VALUES.length]);
      }
    }
  }
  return { plain, chained };
}

const tapeArb = fc.array(fc.nat(), { minLength: 1, maxLength: 32 });
function tape(seeds: readonly number[]): () => number {
  let i = 0;
  return () => seeds[i++ % seeds.length] as number;
}

function withCodegen<T>(enabled: boolean, f: () => T): T {
  setCodegen(enabled);
  try {
    return f();
  } finally {
    setCodegen(undefined);
  }
}

/** Outcomes of the generated function and the closure fallback on each datum; undefined when it does not compile. */
function outcomes(
  ast: Expression,
  data: readonly unknown[],
  options?: CompileOptions,
): Outcome[][] | undefined {
  try {
    return [true, false].map((codegen) => {
      const keep = withCodegen(codegen, () => compileFilter(ast, options));
      return data.map((d) => outcome(() => keep(d)));
    });
  } catch (e) {
    if (FilterSyntaxError.is(e) && e.code === 'unknown-field') return undefined;
    throw e;
  }
}

describe('inherited properties are not fields (property tests)', () => {
  test.prop([expressionArb, datumArb, tapeArb], { numRuns: 400 })(
    'data behind prototypes answers as its own properties alone, in both paths',
    (ast, datum, seeds) => {
      const { plain, chained } = hide(datum, tape(seeds));
      const [generated, fallback] = outcomes(ast, [plain, chained]) as Outcome[][];
      expect(generated).toEqual([generated?.[0], generated?.[0]]);
      expect(fallback).toEqual(generated);
    },
  );

  test.prop([expressionArb, datumArb, tapeArb], { numRuns: 400 })(
    'names objects inherit (constructor, toString, __proto__, ...) read as ordinary keys, as the reference',
    (ast, datum, seeds) => {
      const named = renameAst(ast);
      const { plain, chained } = hide(renameDatum(datum), tape(seeds));
      const reference = outcome(() => referenceEvaluate(named, plain));
      const [generated, fallback] = outcomes(named, [plain, chained]) as Outcome[][];
      expect(generated).toEqual([reference, reference]);
      expect(fallback).toEqual([reference, reference]);
    },
  );

  test.prop([expressionArb, typedDatumArb(true), tapeArb], { numRuns: 200 })(
    'typed mode too',
    (ast, { datum, schema }, seeds) => {
      const { plain, chained } = hide(datum, tape(seeds));
      const r = outcomes(ast, [plain, chained], { schema });
      if (r === undefined) return;
      const [generated, fallback] = r as [Outcome[], Outcome[]];
      expect(generated).toEqual([generated[0], generated[0]]);
      expect(fallback).toEqual(generated);
    },
  );
});

describe('inherited properties are not fields (examples)', () => {
  const onBothPaths = (text: string, datum: unknown): Outcome[] =>
    [true, false].map((codegen) => {
      const keep = withCodegen(codegen, () => compileFilter(text));
      return outcome(() => keep(datum));
    });

  it('an inherited top-level field is a missing key, an inherited nested one takes the defaults', () => {
    expect(onBothPaths('x == 1', Object.create({ x: 1 }))).toEqual(['error', 'error']);
    expect(onBothPaths('a.x == 1', { a: Object.create({ x: 1 }) })).toEqual([false, false]);
    expect(onBothPaths('a.x != 1', { a: Object.create({ x: 1 }) })).toEqual([true, true]);
    expect(onBothPaths('a.x matches "1"', { a: Object.create({ x: '1' }) })).toEqual([false, false]);
    expect(onBothPaths('a is empty', { a: Object.create({ x: 1 }) })).toEqual([true, true]);
    expect(onBothPaths('"x" in a', { a: Object.create({ x: 1 }) })).toEqual([false, false]);
    expect(onBothPaths('any a as k { k == "x" }', { a: Object.create({ x: 1 }) })).toEqual([false, false]);
    expect(onBothPaths('any L as e { e.x == 1 }', { L: [Object.create({ x: 1 })] })).toEqual([false, false]);
    // an own property shadowing an inherited one is read
    const own = Object.assign(Object.create({ x: 2 }), { x: 1 });
    expect(onBothPaths('x == 1', own)).toEqual([true, true]);
  });

  it('class instances: fields set by the constructor count, getters of the class do not', () => {
    class Job {
      Status = 'running';
      get Name(): string {
        return 'web';
      }
    }
    expect(onBothPaths('Status == "running"', new Job())).toEqual([true, true]);
    expect(onBothPaths('Name == "web"', new Job())).toEqual(['error', 'error']);
    expect(onBothPaths('J.Name == "web"', { J: new Job() })).toEqual([false, false]);
  });

  it('names every object inherits are ordinary keys: absent from {}, read when own', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(onBothPaths(`Meta.${name} == "x"`, { Meta: {} })).toEqual([false, false]);
      // a missing key under an object takes the operator's default, as any missing key does
      expect(onBothPaths(`Meta.${name} is empty`, { Meta: {} })).toEqual([true, true]);
      expect(onBothPaths(`"${name}" in Meta`, { Meta: {} })).toEqual([false, false]);
      expect(onBothPaths(`Meta.${name} == "x"`, { Meta: { [name]: 'x' } })).toEqual([true, true]);
      // at the top level a missing key is an evaluation error (FILTER.md section 3), not a crash
      expect(onBothPaths(`${name} == "x"`, {})).toEqual(['error', 'error']);
      expect(onBothPaths(`${name} == "x"`, { [name]: 'x' })).toEqual([true, true]);
    }
    expect(onBothPaths('Meta["__proto__"] == "x"', { Meta: {} })).toEqual([false, false]);
    expect(onBothPaths('Meta["__proto__"] is nil', { Meta: {} })).toEqual([true, true]);
    expect(onBothPaths('"/__proto__" == "x"', {})).toEqual(['error', 'error']);
    // JSON.parse makes "__proto__" an own property
    const parsed: unknown = JSON.parse('{"__proto__": "x", "Meta": {"__proto__": {"a": 1}}}');
    expect(onBothPaths('"/__proto__" == "x"', parsed)).toEqual([true, true]);
    expect(onBothPaths('Meta["__proto__"].a == 1', parsed)).toEqual([true, true]);
    expect(onBothPaths('Meta["__proto__"] is not empty', parsed)).toEqual([true, true]);
  });

  it('a property added to Object.prototype later (prototype pollution) is not a field', () => {
    const keepers = [true, false].map((codegen) =>
      withCodegen(codegen, () => compileFilter('Meta.polluted == "x" or Status == "x"')),
    );
    const datum = { Meta: { a: 'a' }, Status: 'running' };
    for (let i = 0; i < 1000; i++) for (const keep of keepers) keep(datum); // optimised first
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'x';
    try {
      expect(keepers.map((keep) => keep(datum))).toEqual([false, false]);
      expect(onBothPaths('polluted == "x"', datum)).toEqual(['error', 'error']);
    } finally {
      delete proto.polluted;
    }
  });
});
