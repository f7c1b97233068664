// The "Typed events" example of packages/scheduler-client/README.md, run against the sample server
// with its --demo data (in this process). A guard checks that every line of the README's block
// stands in this file in order (imports aside), so the README cannot drift from what runs.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEventOf, type SchedulerClient } from '@sked/scheduler-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startTestServer, type TestServer } from './support.js';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '../../../packages/scheduler-client/README.md'), 'utf8');

/** The code lines of the README's ```ts block under `heading`, trimmed, without imports and blanks. */
function readmeBlock(heading: string): string[] {
  const section = readme.slice(readme.indexOf(`### ${heading}\n`));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('import '));
}

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

  it('has every line of the Typed events block in this file, in order', () => {
    const lines = readmeBlock('Typed events');
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(lines.length).toBeGreaterThan(5);
    let at = 0;
    for (const line of lines) {
      const found = source.indexOf(line, at);
      expect(found, `README line not found here in order: ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });
});
