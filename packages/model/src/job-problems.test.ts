import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { canonicalizeJob } from './canonicalize.js';
import { ValidationError } from './errors.js';
import type { JobInput, SchedulerJob } from './job.js';
import { jobProblems } from './job-problems.js';
import { formatProblems } from './validate.js';

/** A canonicalized job from input that skipped schema validation (as a job file or a test may give). */
const job = (input: Record<string, unknown>): SchedulerJob => canonicalizeJob(input as unknown as JobInput);
const task = (extra: Record<string, unknown> = {}) => ({ Name: 'server', Driver: 'mock', ...extra });
const group = (extra: Record<string, unknown> = {}) => ({ Name: 'web', Tasks: [task()], ...extra });
const web = (extra: Record<string, unknown> = {}) => job({ ID: 'web', TaskGroups: [group()], ...extra });

describe('jobProblems', () => {
  it('finds nothing wrong in a plain job, a system job, and a periodic or parameterized one', () => {
    expect(jobProblems(web())).toEqual([]);
    expect(jobProblems(web({ Type: 'system' }))).toEqual([]);
    expect(jobProblems(web({ Type: 'batch', Periodic: { Spec: '*/5 * * * *' } }))).toEqual([]);
    expect(jobProblems(web({ Type: 'batch', ParameterizedJob: { Payload: 'required' } }))).toEqual([]);
    const constrained = { Constraints: [{ LTarget: '${attr.os}', RTarget: '^linux$', Operand: 'regexp' }] };
    expect(jobProblems(web(constrained))).toEqual([]);
  });

  const long = 'x'.repeat(129);
  it.each<[string, SchedulerJob, string, string]>([
    ['an empty ID', { ...web(), ID: '' }, '/ID', 'Missing job ID.'],
    ['a space in the ID', web({ ID: 'a b' }), '/ID', 'Job ID "a b" contains a space.'],
    ['a null character in the ID', web({ ID: 'a\u0000b' }), '/ID', 'Job ID contains a null character.'],
    ['a long ID', web({ ID: long }), '/ID', 'Job ID must be at most 128 characters, got 129.'],
    [
      'an unknown type',
      web({ Type: 'daemon' }),
      '/Type',
      'Invalid job type "daemon": expected one of service, batch, sysbatch, system.',
    ],
    ['priority 0', web({ Priority: 0 }), '/Priority', 'Job priority must be between [1, 100], got 0.'],
    ['priority 101', web({ Priority: 101 }), '/Priority', 'Job priority must be between [1, 100], got 101.'],
    ['priority 1.5', web({ Priority: 1.5 }), '/Priority', 'Job priority must be between [1, 100], got 1.5.'],
    ['no task group', web({ TaskGroups: [] }), '/TaskGroups', 'Missing job task groups.'],
    [
      'an unknown job constraint operand',
      web({ Constraints: [{ Operand: 'near' }] }),
      '/Constraints/0/Operand',
      'Job constraint operand "near" is not supported.',
    ],
    [
      'a regexp that does not compile',
      web({ Constraints: [{ Operand: '=' }, { Operand: 'regexp', RTarget: '(' }] }),
      '/Constraints/1/RTarget',
      'Job constraint regular expression "(" does not compile.',
    ],
    [
      'a bad parameterized payload',
      web({ ParameterizedJob: { Payload: 'maybe' } }),
      '/ParameterizedJob/Payload',
      'Parameterized job payload "maybe" is invalid: expected optional, required or forbidden.',
    ],
    [
      'an empty periodic spec',
      web({ Periodic: { Spec: ' ' } }),
      '/Periodic/Spec',
      'Periodic job must have a spec.',
    ],
    [
      'a periodic spec type other than cron',
      web({ Periodic: { Spec: '1h', SpecType: 'interval' } }),
      '/Periodic/SpecType',
      'Periodic spec type "interval" is not supported: expected cron.',
    ],
    [
      'a bad cron spec',
      web({ Periodic: { Spec: '0 24 * * *' } }),
      '/Periodic/Spec',
      'Periodic job has an invalid cron spec "0 24 * * *": hour value "24" is out of range 0-23.',
    ],
    [
      'an unknown periodic time zone',
      web({ Periodic: { Spec: '0 3 * * *', TimeZone: 'Mars/Olympus' } }),
      '/Periodic/TimeZone',
      'Periodic job has an invalid Periodic.TimeZone: "Mars/Olympus" is not a known IANA time zone name (such as "America/New_York" or "UTC").',
    ],
    [
      'a group without a name',
      web({ TaskGroups: [group({ Name: '' })] }),
      '/TaskGroups/0/Name',
      'Task group 1 is missing a name.',
    ],
    [
      'a duplicate group name',
      web({ TaskGroups: [group(), group()] }),
      '/TaskGroups/1/Name',
      'Task group "web" is defined more than once.',
    ],
    [
      'a negative count',
      web({ TaskGroups: [group({ Count: -1 })] }),
      '/TaskGroups/0/Count',
      'Task group "web" count must be a non-negative integer, got -1.',
    ],
    [
      'a group without tasks',
      web({ TaskGroups: [group({ Tasks: [] })] }),
      '/TaskGroups/0/Tasks',
      'Task group "web" has no tasks.',
    ],
    [
      'an unknown group constraint operand',
      web({ TaskGroups: [group({ Constraints: [{ Operand: 'near' }] })] }),
      '/TaskGroups/0/Constraints/0/Operand',
      'Task group "web" constraint operand "near" is not supported.',
    ],
    [
      'a bad group restart mode',
      web({
        TaskGroups: [
          group({ RestartPolicy: { Mode: 'retry' }, Tasks: [task({ RestartPolicy: { Mode: 'fail' } })] }),
        ],
      }),
      '/TaskGroups/0/RestartPolicy/Mode',
      'Task group "web" restart policy mode "retry" is invalid: expected fail or delay.',
    ],
    [
      'a bad delay function',
      web({ TaskGroups: [group({ ReschedulePolicy: { DelayFunction: 'linear' } })] }),
      '/TaskGroups/0/ReschedulePolicy/DelayFunction',
      'Task group "web" reschedule delay function "linear" is invalid: expected constant, exponential or fibonacci.',
    ],
    [
      'canaries in a batch job',
      {
        ...web({ Type: 'batch' }),
        TaskGroups: [{ ...web().TaskGroups[0]!, Update: { ...web().Update!, Canary: 1 } }],
      },
      '/TaskGroups/0/Update/Canary',
      'Task group "web" may only use canaries in a service job.',
    ],
    [
      'a task without a name',
      web({ TaskGroups: [group({ Tasks: [task({ Name: '' })] })] }),
      '/TaskGroups/0/Tasks/0/Name',
      'Task group "web" task 1 is missing a name.',
    ],
    [
      'a duplicate task name',
      web({ TaskGroups: [group({ Tasks: [task(), task()] })] }),
      '/TaskGroups/0/Tasks/1/Name',
      'Task group "web" task "server" is defined more than once.',
    ],
    [
      'a path in a task name',
      web({ TaskGroups: [group({ Tasks: [task({ Name: '../etc' })] })] }),
      '/TaskGroups/0/Tasks/0/Name',
      'Task group "web" task "../etc" name must not contain a path separator.',
    ],
    [
      'a task without a driver',
      web({ TaskGroups: [group({ Tasks: [task({ Driver: '' })] })] }),
      '/TaskGroups/0/Tasks/0/Driver',
      'Task group "web" task "server" is missing a driver.',
    ],
    [
      'too little CPU',
      web({ TaskGroups: [group({ Tasks: [task({ Resources: { CPU: 0 } })] })] }),
      '/TaskGroups/0/Tasks/0/Resources/CPU',
      'Task group "web" task "server" CPU must be at least 1 MHz, got 0.',
    ],
    [
      'too little memory',
      web({ TaskGroups: [group({ Tasks: [task({ Name: 'a' }), task({ Resources: { MemoryMB: 5 } })] })] }),
      '/TaskGroups/0/Tasks/1/Resources/MemoryMB',
      'Task group "web" task "server" memory must be at least 10 MB, got 5.',
    ],
    [
      'an unknown task constraint operand',
      web({ TaskGroups: [group({ Tasks: [task({ Constraints: [{ Operand: 'near' }] })] })] }),
      '/TaskGroups/0/Tasks/0/Constraints/0/Operand',
      'Task group "web" task "server" constraint operand "near" is not supported.',
    ],
    [
      'a bad task restart mode',
      web({ TaskGroups: [group({ Tasks: [task({ RestartPolicy: { Mode: 'retry' } })] })] }),
      '/TaskGroups/0/Tasks/0/RestartPolicy/Mode',
      'Task group "web" task "server" restart policy mode "retry" is invalid: expected fail or delay.',
    ],
    [
      'two leader tasks',
      web({ TaskGroups: [group({ Tasks: [task({ Leader: true }), task({ Name: 'b', Leader: true })] })] }),
      '/TaskGroups/0/Tasks/1/Leader',
      'Task group "web" has more than one leader task.',
    ],
  ])('reports %s at its path with the service sentence', (_, bad, path, message) => {
    expect(jobProblems(bad)).toEqual([{ path, message }]);
  });

  it('lists every problem in the service order, printable with formatProblems', () => {
    const bad = web({
      Priority: 0,
      TaskGroups: [group({ Tasks: [task({ Resources: { MemoryMB: 5 } })] }), group()],
    });
    const problems = jobProblems(bad);
    expect(problems.map((p) => p.message).join(' ')).toBe(
      'Job priority must be between [1, 100], got 0. Task group "web" task "server" memory must be at least 10 MB, got 5. Task group "web" is defined more than once.',
    );
    expect(formatProblems(problems).split('\n')).toEqual([
      'Priority: Job priority must be between [1, 100], got 0.',
      'TaskGroups[0].Tasks[0].Resources.MemoryMB: Task group "web" task "server" memory must be at least 10 MB, got 5.',
      'TaskGroups[1].Name: Task group "web" is defined more than once.',
    ]);
  });

  it('does not change the job', () => {
    const bad = web({ Priority: 0, TaskGroups: [group(), group()] });
    const copy = structuredClone(bad);
    jobProblems(bad);
    expect(bad).toEqual(copy);
  });

  it('refuses what is not a canonicalized job with the model error, saying where', () => {
    const notJob = { ID: 'x', Type: 'service', Priority: '50', TaskGroups: [{ Name: 'g' }] };
    let thrown: unknown;
    try {
      jobProblems(notJob as unknown as SchedulerJob);
    } catch (error) {
      thrown = error;
    }
    expect(ValidationError.is(thrown)).toBe(true);
    const paths = (thrown as ValidationError).problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/Priority', '/TaskGroups/0/Count', '/TaskGroups/0/Tasks']),
    );
    expect(() => jobProblems(null as unknown as SchedulerJob)).toThrow(ValidationError);
  });
});

describe('names of Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'type %j is an unknown type with the service defaults, reported as a problem',
    (Type) => {
      const canonical = web({ Type });
      expect(canonical.Update).toEqual(web().Update);
      expect(canonical.TaskGroups[0]?.RestartPolicy).toEqual(web().TaskGroups[0]?.RestartPolicy);
      expect(jobProblems(canonical)).toEqual([
        {
          path: '/Type',
          message: `Invalid job type "${Type}": expected one of service, batch, sysbatch, system.`,
        },
      ]);
    },
  );
});

describe('properties', () => {
  test.prop([fc.jsonValue()])('arbitrary JSON never throws anything but the model error', (value) => {
    try {
      expect(Array.isArray(jobProblems(value as unknown as SchedulerJob))).toBe(true);
    } catch (error) {
      expect(ValidationError.is(error)).toBe(true);
    }
  });

  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('', 'web', '..', 'a/b', 'regexp', '=', '(', '* * * * *'),
  );
  // JSON numbers: finite (TypeBox's number check refuses NaN and the infinities)
  const anyNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const drawnJob = fc.record({
    ID: text,
    Type: fc.oneof(text, fc.constantFrom('service', 'batch', 'system')),
    Priority: anyNumber,
    Periodic: fc.option(fc.record({ Spec: text, SpecType: fc.constantFrom('cron', 'x') })),
    Constraints: fc.option(fc.array(fc.record({ Operand: text, RTarget: text }), { maxLength: 3 })),
    TaskGroups: fc.array(
      fc.record({
        Name: text,
        Count: anyNumber,
        Tasks: fc.array(
          fc.record({
            Name: text,
            Driver: text,
            Leader: fc.boolean(),
            Resources: fc.record({ CPU: anyNumber }),
          }),
          { maxLength: 3 },
        ),
      }),
      { maxLength: 3 },
    ),
  });
  type DrawnJob = typeof drawnJob extends fc.Arbitrary<infer T> ? T : never;
  // Draws that found a bug (issue 29): a type named after an Object.prototype member got a
  // function as its defaults, and jobProblems threw instead of listing the bad Type.
  const foundByFastCheck = ['toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProperty'].map(
    (Type): [DrawnJob] => [
      { ID: 'web', Type, Priority: 50, Periodic: null, Constraints: null, TaskGroups: [] },
    ],
  );
  test.prop([drawnJob], { examples: foundByFastCheck })(
    'a canonicalized job of any field values gives problems, never an error',
    (input) => {
      const problems = jobProblems(job(input));
      for (const problem of problems) {
        expect(problem.path).toMatch(/^\/[A-Za-z]/);
        expect(problem.message).toMatch(/\.$/);
      }
    },
  );
});
