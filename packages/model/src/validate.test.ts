import Type from 'typebox';
import { describe, expect, it } from 'vitest';

import { problemsOf, valueOf } from '../test/results.js';
import * as M from './index.js';
import { formatProblems, matches, pointerToDotted, validate } from './validate.js';

const minimalJob = { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };

describe('validate', () => {
  it('returns the same value, typed, when it matches', () => {
    const body = { Job: minimalJob };
    const result = validate(M.JobRegisterRequest, body);
    expect(result).toEqual({ ok: true, value: body });
    expect(valueOf(result)).toBe(body);
  });

  it.each(['', 'running', 'some-future-status'])(
    'accepts and ignores the server-owned Job.Status %j on input (parse output registers as is)',
    (status) => {
      const body = { Job: { ...minimalJob, Status: status } };
      expect(validate(M.JobRegisterRequest, body).ok).toBe(true);
    },
  );

  it('reports a wrong type with its JSON Pointer path and a sentence', () => {
    // Arrange
    const body = { Job: { ID: 'web', TaskGroups: [{ Name: 'g', Count: 'x' }] } };

    // Act
    const result = validate(M.JobRegisterRequest, body);

    // Assert
    expect(result).toEqual({
      ok: false,
      problems: [{ path: '/Job/TaskGroups/0/Count', message: 'expected an integer but got the string "x"' }],
    });
  });

  it.each([
    [{ Job: { ID: 'web', Priority: 1.5 } }, '/Job/Priority', 'expected an integer but got the number 1.5'],
    [
      { Job: { ID: 'web', Priority: 0 } },
      '/Job/Priority',
      'expected a number of at least 1 but got the number 0',
    ],
    [
      { Job: { ID: 'web', Priority: 101 } },
      '/Job/Priority',
      'expected a number of at most 100 but got the number 101',
    ],
    [
      { Job: { ID: 'web', Type: 'system' } },
      '/Job/Type',
      'expected one of "service", "batch" or "sysbatch" but got the string "system"',
    ],
    [{ Job: { ID: '' } }, '/Job/ID', 'must not be empty'],
    [{ Job: {} }, '/Job/ID', 'is required but missing'],
    [{}, '/Job', 'is required but missing'],
    [{ Job: { ID: 'web', Periodic: 3 } }, '/Job/Periodic', 'expected an object or null but got the number 3'],
    [{ Job: { ID: 'web', Meta: [] } }, '/Job/Meta', 'expected an object or null but got an array of 0 items'],
    [{ Job: { ID: 'web', Meta: { owner: 1 } } }, '/Job/Meta/owner', 'expected a string but got the number 1'],
    [
      { Job: { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't' }] }] } },
      '/Job/TaskGroups/0/Tasks/0/Driver',
      'is required but missing',
    ],
    [
      { Job: { ID: 'web', TaskGroups: [{ Name: 'g', Networks: [{ ReservedPorts: [{ Value: 70000 }] }] }] } },
      '/Job/TaskGroups/0/Networks/0/ReservedPorts/0/Value',
      'expected a number of at most 65535 but got the number 70000',
    ],
    [
      { Job: { ID: 'web', AllAtOnce: 'yes' } },
      '/Job/AllAtOnce',
      'expected a boolean but got the string "yes"',
    ],
    [
      { Job: { ID: 'web', Datacenters: 'dc1' } },
      '/Job/Datacenters',
      'expected an array or null but got the string "dc1"',
    ],
    [{ Job: null }, '/Job', 'expected an object but got null'],
  ])('reports %j at %s: %s', (body, path, message) => {
    const result = validate(M.JobRegisterRequest, body);
    expect(problemsOf(result)).toEqual([{ path, message }]);
  });

  it('reports every problem, in document order', () => {
    // Arrange
    const body = {
      Job: {
        ID: 7,
        Priority: 'high',
        TaskGroups: [{ Name: 'g', Count: -1, Tasks: [{ Name: 't', Driver: 'mock', KillTimeout: 'five' }] }],
        Periodic: { Enabled: 'yes' },
      },
    };

    // Act
    const result = validate(M.JobRegisterRequest, body);

    // Assert
    expect(formatProblems(problemsOf(result)).split('\n')).toEqual([
      'Job.ID: expected a string but got the number 7',
      'Job.Priority: expected an integer but got the string "high"',
      'Job.TaskGroups[0].Count: expected a number of at least 0 but got the number -1',
      'Job.TaskGroups[0].Tasks[0].KillTimeout: expected an integer but got the string "five"',
      'Job.Periodic.Enabled: expected a boolean but got the string "yes"',
    ]);
  });

  it('reports a value of the wrong type at the root', () => {
    expect(validate(M.JobRegisterRequest, undefined)).toEqual({
      ok: false,
      problems: [{ path: '', message: 'expected an object but got nothing' }],
    });
    expect(validate(M.EventEnvelope, 'text')).toEqual({
      ok: false,
      problems: [{ path: '', message: 'expected an object but got the string "text"' }],
    });
  });

  it('descends into recursive diff objects', () => {
    const body = {
      Type: 'Edited',
      ID: 'x',
      Fields: null,
      TaskGroups: null,
      Objects: [
        {
          Type: 'Edited',
          Name: 'o',
          Fields: null,
          Objects: [{ Type: 'Bad', Name: 'n', Fields: null, Objects: null }],
        },
      ],
    };
    const result = validate(M.JobDiff, body);
    expect(problemsOf(result)).toContainEqual({
      path: '/Objects/0/Objects/0/Type',
      message: 'expected one of "Added", "Deleted", "Edited" or "None" but got the string "Bad"',
    });
  });

  it('uses the words of x-expected for patterns', () => {
    expect(validate(M.JobDispatchRequest, { Payload: 'not base64!' })).toEqual({
      ok: false,
      problems: [
        {
          path: '/Payload',
          message:
            'expected base64-encoded bytes (at most 16384 bytes once decoded) but got the string "not base64!"',
        },
      ],
    });
    const peer = validate(M.PeeringEstablishRequest, { PeerName: 'bad name', PeeringToken: 't' });
    expect(formatProblems(problemsOf(peer))).toMatch(
      /^PeerName: expected a DNS hostname label .* but got the string "bad name"$/,
    );
  });

  it('rejects a dispatch payload whose base64 text is longer than 16384 bytes need (21848 characters)', () => {
    const payload = Buffer.alloc(16387).toString('base64');
    const result = validate(M.JobDispatchRequest, { Payload: payload });
    expect(problemsOf(result)).toHaveLength(1);
    expect(validate(M.JobDispatchRequest, { Payload: Buffer.alloc(16384).toString('base64') }).ok).toBe(true);
  });

  it('accepts unknown extra fields on input and keeps them in the returned value', () => {
    const body = { Job: { ...minimalJob, Extra: { deep: [1, 2] } }, AlsoExtra: true };
    const result = validate(M.JobRegisterRequest, body);
    expect(valueOf(result)).toBe(body);
  });

  it('summarises unions of literals and of types', () => {
    expect(validate(M.LdapConfigRequest, { request_timeout: true })).toEqual({
      ok: false,
      problems: [
        { path: '/request_timeout', message: 'expected an integer or a string but got the boolean true' },
      ],
    });
    expect(validate(M.ExecClientFrame, { version: 2 })).toEqual({
      ok: false,
      problems: [{ path: '/version', message: 'expected 1 but got the number 2' }],
    });
  });

  it('lists at most maxProblems problems, the last one summarising the rest', () => {
    // Arrange
    const body = Array.from({ length: 30 }, () => 'x');

    // Act
    const result = validate(Type.Array(Type.Integer()), body, { maxProblems: 10 });

    // Assert
    const problems = problemsOf(result);
    expect(problems).toHaveLength(10);
    expect(problems[0]).toEqual({ path: '/0', message: 'expected an integer but got the string "x"' });
    expect(problems[9]).toEqual({ path: '', message: '... and 21 more problems' });
  });

  it('stops searching a hostile body early and says there are more problems', () => {
    // Arrange
    const groups = Array.from({ length: 20_000 }, (_, i) => ({ Name: `g${i}`, Count: 'x' }));

    // Act
    const problems = problemsOf(validate(M.JobRegisterRequest, { Job: { ID: 'web', TaskGroups: groups } }));

    // Assert
    expect(problems).toHaveLength(100);
    expect(problems[0]).toEqual({
      path: '/Job/TaskGroups/0/Count',
      message: 'expected an integer but got the string "x"',
    });
    expect(problems[99]).toEqual({ path: '', message: '... and more problems' });
  });

  it('finds more than the 8 problems TypeBox buffers by default, without changing its setting', async () => {
    const { Settings } = await import('typebox/system');
    const before = Settings.Get().maxErrors;
    const result = validate(
      Type.Array(Type.Integer()),
      Array.from({ length: 30 }, () => 'x'),
    );
    expect(problemsOf(result)).toHaveLength(30);
    expect(Settings.Get().maxErrors).toBe(before);
  });

  describe('bad input never throws', () => {
    it('quotes huge strings only in part', () => {
      const huge = 'a'.repeat(1_000_000);
      const result = validate(M.JobRegisterRequest, { Job: { ID: 'web', Priority: huge } });
      const message = problemsOf(result)[0]?.message ?? '';
      expect(message.length).toBeLessThan(200);
      expect(message).toContain('(1000000 characters)');
    });

    it('treats "__proto__" and "constructor" keys as plain keys and pollutes nothing', () => {
      // Arrange
      const body = JSON.parse(
        '{"Job":{"ID":"web","__proto__":{"polluted":true},"Meta":{"__proto__":"x","constructor":"y"}},"__proto__":{"Job":1}}',
      ) as unknown;

      // Act
      const result = validate(M.JobRegisterRequest, body);
      const bad = validate(
        M.JobRegisterRequest,
        JSON.parse('{"Job":{"ID":"web","Meta":{"__proto__":1}}}') as unknown,
      );

      // Assert
      expect(result.ok).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(bad).toEqual({
        ok: false,
        problems: [{ path: '/Job/Meta/__proto__', message: 'expected a string but got the number 1' }],
      });
    });

    it('reports a value whose getter throws instead of throwing', () => {
      const hostile = {
        get Job(): never {
          throw new Error('boom');
        },
      };
      const result = validate(M.JobRegisterRequest, hostile);
      expect(problemsOf(result)).toEqual([{ path: '', message: 'could not be validated: boom' }]);
    });

    it.each([
      ['a number', 42],
      ['a string', 'x'],
      ['null', null],
      ['an array', []],
      ['a deeply nested array', JSON.parse('['.repeat(5000) + ']'.repeat(5000)) as unknown],
      ['NaN', Number.NaN],
    ])('answers with a result, not an exception, for %s against every exported schema', (_name, value) => {
      const schemas = Object.values(M).filter(isSchema);
      const results = schemas.map((schema) => validate(schema, value));
      expect(schemas.length).toBeGreaterThan(100);
      expect(results.every((result) => result.ok || result.problems.length > 0)).toBe(true);
    });
  });
});

describe('matches', () => {
  it('is a type guard agreeing with validate', () => {
    expect(matches(M.JobInput, minimalJob)).toBe(true);
    expect(matches(M.JobInput, { ID: 3 })).toBe(false);
    expect(matches(M.JobInput, undefined)).toBe(false);
  });
});

describe('formatProblems', () => {
  it('prints one line per problem with dotted paths', () => {
    expect(
      formatProblems([
        { path: '/Job/TaskGroups/0/Count', message: 'expected an integer but got the string "x"' },
        { path: '', message: 'expected an object but got nothing' },
      ]),
    ).toBe(
      'Job.TaskGroups[0].Count: expected an integer but got the string "x"\n(root): expected an object but got nothing',
    );
    expect(formatProblems([])).toBe('');
  });
});

describe('pointerToDotted', () => {
  it.each([
    ['', '(root)'],
    ['/Job', 'Job'],
    ['/0/ID', '[0].ID'],
    ['/Job/Meta/a b', 'Job.Meta["a b"]'],
    ['/Job/Meta/a~1b~0c', 'Job.Meta["a/b~c"]'],
    ['/Job/Meta/', 'Job.Meta[""]'],
  ])('%s -> %s', (pointer, dotted) => {
    expect(pointerToDotted(pointer)).toBe(dotted);
  });
});

function isSchema(value: unknown): value is M.TSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ('type' in value || 'anyOf' in value || '$ref' in value)
  );
}

describe('assertValid', () => {
  it('returns the typed value when it matches', () => {
    const body = { Job: minimalJob };
    expect(M.assertValid(M.JobRegisterRequest, body)).toBe(body);
  });

  it('throws a ValidationError listing every problem', () => {
    // Arrange
    const body = { Job: { ID: 'web', Priority: 'high', TaskGroups: [{ Count: 1 }] } };

    // Act
    let caught: unknown;
    try {
      M.assertValid(M.JobRegisterRequest, body, { subject: 'the job register body' });
    } catch (error) {
      caught = error;
    }

    // Assert
    expect(M.ValidationError.is(caught)).toBe(true);
    expect(caught).toBeInstanceOf(M.ValidationError);
    expect(caught).toMatchObject({
      name: 'ValidationError',
      subject: 'the job register body',
      message:
        'The job register body is not valid: /Job/Priority: expected an integer but got the string "high"; /Job/TaskGroups/0/Name: is required but missing.',
      problems: [
        { path: '/Job/Priority', message: 'expected an integer but got the string "high"' },
        { path: '/Job/TaskGroups/0/Name', message: 'is required but missing' },
      ],
    });
  });

  it('is recognised by its brand only', () => {
    expect(M.ValidationError.is(new Error('x'))).toBe(false);
    expect(M.ValidationError.is(null)).toBe(false);
    expect(M.ValidationError.is({ name: 'ValidationError' })).toBe(false);
  });
});
