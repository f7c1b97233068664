import * as M from '@sked/model';
import { describe, expect, it } from 'vitest';

import { generateDataset, generateJobs, toJobListStub } from './dataset.js';
import { createRandom } from './random.js';

function allValid(schema: M.TSchema, values: readonly unknown[]): string {
  for (const value of values) {
    const result = M.validate(schema, value);
    if (!result.ok) return M.formatProblems(result.problems);
  }
  return '';
}

describe('generateDataset', () => {
  const dataset = generateDataset({ seed: 7, jobs: 300, namespaces: ['default', 'prod'] });

  it('gives the same dataset for the same seed and a different one for another seed', () => {
    expect(generateDataset({ seed: 7, jobs: 300, namespaces: ['default', 'prod'] })).toEqual(dataset);
    expect(generateDataset({ seed: 8, jobs: 300, namespaces: ['default', 'prod'] }).jobs).not.toEqual(
      dataset.jobs,
    );
  });

  it('generates objects that match their schemas', () => {
    expect(allValid(M.Job, dataset.jobs)).toBe('');
    expect(allValid(M.JobSummary, dataset.summaries)).toBe('');
    expect(allValid(M.Allocation, dataset.allocations)).toBe('');
    expect(allValid(M.Evaluation, dataset.evaluations)).toBe('');
    expect(allValid(M.Deployment, dataset.deployments)).toBe('');
    expect(allValid(M.Node, dataset.nodes)).toBe('');
    expect(
      allValid(
        M.JobListStub,
        dataset.jobs.map((job, i) => toJobListStub(job, dataset.summaries[i]!)),
      ),
    ).toBe('');
  });

  it('looks realistic: names, meta, datacenters, statuses, priorities, namespaces', () => {
    const jobs = dataset.jobs;
    expect(jobs.map((job) => job.ID)).toEqual(
      jobs.map(
        (job, i) =>
          expect.stringMatching(new RegExp(`^[a-z]+-${String(i).padStart(5, '0')}$`)) as unknown as string,
      ),
    );
    expect(new Set(jobs.map((job) => job.ID)).size).toBe(jobs.length);
    expect(
      jobs.every((job) => ['owner', 'team', 'env'].every((key) => typeof job.Meta?.[key] === 'string')),
    ).toBe(true);
    expect(new Set(jobs.flatMap((job) => job.Datacenters))).toEqual(new Set(['dc1', 'dc2']));
    expect(new Set(jobs.map((job) => job.Status))).toEqual(new Set(['running', 'pending', 'dead']));
    expect(new Set(jobs.map((job) => job.Namespace))).toEqual(new Set(['default', 'prod']));
    const mean = jobs.reduce((sum, job) => sum + job.Priority, 0) / jobs.length;
    expect(mean).toBeGreaterThan(45);
    expect(mean).toBeLessThan(55);
    expect(new Set(jobs.map((job) => job.Priority)).size).toBeGreaterThan(10);
  });

  it('links allocations to their job, evaluation and node, and counts them in the summaries', () => {
    // Arrange
    const jobsById = new Map(dataset.jobs.map((job) => [`${job.Namespace}/${job.ID}`, job]));
    const nodeIds = new Set(dataset.nodes.map((node) => node.ID));
    const evalIds = new Set(dataset.evaluations.map((evaluation) => evaluation.ID));

    // Act
    const perGroup = new Map<string, number>();
    for (const alloc of dataset.allocations) {
      const key = `${alloc.Namespace}/${alloc.JobID}/${alloc.TaskGroup}`;
      perGroup.set(key, (perGroup.get(key) ?? 0) + 1);
    }

    // Assert
    expect(dataset.allocations.length).toBeGreaterThan(300);
    expect(dataset.allocations.every((alloc) => jobsById.has(`${alloc.Namespace}/${alloc.JobID}`))).toBe(
      true,
    );
    expect(dataset.allocations.every((alloc) => nodeIds.has(alloc.NodeID) && evalIds.has(alloc.EvalID))).toBe(
      true,
    );
    for (const [i, summary] of dataset.summaries.entries()) {
      const job = dataset.jobs[i]!;
      for (const group of job.TaskGroups) {
        const counts = summary.Summary[group.Name]!;
        const total =
          counts.Running +
          counts.Starting +
          counts.Complete +
          counts.Failed +
          counts.Lost +
          (counts.Unknown ?? 0);
        expect(total).toBe(perGroup.get(`${job.Namespace}/${job.ID}/${group.Name}`) ?? 0);
        expect(total).toBe(group.Count);
      }
    }
  });

  it('gives every allocation task states with events, at most 10 per task', () => {
    const states = dataset.allocations.flatMap((alloc) => Object.values(alloc.TaskStates ?? {}));
    expect(states.length).toBeGreaterThanOrEqual(dataset.allocations.length);
    expect(
      states.every((state) => (state.Events?.length ?? 0) > 0 && (state.Events?.length ?? 0) <= 10),
    ).toBe(true);
    expect(new Set(states.map((state) => state.State))).toEqual(new Set(['pending', 'running', 'dead']));
  });

  it('uses increasing indexes', () => {
    const indexes = dataset.allocations.map((alloc) => alloc.CreateIndex);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(Math.max(...indexes)).toBeLessThanOrEqual(dataset.index);
  });

  it('generates no allocations when allocsPerJob is 0, and an empty dataset for 0 jobs', () => {
    const jobsOnly = generateDataset({ seed: 1, jobs: 20, allocsPerJob: 0 });
    expect(jobsOnly.jobs).toHaveLength(20);
    expect(jobsOnly.allocations).toEqual([]);
    expect(jobsOnly.evaluations).toEqual([]);
    expect(generateDataset({ seed: 1, jobs: 0 }).jobs).toEqual([]);
  });
});

describe('generateJobs', () => {
  it('is deterministic per seed', () => {
    expect(generateJobs(500, 3)).toEqual(generateJobs(500, 3));
    expect(generateJobs(500, 3)).not.toEqual(generateJobs(500, 4));
  });

  it('generates valid list items named like web-00042, with Meta', () => {
    const items = generateJobs(1000, 11);
    expect(items).toHaveLength(1000);
    expect(allValid(M.JobListStub, items)).toBe('');
    expect(items[42]?.ID).toMatch(/^[a-z]+-00042$/);
    expect(items.every((item) => item.Meta !== undefined && item.Meta !== null && 'owner' in item.Meta)).toBe(
      true,
    );
  });

  it('returns an empty list for 0', () => {
    expect(generateJobs(0, 1)).toEqual([]);
  });
});

describe('createRandom', () => {
  it('repeats its sequence for a seed and stays within bounds', () => {
    const a = createRandom(99);
    const b = createRandom(99);
    const draws = Array.from({ length: 1000 }, () => a.int(-3, 3));
    expect(Array.from({ length: 1000 }, () => b.int(-3, 3))).toEqual(draws);
    expect(new Set(draws)).toEqual(new Set([-3, -2, -1, 0, 1, 2, 3]));
  });

  it('makes UUID-shaped IDs', () => {
    expect(createRandom(1).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('refuses to pick from an empty list', () => {
    expect(() => createRandom(1).pick([])).toThrow(RangeError);
  });
});
