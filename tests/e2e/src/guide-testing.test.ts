// The vitest example of docs/guides/testing.md ("A test file with vitest"), run as it stands in the
// guide: the guard at the end checks that every line of the guide's block is in this file, in
// order, so the guide cannot drift from what runs. (docs/guides blocks that import vitest are left
// out of the release checks' document programs: this file is where they run.)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { linesMissingInOrder, readmeCodeLines } from '@sked/testkit/readme';
import { ApiError, createSchedulerClient, type SchedulerClient } from '@sked/scheduler-client';
import { startServer, type RunningServer } from '@sked/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The code under test (yours): the IDs of the service jobs, read page by page.
async function serviceJobIds(client: SchedulerClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const job of client.jobs.list.items({ filter: 'Type == "service"', perPage: 1 }))
    ids.push(job.ID);
  return ids;
}

let server: RunningServer;
let client: SchedulerClient;

beforeAll(async () => {
  server = await startServer({ demo: true }); // free ports on 127.0.0.1
  client = createSchedulerClient({ address: server.scheduler.url, env: false });
});
afterEach(() => server.reset()); // the demo jobs again, no fault, nothing seeded
afterAll(() => server.close());

describe('serviceJobIds', () => {
  it('lists the service jobs', async () => {
    expect(await serviceJobIds(client)).toEqual(['cache', 'web']);
  });

  it('sees a job seeded from HCL', async () => {
    await server.seed.job(`
      job "api" {
        group "api" {
          task "server" {
            driver = "mock"
          }
        }
      }
    `);
    expect(await serviceJobIds(client)).toEqual(['api', 'cache', 'web']);
  });

  it('fails when the server fails on the second page', async () => {
    server.faults.inject({ method: 'GET', path: '/v1/jobs', nth: 2, status: 500 });
    await expect(serviceJobIds(client)).rejects.toThrow(ApiError);
  });

  it('fails on a cluster without a leader, and works again with stale reads', async () => {
    server.faults.leaderless();
    await expect(serviceJobIds(client)).rejects.toThrow('No cluster leader');
    const { meta } = await client.jobs.list({ stale: true });
    expect(meta.knownLeader).toBe(false);
  });
});

describe('docs/guides/testing.md', () => {
  it("holds this file's example, line by line", () => {
    const guide = readFileSync(new URL('../../../docs/guides/testing.md', import.meta.url), 'utf8');
    const lines = readmeCodeLines(guide, 'A test file with vitest');
    expect(lines.length).toBeGreaterThan(30);
    expect(linesMissingInOrder(lines, readFileSync(fileURLToPath(import.meta.url), 'utf8'))).toEqual([]);
  });
});
