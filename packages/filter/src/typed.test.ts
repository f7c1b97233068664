import { fc, test } from '@fast-check/vitest';
import { Job, JobListStub } from '@sked/model';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expressionArb, mapMatches } from '../test/arbitraries.js';
import { outcome } from '../test/outcome.js';
import { referenceEvaluate } from '../test/reference.js';
import { substituteNulls, typedDatumArb } from '../test/schemas.js';
import type { Expression } from './ast.js';
import { createFilterCache } from './cache.js';
import { compileFilter, setCodegen } from './compile.js';
import { FilterEvaluationError, FilterSyntaxError } from './errors.js';
import { goParseInt } from './internal/go-strconv.js';

/** A schema as TypeBox emits it for a small job. */
const JobSchema = {
  type: 'object',
  required: ['ID', 'Priority', 'Meta', 'Datacenters', 'TaskGroups'],
  properties: {
    ID: { type: 'string' },
    Status: {
      anyOf: [
        { const: 'running', type: 'string' },
        { const: 'dead', type: 'string' },
      ],
    },
    Priority: { type: 'integer', minimum: 1 },
    Weight: { type: 'number' },
    Ports: { type: 'array', items: { type: 'integer' } },
    Meta: {
      anyOf: [{ type: 'object', patternProperties: { '^.*$': { type: 'string' } } }, { type: 'null' }],
    },
    Datacenters: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    Update: { anyOf: [{ type: 'object', properties: { Stagger: { type: 'integer' } } }, { type: 'null' }] },
    TaskGroups: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          Name: { type: 'string' },
          Count: { type: 'integer' },
          Meta: {
            anyOf: [{ type: 'object', patternProperties: { '^.*$': { type: 'string' } } }, { type: 'null' }],
          },
        },
      },
    },
  },
} as const;

const job = {
  ID: 'web',
  Status: 'running',
  Priority: 50,
  Weight: 0.5,
  Ports: [80, 443],
  Meta: null,
  Datacenters: null,
  Update: null,
  TaskGroups: [{ Name: 'web', Count: 2, Meta: null }],
};

type Outcome = boolean | string;

const UNTYPED = Symbol('untyped');

function run(text: string, datum: unknown = job, schema: unknown = JobSchema): Outcome {
  try {
    return compileFilter(text, schema === UNTYPED ? {} : { schema })(datum);
  } catch (e) {
    if (FilterEvaluationError.is(e)) return `error:${e.code}`;
    if (FilterSyntaxError.is(e)) return `syntax:${e.code}`;
    throw e;
  }
}

describe('typed mode: a null map or list is empty', () => {
  it.each<[string, Outcome, Outcome]>([
    // expression, typed answer, untyped answer on the same datum
    ['Meta.owner == "x"', false, 'error:not-a-container'],
    ['Meta.owner != "x"', true, 'error:not-a-container'],
    ['"owner" in Meta', false, 'error:unsupported-kind'],
    ['"owner" not in Meta', true, 'error:unsupported-kind'],
    ['Meta contains "owner"', false, 'error:unsupported-kind'],
    ['Meta is empty', true, 'error:unsupported-kind'],
    ['Meta is not empty', false, 'error:unsupported-kind'],
    ['Meta.owner is empty', true, 'error:not-a-container'],
    ['Meta.owner matches "x"', false, 'error:not-a-container'],
    ['any Meta as k, v { v == "x" }', false, 'error:not-a-collection'],
    ['all Meta as k, v { v == "x" }', true, 'error:not-a-collection'],
    ['"dc1" in Datacenters', false, 'error:unsupported-kind'],
    ['"dc1" not in Datacenters', true, 'error:unsupported-kind'],
    ['Datacenters is empty', true, 'error:unsupported-kind'],
    ['any Datacenters as dc { dc == "dc1" }', false, 'error:not-a-collection'],
    ['all Datacenters as dc { dc == "dc1" }', true, 'error:not-a-collection'],
    ['Datacenters.0 == "dc1"', 'error:index-out-of-range', 'error:not-a-container'],
    ['any TaskGroups as tg { tg.Meta.owner == "x" }', false, 'error:not-a-container'],
    ['all TaskGroups as tg { tg.Meta is empty }', true, 'error:unsupported-kind'],
    // as the service: a nil map or slice is nil, an empty one is not
    ['Meta is nil', true, true],
    ['Meta is not nil', false, false],
    // operators that never apply to a map still fail, as on an empty map
    ['Meta == "x"', 'error:unsupported-kind', 'error:unsupported-kind'],
    ['Meta matches "x"', 'error:unsupported-kind', 'error:unsupported-kind'],
    // a null struct (a Go pointer) is not a map: going through it fails, as in the service
    ['Update.Stagger == 1', 'error:not-a-container', 'error:not-a-container'],
    ['Update is nil', true, true],
  ])('%s -> typed %s, untyped %s', (text, typed, untyped) => {
    expect(run(text)).toBe(typed);
    expect(run(text, job, UNTYPED)).toBe(untyped);
    setCodegen(false);
    try {
      expect(run(text)).toBe(typed);
    } finally {
      setCodegen(undefined);
    }
  });

  it('reads present maps and lists as before', () => {
    const full = { ...job, Meta: { owner: 'team-a' }, Datacenters: ['dc1'] };
    expect(run('Meta.owner == "team-a" and "dc1" in Datacenters', full)).toBe(true);
    expect(run('Meta is nil or Datacenters is nil', full)).toBe(false);
  });
});

describe('typed mode: unknown fields are compile-time errors', () => {
  function syntaxError(text: string, schema: unknown = JobSchema): FilterSyntaxError {
    try {
      compileFilter(text, { schema });
    } catch (e) {
      if (FilterSyntaxError.is(e)) return e;
      throw e;
    }
    throw new Error(`${text} compiled`);
  }

  it('names the field, its position and the closest declared name', () => {
    const e = syntaxError('Status == "running" and Priorty == 50');
    expect(e).toMatchObject({ code: 'unknown-field', line: 1, column: 25, offset: 24, length: 7 });
    expect(e.message).toBe('1:25: An item has no field "Priorty"; did you mean "Priority"?');
    expect(e.format()).toBe(
      '1:25: An item has no field "Priorty"; did you mean "Priority"?\nStatus == "running" and Priorty == 50\n                        ^~~~~~~',
    );
    expect(e.diagnostics[0]).toMatchObject({
      kind: 'schema',
      expected: expect.arrayContaining(['Priority']),
    });
  });

  it.each<[string, string, number]>([
    ['TaskGroups.0.Nmae == "web"', 'TaskGroups.0 has no field "Nmae"; did you mean "Name"?', 13],
    ['any TaskGroups as tg { tg.Cuont == 1 }', 'tg has no field "Cuont"; did you mean "Count"?', 26],
    ['"/TaskGroups/0/Nmae" == "web"', 'TaskGroups.0 has no field "Nmae"; did you mean "Name"?', 15],
    ['ID.x == 1', 'ID is a string, so it has no field "x".', 3],
    [
      'TaskGroups.Name == "web"',
      'TaskGroups is an array, so "Name" is not a valid index; to test its elements use "any TaskGroups as e { ... }".',
      11,
    ],
    [
      'Zzzzzz is empty',
      'An item has no field "Zzzzzz" (fields: ID, Status, Priority, Weight, Ports, Meta, Datacenters, Update, TaskGroups).',
      0,
    ],
    ['status == "running"', 'An item has no field "status"; did you mean "Status"?', 0],
  ])('%s', (text, message, offset) => {
    const e = syntaxError(text);
    expect(e.code).toBe('unknown-field');
    expect(e.message).toBe(`1:${offset + 1}: ${message}`);
    expect(e.offset).toBe(offset);
  });

  it('lets any key through a map, and checks nothing through `{}`, `true` or an unresolved $ref', () => {
    expect(run('Meta.anything == "x"', { ...job, Meta: { anything: 'x' } })).toBe(true);
    expect(run('Zzz == 1', { Zzz: 1 }, {})).toBe(true);
    expect(run('Zzz == 1', { Zzz: 1 }, true)).toBe(true);
    expect(run('A.Zzz == 1', { A: { Zzz: 1 } }, { properties: { A: { $ref: 'elsewhere.json' } } })).toBe(
      true,
    );
  });

  it('follows $ref into $defs, even cyclic ones', () => {
    const tree = {
      $defs: {
        Node: { type: 'object', properties: { Name: { type: 'string' }, Child: { $ref: '#/$defs/Node' } } },
      },
      $ref: '#/$defs/Node',
    };
    expect(run('Child.Child.Name == "x"', { Child: { Child: { Name: 'x' } } }, tree)).toBe(true);
    expect(run('Child.Nme == "x"', {}, tree)).toBe('syntax:unknown-field');
    const loop = { $defs: { A: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' };
    expect(run('X == 1', { X: 1 }, loop)).toBe(true);
  });

  it('does not check names bound to keys or indexes (they fail when used as paths, as before)', () => {
    expect(run('any TaskGroups as i, tg { i == 0 and tg.Name == "web" }')).toBe(true);
    expect(run('any Meta as k { k.x == 1 }', { ...job, Meta: { a: 'b' } })).toBe('error:bound-value-path');
  });

  it('rejects a schema option that is not a schema', () => {
    expect(() => compileFilter('a == 1', { schema: 'Job' })).toThrow(
      'The schema option needs a JSON Schema object but got the string "Job".',
    );
    expect(() => compileFilter('a == 1', { schema: null })).toThrow(TypeError);
  });
});

describe('typed mode: integer and float fields', () => {
  it.each<[string, Outcome, Outcome]>([
    ['Priority == 50', true, true],
    ['Priority == "50"', true, true],
    ['Priority == "0x32"', true, 'error:invalid-value'],
    ['Priority == "0o62"', true, 'error:invalid-value'],
    ['Priority == "5_0"', true, true],
    ['Priority == 50.0', 'error:invalid-value', true],
    ['Priority != 50.0', 'error:invalid-value', false],
    ['Priority == "5e1"', 'error:invalid-value', true],
    ['Priority == 99999999999999999999', 'error:invalid-value', false],
    ['Weight == 0.5', true, true],
    ['Weight == "5e-1"', true, true],
    ['443 in Ports', true, true],
    ['"0x1bb" in Ports', true, false],
    ['443.0 in Ports', 'error:invalid-value', true],
    ['any TaskGroups as tg { tg.Count == 2.0 }', 'error:invalid-value', true],
    ['any TaskGroups as tg { tg.Count == "0x2" }', true, 'error:invalid-value'],
  ])('%s -> typed %s, untyped %s', (text, typed, untyped) => {
    expect(run(text)).toBe(typed);
    expect(run(text, job, UNTYPED)).toBe(untyped);
  });
});

describe('typed mode with the model schemas of @sked/model', () => {
  const meta = (m: Record<string, string> | null): unknown => ({ ...stub, Meta: m });
  const stub = {
    ID: 'web',
    Type: 'batch',
    Status: 'running',
    Priority: 50,
    Datacenters: ['dc1'],
    Meta: null,
    JobSummary: { Summary: { web: { Failed: 0, Running: 1 } } },
  };

  it('answers the client README filter on a job whose Meta is null', () => {
    const keep = compileFilter('Type == "batch" and Meta.team == "data"', { schema: JobListStub });
    expect(keep(meta(null))).toBe(false);
    expect(keep(meta({ team: 'data' }))).toBe(true);
    expect(compileFilter('Meta.team != "data"', { schema: Job })(meta(null))).toBe(true);
  });

  it('rejects misspelt fields of a Job', () => {
    expect(run('TaskGroups.0.Tasks.0.Drvier == "docker"', {}, Job)).toBe('syntax:unknown-field');
    expect(run('any JobSummary.Summary as _, s { s.Faild != 0 }', stub, JobListStub)).toBe(
      'syntax:unknown-field',
    );
    expect(run('any JobSummary.Summary as _, s { s.Failed != 0 }', stub, JobListStub)).toBe(false);
  });
});

describe('createFilterCache', () => {
  it('compiles a text once per cache and keeps the most recently used texts', () => {
    const cache = createFilterCache({ schema: JobSchema, maxEntries: 2 });
    const a = cache.compile('Meta.owner == "x"');
    expect(cache.compile('Meta.owner == "x"')).toBe(a);
    expect(a(job)).toBe(false);
    cache.compile('ID == "web"');
    cache.compile('Meta.owner == "x"'); // used again: now the most recent
    cache.compile('Priority == 1'); // evicts ID == "web"
    expect(cache.size).toBe(2);
    expect(cache.compile('Meta.owner == "x"')).toBe(a);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.compile('Meta.owner == "x"')).not.toBe(a);
  });

  test.prop([fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }), fc.integer({ min: 1, max: 4 })])(
    'hits and evictions are those of a least-recently-used list of maxEntries texts',
    (uses, maxEntries) => {
      // Arrange: a model LRU (most recent last) beside the cache
      const cache = createFilterCache({ maxEntries });
      const model: number[] = [];
      const last = new Map<number, unknown>();
      for (const i of uses) {
        // Act
        const compiled = cache.compile(`Priority == ${i}`);
        // Assert: the same predicate exactly when the model still held the text
        const hit = model.includes(i);
        expect(compiled === last.get(i)).toBe(hit);
        if (hit) model.splice(model.indexOf(i), 1);
        else if (model.length >= maxEntries) model.shift();
        model.push(i);
        last.set(i, compiled);
        expect(cache.size).toBe(model.length);
      }
    },
  );

  it('throws the same syntax error for a text each time', () => {
    const cache = createFilterCache({ schema: JobSchema });
    let first: unknown;
    try {
      cache.compile('Priorty == 1');
    } catch (e) {
      first = e;
    }
    expect(FilterSyntaxError.is(first) && first.code).toBe('unknown-field');
    expect(() => cache.compile('Priorty == 1')).toThrow(first as Error);
  });

  it('rejects a bad size and non-text filters', () => {
    expect(() => createFilterCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createFilterCache({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => createFilterCache().compile(42 as unknown as string)).toThrow(TypeError);
  });
});

describe('typed mode: properties', () => {
  /** Compiles in typed mode, or undefined when the expression names a field the schema does not allow. */
  const typed = (ast: Expression, schema: unknown): ((d: unknown) => boolean) | undefined => {
    try {
      return compileFilter(ast, { schema });
    } catch (e) {
      if (FilterSyntaxError.is(e) && e.code === 'unknown-field') return undefined;
      throw e;
    }
  };

  test.prop([expressionArb, typedDatumArb(false)], { numRuns: 400 })(
    'without null collections, typed mode agrees with the untyped engine',
    (ast, { datum, schema }) => {
      const keep = typed(ast, schema);
      // Only where no null is read as a collection (a map's value union can make one so).
      if (keep === undefined || !isDeepStrictEqual(substituteNulls(datum, schema), datum)) return;
      expect(outcome(() => keep(datum))).toBe(outcome(() => compileFilter(ast)(datum)));
    },
  );

  /** `is nil` is the one operator that tells a null collection from an empty one. */
  const withoutNil = (ast: Expression): Expression =>
    mapMatches(ast, (m) => {
      if (m.operator === 'is-nil') return { ...m, operator: 'is-empty' };
      if (m.operator === 'is-not-nil') return { ...m, operator: 'is-not-empty' };
      return m;
    });

  for (const codegen of [true, false]) {
    test.prop([expressionArb.map(withoutNil), typedDatumArb(true)], { numRuns: 400 })(
      `a null map or list answers as an empty one (reference evaluator on the emptied datum, codegen ${codegen ? 'on' : 'off'})`,
      (ast, { datum, schema }) => {
        setCodegen(codegen);
        try {
          const keep = typed(ast, schema);
          if (keep === undefined) return;
          const emptied = substituteNulls(datum, schema);
          expect(outcome(() => keep(datum))).toBe(outcome(() => referenceEvaluate(ast, emptied)));
        } finally {
          setCodegen(undefined);
        }
      },
    );
  }

  test.prop(
    [
      fc.integer({ min: -1000, max: 1000 }),
      fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 4 }),
      fc.oneof(
        fc.constantFrom('50', '0x10', '1_0', '-1', '1.0', '1e1', 'abc', '', '0b11', '077'),
        fc.integer().map(String),
      ),
    ],
    { numRuns: 300 },
  )('an integer field compares as Go ParseInt does', (n, list, raw) => {
    const schema = {
      type: 'object',
      properties: { N: { type: 'integer' }, L: { type: 'array', items: { type: 'integer' } } },
    };
    const parsed = goParseInt(raw);
    const datum = { N: n, L: list };
    const quoted = JSON.stringify(raw);
    expect(outcome(() => compileFilter(`N == ${quoted}`, { schema })(datum))).toBe(
      parsed.ok ? BigInt(n) === parsed.value : 'error',
    );
    expect(outcome(() => compileFilter(`N != ${quoted}`, { schema })(datum))).toBe(
      parsed.ok ? BigInt(n) !== parsed.value : 'error',
    );
    expect(outcome(() => compileFilter(`${quoted} in L`, { schema })(datum))).toBe(
      list.length === 0 ? false : parsed.ok ? list.some((x) => BigInt(x) === parsed.value) : 'error',
    );
  });
});
