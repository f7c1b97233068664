import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFactory } from '@sked/testkit';

import { eventually, startTestServer, type TestServer } from './support.js';

/** Names that are Object.prototype members (issue 29), and a plain control. */
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

/** The own value under `key` (never an inherited member). */
const own = (record: unknown, key: string): unknown =>
  record !== null && typeof record === 'object' && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;

const job = jobFactory({ task: { Config: { start_block_for: '10ms' } } });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe.each(NAMES)('the scheduler client with a job, group, task and Meta key named %j', (name) => {
  it('registers, reads the job, its allocations, summary, deployment, plan and versions', async () => {
    // Arrange
    const { client } = server;
    const meta = JSON.parse(`{${JSON.stringify(name)}:"v"}`) as Record<string, string>;
    const input = job(name, {
      Name: name,
      Meta: meta,
      group: { Name: name, Count: 1, Update: { MaxParallel: 1, MinHealthyTime: 0 } },
      task: { Name: name },
    });
    // Act
    await client.jobs.create(input);
    const allocs = await eventually(async () => {
      const { data } = await client.jobs.allocations(name);
      return data.length === 1 && data[0]?.ClientStatus === 'running' ? data : undefined;
    }, `the allocation of ${name}`);
    // Assert: every record keyed by the name holds it as an own key
    const read = (await client.jobs.read(name)).data;
    expect(own(read.Meta, name)).toBe('v');
    expect(read.TaskGroups.map((g) => [g.Name, g.Tasks.map((t) => t.Name)])).toEqual([[name, [name]]]);
    const alloc = (await client.allocations.read(allocs[0]!.ID)).data;
    expect(Object.keys(alloc.TaskStates ?? {})).toEqual([name]);
    expect(own(alloc.TaskStates, name)).toMatchObject({ State: 'running' });
    const summary = (await client.jobs.summary(name)).data;
    expect(own(summary.Summary, name)).toMatchObject({ Running: 1 });
    const deployment = (await client.jobs.latestDeployment(name)).data;
    expect(Object.keys(deployment?.TaskGroups ?? {})).toEqual([name]);
    const plan = (await client.jobs.plan({ ...input, Priority: 70 }, { diff: true })).data;
    expect(Object.keys(plan.Annotations?.DesiredTGUpdates ?? {})).toEqual([name]);
    await client.jobs.create({ ...input, Priority: 70 });
    const versions = (await client.jobs.versions(name, { diffs: true })).data;
    expect(versions.Diffs?.[0]?.Fields?.map((f) => f.Name)).toEqual(['Priority']);
  });
});
