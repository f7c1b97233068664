import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { JobInput } from '@sked/model';
import { jobFactory, type JobOverrides } from '@sked/testkit';
import { afterAll, expect } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../src/wiring/server.js';

/** A started server plus shorthands for requests through fastify's inject. */
export interface TestServer {
  readonly server: RunningServer;
  /** Sends a request in-process (no socket). */
  request(
    method: NonNullable<InjectOptions['method']>,
    url: string,
    options?: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string },
  ): Promise<LightMyRequestResponse>;
  /**
   * A fingerprint of what users write: table sizes (deployments are the scheduler's, so not counted),
   * the sum of every job's JobModifyIndex and
   * Stable flags, every volume's ModifyIndex. Background progress (task states, job status,
   * summaries) does not change it; a stored write does.
   */
  index(): string;
}

const started: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/**
 * Starts a server on 127.0.0.1 with a free port; it is closed after the test file.
 * @param options - Extra options.
 * @returns The test server.
 */
export async function startTestServer(options: StartServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ schedulerPort: 0, nodes: 3, ...options });
  started.push(server);
  const { app, cluster } = server.scheduler;
  return {
    server,
    index: () => {
      const { store } = cluster;
      const sizes = [store.jobs, store.jobVersions, store.submissions, store.volumes]
        .map((table) => table.size)
        .join(',');
      let jobs = 0;
      for (const job of store.jobs.items.values({})) jobs += job.JobModifyIndex + (job.Stable ? 0.5 : 0);
      let volumes = 0;
      for (const volume of store.volumes.items.values({})) volumes += volume.ModifyIndex;
      const userEvals = [...store.evals.items.values({})].filter(
        (e) =>
          e.TriggeredBy !== 'queued-allocs' &&
          e.TriggeredBy !== 'deployment-watcher' &&
          e.TriggeredBy !== 'alloc-failure' &&
          e.TriggeredBy !== 'node-update',
      ).length;
      return `${sizes}|${jobs}|${volumes}|${userEvals}`;
    },
    request(method, url, { body, raw, headers = {}, token } = {}) {
      const allHeaders: Record<string, string> = { ...headers };
      if (token !== undefined) allHeaders['x-svc-token'] = token;
      const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
      if (payload !== undefined && allHeaders['content-type'] === undefined) {
        allHeaders['content-type'] = 'application/json';
      }
      return app.inject({
        method,
        url,
        headers: allHeaders,
        ...(payload === undefined ? {} : { payload }),
      });
    },
  };
}

const job = jobFactory({ group: { Name: 'g' }, task: { Name: 't', Config: { run_for: '1h' } } });

/**
 * A minimal job input on the mock driver (`@sked/testkit` makeJob: group `g`, task `t` running
 * for an hour); `overrides` are job fields, or `group`/`task` fields.
 */
export function jobInput(id: string, overrides: JobOverrides = {}): JobInput {
  return job(id, { Name: id, ...overrides });
}

/** Waits until `check` returns a value that is not undefined (polling every 20 ms). */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Throws unless the answer is 200 (for set-up code, where `expect` does not belong). */
export function ensureOk<R extends { statusCode: number; body: string }>(res: R): R {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`);
  return res;
}

/** Registers a job through POST (or `url`), expecting 200; returns the answer. */
export async function registerJob(
  t: TestServer,
  job: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  url = '/v1/jobs',
): Promise<Record<string, unknown>> {
  const res = await t.request('POST', url, { body: { Job: job, ...extra } });
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 200 });
  return res.json();
}
