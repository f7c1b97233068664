/**
 * Seeded, deterministic datasets of the model's resources (jobs, summaries, allocations, evaluations,
 * deployments, nodes) for tests and benchmarks. Same options, same data: everything comes from one
 * mulberry32 stream. The generators of each resource live under `dataset/`.
 *
 * @packageDocumentation
 */
import {
  canonicalizeJob,
  type Allocation,
  type Deployment,
  type Evaluation,
  type Job,
  type JobSummary,
  type Node,
} from '@sked/model';

import { createRandom } from './random.js';
import { EPOCH_NS, SECOND, nonEmpty } from './dataset/vocabulary.js';
import { countAllocation, emptyGroupSummary, makeJobInput } from './dataset/jobs.js';
import { makeDeployment, makeEvaluation, makeNode } from './dataset/cluster.js';
import { makeAllocation } from './dataset/allocations.js';

export { generateJobs, toJobListStub } from './dataset/jobs.js';

/**
 * Options of {@link generateDataset}.
 */
export interface DatasetOptions {
  /** Seed: the same options give the same dataset. */
  readonly seed: number;
  /** Number of jobs. */
  readonly jobs: number;
  /**
   * Average number of allocations per job (0 = no allocations, evaluations or deployments).
   *
   * @defaultValue 2
   */
  readonly allocsPerJob?: number;
  /**
   * Namespaces the jobs are spread over.
   *
   * @defaultValue `['default']`
   */
  readonly namespaces?: readonly string[];
  /**
   * Datacenters of the nodes and jobs.
   *
   * @defaultValue `['dc1', 'dc2']`
   */
  readonly datacenters?: readonly string[];
  /**
   * Number of nodes allocations are placed on.
   *
   * @defaultValue 10
   */
  readonly nodes?: number;
  /**
   * Region of the jobs.
   *
   * @defaultValue `'global'`
   */
  readonly region?: string;
}

/**
 * A generated dataset: every object matches its `@sked/model` schema, and the objects refer to each other
 * (allocations to their job, evaluation, node and deployment; summaries count the allocations).
 */
export interface Dataset {
  /** Complete jobs (canonicalized), in generation order. */
  readonly jobs: Job[];
  /** One summary per job, same order as `jobs`. */
  readonly summaries: JobSummary[];
  /** Allocations without their `Job` (as lists return them), with task states. */
  readonly allocations: Allocation[];
  /** One registration evaluation per job that has allocations. */
  readonly evaluations: Evaluation[];
  /** One deployment per running service job that has allocations. */
  readonly deployments: Deployment[];
  /** The nodes allocations run on. */
  readonly nodes: Node[];
  /** The last index used; objects have `CreateIndex` and `ModifyIndex` between 1 and this. */
  readonly index: number;
}

/**
 * Generates a realistic dataset: jobs named like `web-00042` with task groups, tasks, `Meta` (`owner`,
 * `team`, `env`, sometimes more), datacenters `dc1`/`dc2`, status mostly running (some pending and dead),
 * priorities around 50; allocations with task states and events; summaries, evaluations, deployments, nodes.
 *
 * @param options - See {@link DatasetOptions}.
 * @returns The dataset; the same options always give a deep-equal dataset.
 * @example
 * ```ts
 * const { jobs, allocations } = generateDataset({ seed: 1, jobs: 1000 });
 * ```
 */
export function generateDataset(options: DatasetOptions): Dataset {
  const random = createRandom(options.seed);
  const allocsPerJob = Math.max(0, options.allocsPerJob ?? 2);
  const namespaces = nonEmpty(options.namespaces, ['default']);
  const datacenters = nonEmpty(options.datacenters, ['dc1', 'dc2']);
  const region = options.region ?? 'global';
  let index = 0;
  const nextIndex = (): number => (index += 1);

  const nodes: Node[] = [];
  const nodeCount = Math.max(1, options.nodes ?? 10);
  for (let i = 0; i < nodeCount; i += 1) {
    nodes.push(makeNode(random, i, datacenters[i % datacenters.length] ?? 'dc1', nextIndex()));
  }

  const jobs: Job[] = [];
  const summaries: JobSummary[] = [];
  const allocations: Allocation[] = [];
  const evaluations: Evaluation[] = [];
  const deployments: Deployment[] = [];

  for (let i = 0; i < options.jobs; i += 1) {
    const namespace = namespaces[i % namespaces.length] ?? 'default';
    const input = makeJobInput(random, i, namespace, datacenters, allocsPerJob);
    const createIndex = nextIndex();
    const submitTime = EPOCH_NS + i * SECOND + random.int(0, 999) * 1_000_000;
    const job: Job = {
      ...canonicalizeJob(input, { region }),
      CreateIndex: createIndex,
      ModifyIndex: createIndex,
      JobModifyIndex: createIndex,
      SubmitTime: submitTime,
    };
    const summary: JobSummary = {
      JobID: job.ID,
      Namespace: namespace,
      Summary: Object.fromEntries(job.TaskGroups.map((group) => [group.Name, emptyGroupSummary()])),
      Children: { Pending: 0, Running: 0, Dead: 0 },
      CreateIndex: createIndex,
      ModifyIndex: createIndex,
    };

    if (allocsPerJob > 0) {
      const evaluation = makeEvaluation(random, job, nextIndex(), submitTime);
      evaluations.push(evaluation);
      const deployment =
        job.Type === 'service' && job.Status === 'running'
          ? makeDeployment(random, job, nextIndex())
          : undefined;
      if (deployment !== undefined) deployments.push(deployment);
      for (const group of job.TaskGroups) {
        for (let n = 0; n < group.Count; n += 1) {
          const node = random.pick(nodes);
          const allocation = makeAllocation(random, {
            job,
            groupName: group.Name,
            taskNames: group.Tasks.map((task) => task.Name),
            index: n,
            node,
            evaluation,
            deployment,
            createIndex: nextIndex(),
            createTime: submitTime + random.int(1, 5) * SECOND,
          });
          allocations.push(allocation);
          const counts = summary.Summary[group.Name];
          if (counts !== undefined) countAllocation(counts, allocation.ClientStatus);
        }
      }
      summary.ModifyIndex = index;
      job.ModifyIndex = index;
    }
    jobs.push(job);
    summaries.push(summary);
  }
  return { jobs, summaries, allocations, evaluations, deployments, nodes, index };
}
