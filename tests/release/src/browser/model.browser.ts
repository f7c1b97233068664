/**
 * The model package inside headless Chromium from the browser bundle: validation with precise
 * problems, and job canonicalization.
 */
import { JobRegisterRequest, canonicalizeJob, formatProblems, validate } from '@sked/model';
import { assertEqual, runChecks } from './harness.ts';

const job = {
  ID: 'web',
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'web', Count: 2, Tasks: [{ Name: 'server', Driver: 'mock', Config: {} }] }],
};

runChecks({
  'validate accepts a register request and canonicalizeJob fills the defaults': () => {
    const result = validate(JobRegisterRequest, { Job: job });
    if (!result.ok) throw new Error(formatProblems(result.problems));
    const full = canonicalizeJob(result.value.Job, { region: 'global' });
    assertEqual(
      [full.Type, full.Priority, full.Namespace, full.TaskGroups?.[0]?.Count],
      ['service', 50, 'default', 2],
      'defaults',
    );
  },
  'validate names the wrong field': () => {
    const bad = { Job: { ...job, TaskGroups: [{ ...job.TaskGroups[0], Count: 'x' }] } };
    const result = validate(JobRegisterRequest, bad);
    if (result.ok) throw new Error('accepted a string Count');
    const text = formatProblems(result.problems);
    if (!text.includes('Job.TaskGroups[0].Count')) throw new Error(text);
  },
});
