/**
 * Seeding the scheduling service from code (`server.seed.job`, `server.reset()`): jobs go through
 * the register endpoint's own path (`registerJobFromBody`: the model's validation, the region, the
 * namespace, the job's tokens, the core's write) and HCL through the parse endpoint's
 * (`parseJobFromBody`), so a seeded job is exactly what `POST /v1/jobs` would have stored.
 */
import { badRequest } from '../http/errors.js';
import { loadDemo } from './demo.js';
import type { SchedulerRouteContext } from './routes/common.js';
import { parseJobFromBody, registerJobFromBody } from './routes/job-writes.js';

/** What a seeded job registration answers. */
export interface SeededJob {
  /** The job's ID. */
  readonly id: string;
  /** The namespace it was stored in. */
  readonly namespace: string;
  /** The registration's evaluation. */
  readonly evalId: string;
  /** The index the registration committed at. */
  readonly index: number;
}

/** Options of `server.seed.job` (`ServerSeed.job`). */
export interface SeedJobOptions {
  /** Namespace to register in, as `?namespace=` (the job's own `Namespace` wins when absent). */
  readonly namespace?: string | undefined;
  /** `json` or `hcl`; by default text starting with `{` is JSON, other text HCL. */
  readonly format?: 'json' | 'hcl' | undefined;
  /** HCL variables file content (the parse endpoint's `Variables`). */
  readonly variables?: string | undefined;
  /** HCL variable values (the parse endpoint's `VariableFlags`, as `-var name=value`). */
  readonly variableFlags?: Readonly<Record<string, string>> | undefined;
}

/** The scheduling service's seeding. */
export interface SchedulerSeeder {
  /**
   * Registers a job: a Job object, `{"Job": ...}` (a register body, with its options), JSON text of
   * either, or HCL text.
   * @throws the endpoint's HttpError (400 naming the field) or the core's ClusterError.
   */
  job(input: unknown, options?: SeedJobOptions): Promise<SeededJob>;
  /**
   * Empties the cluster (every job purged; once their allocations have stopped, a forced garbage
   * collection and every volume deregistered) and registers the demo jobs again when `demo`.
   * @param timeoutMs - Longest wait for the allocations to stop.
   */
  reset(timeoutMs?: number): Promise<void>;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`The job text is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A register body from a Job or a register body (a body is recognised by its `Job` field). */
function registerBody(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'Job')) {
    return value;
  }
  return { Job: value };
}

const TERMINAL = new Set(['complete', 'failed', 'lost']);

/**
 * Creates the seeder of a scheduling service.
 * @param ctx - The route context the service's routes use (cluster, ACL, region, token lookups).
 * @param options - `demo`: register the demo jobs again on reset.
 * @returns The seeder.
 */
export function createSchedulerSeeder(
  ctx: SchedulerRouteContext,
  options: { readonly demo: boolean },
): SchedulerSeeder {
  const { cluster } = ctx;
  return {
    async job(input, seedOptions = {}) {
      const query = seedOptions.namespace === undefined ? {} : { namespace: seedOptions.namespace };
      let value = input;
      if (typeof input === 'string') {
        const format = seedOptions.format ?? (input.trimStart().startsWith('{') ? 'json' : 'hcl');
        value =
          format === 'json'
            ? parseJsonText(input)
            : await parseJobFromBody(
                ctx,
                {
                  JobHCL: input,
                  Canonicalize: true,
                  ...(seedOptions.variables === undefined ? {} : { Variables: seedOptions.variables }),
                  ...(seedOptions.variableFlags === undefined
                    ? {}
                    : { VariableFlags: seedOptions.variableFlags }),
                },
                seedOptions.namespace ?? 'default',
              );
      }
      let namespace = '';
      const result = registerJobFromBody(ctx, {
        body: registerBody(value),
        query,
        authorize(written) {
          namespace = written;
        },
      });
      const body = registerBody(value) as { Job: { ID: string } };
      return { id: body.Job.ID, namespace, evalId: result.EvalID, index: result.Index };
    },

    async reset(timeoutMs = 15_000) {
      const jobs = cluster.store.view.all('jobs').map((job) => ({ namespace: job.Namespace, id: job.ID }));
      if (jobs.length > 0) cluster.batchDeregisterJobs({ jobs, purge: true });
      const deadline = Date.now() + timeoutMs;
      const running = (): number =>
        cluster.store.view.all('allocs').filter((alloc) => !TERMINAL.has(alloc.ClientStatus)).length;
      while (running() > 0 || !cluster.idle()) {
        if (Date.now() > deadline) {
          throw new Error(`reset: ${running()} allocations were still running after ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      cluster.collectGarbage({ force: true });
      // the allocations have stopped, so no volume is in use any more
      for (const volume of cluster.store.view.all('volumes')) {
        cluster.deregisterVolume({ namespace: volume.Namespace, id: volume.ID, force: true });
      }
      if (options.demo) loadDemo(cluster);
    },
  };
}
