// The event stream examples of packages/scheduler-client/README.md ("Follow the event stream",
// "Typed events"), run against the sample server with its --demo data (in this process). A guard
// checks that every line of each README block stands in this file in order (imports aside), so the
// README cannot drift from what runs.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEventOf, type SchedulerClient } from '@sked/scheduler-client';
import { linesMissingInOrder, readmeCodeLines } from '@sked/testkit/readme';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startTestServer, type TestServer } from './support.js';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '../../../packages/scheduler-client/README.md'), 'utf8');

let server: TestServer;
let client: SchedulerClient;
const logged: unknown[][] = [];

beforeAll(async () => {
  server = await startTestServer({ demo: true, heartbeatMs: 200 });
  client = server.client;
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe('the scheduler client README', { timeout: 30_000 }, () => {
  it('Typed events: narrows by topic against the demo data', async () => {
    const running = new Set<string>();
    for await (const event of client.events({ topics: ['Job:web', 'Evaluation:web', 'Allocation:web'] })) {
      if (event.Topic === 'Job') console.log(`job ${event.Payload.Job.ID} is ${event.Payload.Job.Status}`);
      else if (isEventOf(event, 'Evaluation')) console.log(`evaluation ${event.Payload.Evaluation.Status}`);
      else if (event.Topic === 'Allocation' && event.Payload.Allocation.ClientStatus === 'running') {
        running.add(event.Payload.Allocation.Name);
        if (running.size === 2) break; // both allocations of web run
      }
    }
    console.log([...running].sort()); // [ 'web.web[0]', 'web.web[1]' ]

    const lines = logged.map((args) => args.join(' '));
    expect(lines[0]).toBe('job web is pending');
    expect(lines).toContain('evaluation complete');
    expect(logged.at(-1)).toEqual([['web.web[0]', 'web.web[1]']]);
  });

  it('Follow the event stream: ends at the deregistration of web', async () => {
    await client.jobs.stop('web');

    for await (const event of client.events({
      topics: ['Job:web', 'Allocation:web'],
      signal: AbortSignal.timeout(60_000), // gives up after a minute: the loop then throws a TimeoutError
    })) {
      console.log(event.Index, event.Topic, event.Type, event.Key);
      if (event.Type === 'JobDeregistered') break; // ends the loop and closes the connection
    }

    expect(logged.at(-1)?.slice(1)).toEqual(['Job', 'JobDeregistered', 'web']);
    expect(logged.some((args) => args[1] === 'Allocation' && args[2] === 'AllocationCreated')).toBe(true);
  });

  it.each(['Follow the event stream', 'Typed events'])(
    'has every line of the "%s" block in this file, in order',
    (heading) => {
      const lines = readmeCodeLines(readme, heading);
      expect(lines.length).toBeGreaterThan(5);
      expect(linesMissingInOrder(lines, readFileSync(fileURLToPath(import.meta.url), 'utf8'))).toEqual([]);
    },
  );
});
