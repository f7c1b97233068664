import { fc, test } from '@fast-check/vitest';
import * as M from '@sked/model';
import { describe, expect, it } from 'vitest';

import * as A from './index.js';
import { invalidMutation } from './mutation.js';

/** Each arbitrary with the schema its values must match. */
const cases: readonly [string, fc.Arbitrary<unknown>, M.TSchema][] = [
  ['JobInput', A.jobInputArbitrary(), M.JobInput],
  ['TaskGroupInput', A.taskGroupInputArbitrary(), M.TaskGroupInput],
  ['TaskInput', A.taskInputArbitrary(), M.TaskInput],
  ['Job', A.jobArbitrary(), M.Job],
  ['JobListStub', A.jobListStubArbitrary(), M.JobListStub],
  ['JobSummary', A.jobSummaryArbitrary(), M.JobSummary],
  ['Evaluation', A.evaluationArbitrary(), M.Evaluation],
  ['Deployment', A.deploymentArbitrary(), M.Deployment],
  ['Allocation', A.allocationArbitrary(), M.Allocation],
  ['TaskState', A.taskStateArbitrary(), M.TaskState],
  ['TaskEvent', A.taskEventArbitrary(), M.TaskEvent],
  ['AllocationMetric', A.allocationMetricArbitrary(), M.AllocationMetric],
  ['CsiVolume', A.csiVolumeArbitrary(), M.CsiVolume],
  ['Event', A.eventArbitrary(), M.Event],
  ['EventEnvelope', A.eventEnvelopeArbitrary(), M.EventEnvelope],
  ['JobRegisterRequest', A.jobRegisterRequestArbitrary(), M.JobRegisterRequest],
  ['Node', A.nodeArbitrary(), M.Node],
  ['ExecClientFrame', A.execClientFrameArbitrary(), M.ExecClientFrame],
  ['ExecServerFrame', A.execServerFrameArbitrary(), M.ExecServerFrame],
  ['LdapConfigRequest', A.ldapConfigRequestArbitrary(), M.LdapConfigRequest],
  ['Peering', A.peeringArbitrary(), M.Peering],
];

/** Law: the problems of `validate`, as text ('' when valid). */
function problemsText(schema: M.TSchema, value: unknown): string {
  const result = M.validate(schema, value);
  return result.ok ? '' : M.formatProblems(result.problems);
}

describe('properties', () => {
  describe.each(cases)('%s', (_name, arbitrary, schema) => {
    test.prop([arbitrary], { numRuns: 50 })('generated values validate', (value) => {
      expect(problemsText(schema, value)).toBe('');
    });

    test.prop([arbitrary], { numRuns: 50 })('survive a JSON round trip and still validate', (value) => {
      const copy = JSON.parse(JSON.stringify(value)) as unknown;
      expect(copy).toEqual(value);
      expect(problemsText(schema, copy)).toBe('');
    });

    test.prop([arbitrary, fc.nat()], { numRuns: 50 })(
      'a mutation making one field invalid is rejected with that field path',
      (value, pick) => {
        // Arrange
        const mutation = invalidMutation(schema, value, pick);
        fc.pre(mutation !== undefined);

        // Act
        const result = M.validate(schema, mutation.value);

        // Assert
        expect(result.ok).toBe(false);
        expect(result.ok ? [] : result.problems.map((problem) => problem.path)).toContain(mutation!.path);
      },
    );
  });

  test.prop(
    [A.jobRegisterRequestArbitrary(), fc.stringMatching(/^X-[A-Za-z]{1,8}$/), fc.jsonValue({ maxDepth: 2 })],
    {
      numRuns: 50,
    },
  )('unknown extra fields are accepted on input and kept in the returned value', (body, key, extra) => {
    const withExtra = { ...body, [key]: extra, Job: { ...body.Job, [key]: extra } };
    const result = M.validate(M.JobRegisterRequest, withExtra);
    expect(result.ok ? result.value : result.problems).toBe(withExtra);
  });

  test.prop([A.jobInputArbitrary()], { numRuns: 50 })(
    'canonicalizeJob turns every valid input into a valid stored job, idempotently',
    (input) => {
      const job = M.canonicalizeJob(input);
      expect(problemsText(M.Job, job)).toBe('');
      expect(M.canonicalizeJob(job)).toEqual(job);
    },
  );

  test.prop([A.jobInputArbitrary()], { numRuns: 50 })(
    'canonicalizeJob keeps every value the input gives',
    (input) => {
      const job = M.canonicalizeJob(input);
      expect(job.ID).toBe(input.ID);
      if (input.Priority !== undefined) expect(job.Priority).toBe(input.Priority);
      if (input.Type !== undefined) expect(job.Type).toBe(input.Type);
      expect(job.TaskGroups.map((group) => group.Name)).toEqual(
        (input.TaskGroups ?? []).map((group) => group.Name),
      );
    },
  );
});

describe('inputNameArbitrary', () => {
  test.prop([A.inputNameArbitrary()])('draws a name a job, group or task may have', (name) => {
    expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
  });

  it('draws every Object.prototype name, and plain names (500 draws miss one with odds below 1e-14)', () => {
    const drawn = new Set(fc.sample(A.inputNameArbitrary(), 500));
    for (const name of A.PROTOTYPE_NAMES) expect(drawn.has(name)).toBe(true);
    expect([...drawn].some((name) => !A.PROTOTYPE_NAMES.includes(name))).toBe(true);
  });
});
