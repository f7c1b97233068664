import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { eventually, jobInput, startTestServer } from '../../../test/server.js';

/** Names that are Object.prototype members (issue 29), and a plain control. */
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

const json = <T>(res: LightMyRequestResponse): T => JSON.parse(res.body) as T;
/** The own value under `key` of a parsed JSON object (never an inherited member). */
const own = (record: unknown, key: string): unknown =>
  record !== null && typeof record === 'object' && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;

interface Alloc {
  ID: string;
  ClientStatus: string;
  TaskGroup: string;
  TaskStates: Record<string, { State: string; Events: { Type: string }[] }> | null;
}

/** Reads the first event stream batch that holds an event of `topic` keyed `key` (a deadline of 10 s). */
async function firstEvent(url: string, topic: string, key: string): Promise<{ Topic: string; Key: string }> {
  const signal = AbortSignal.timeout(10_000);
  const res = await fetch(`${url}/v1/event/stream?index=1&topic=${encodeURIComponent(`${topic}:${key}`)}`, {
    signal,
  });
  const decoder = new TextDecoder();
  let text = '';
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      text += decoder.decode(value, { stream: true });
      for (const line of text.split('\n').slice(0, -1)) {
        const batch = JSON.parse(line) as { Events?: { Topic: string; Key: string }[] };
        const found = batch.Events?.find((e) => e.Topic === topic);
        if (found) return found;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

describe.each(NAMES)('a job, group, task and Meta key named %j over HTTP', (name) => {
  it(
    'register, read, allocations and task states, summary, deployment, plan, diff, versions, filters, events',
    { timeout: 30_000 },
    async () => {
      // Arrange
      const t = await startTestServer();
      const path = `/v1/job/${encodeURIComponent(name)}`;
      const meta = JSON.parse(`{${JSON.stringify(name)}:"v"}`) as Record<string, string>;
      const input = jobInput(name, {
        Meta: meta,
        group: { Name: name, Count: 1, Update: { MaxParallel: 1, MinHealthyTime: 0 } },
        task: { Name: name, Env: meta },
      });
      // Act: register, and wait for the allocation to run
      expect((await t.request('PUT', '/v1/jobs', { body: { Job: input } })).statusCode).toBe(200);
      const [alloc] = await eventually(async () => {
        const list = json<Alloc[]>(await t.request('GET', `${path}/allocations`));
        return list.length === 1 && list[0]?.ClientStatus === 'running' ? list : undefined;
      });
      // Assert: the job and its allocation, task state under the task's own name
      const job = json<{
        ID: string;
        Meta: unknown;
        TaskGroups: { Name: string; Tasks: { Name: string; Env: unknown }[] }[];
      }>(await t.request('GET', path));
      expect(job.ID).toBe(name);
      expect(own(job.Meta, name)).toBe('v');
      expect(job.TaskGroups.map((g) => [g.Name, g.Tasks.map((x) => x.Name)])).toEqual([[name, [name]]]);
      expect(own(job.TaskGroups[0]?.Tasks[0]?.Env, name)).toBe('v');
      const full = json<Alloc>(await t.request('GET', `/v1/allocation/${alloc!.ID}`));
      expect(Object.keys(full.TaskStates ?? {})).toEqual([name]);
      expect((own(full.TaskStates, name) as { State: string }).State).toBe('running');
      // summary and deployment keyed by the group
      const summary = json<{ Summary: unknown }>(await t.request('GET', `${path}/summary`));
      expect(own(summary.Summary, name)).toMatchObject({ Running: 1, Queued: 0 });
      const deployment = json<{ TaskGroups: unknown }>(await t.request('GET', `${path}/deployment`));
      expect(Object.keys(deployment.TaskGroups as object)).toEqual([name]);
      // plan with a diff, then versions with diffs
      const changed = { ...input, Priority: 70 };
      const plan = json<{
        Annotations: { DesiredTGUpdates: unknown };
        Diff: { TaskGroups: { Name: string }[] };
      }>(await t.request('POST', `${path}/plan`, { body: { Job: changed, Diff: true } }));
      expect(Object.keys(plan.Annotations.DesiredTGUpdates as object)).toEqual([name]);
      expect(plan.Diff.TaskGroups.map((g) => g.Name)).toEqual([name]);
      expect((await t.request('PUT', '/v1/jobs', { body: { Job: changed } })).statusCode).toBe(200);
      const versions = json<{ Diffs: { Fields: { Name: string }[] }[] }>(
        await t.request('GET', `${path}/versions?diffs=true`),
      );
      expect(versions.Diffs[0]?.Fields.map((f) => f.Name)).toEqual(['Priority']);
      // filters read the Meta key as a key; a job without it does not match
      const filter = encodeURIComponent(`Meta[${JSON.stringify(name)}] == "v"`);
      expect(
        json<{ ID: string }[]>(await t.request('GET', `/v1/jobs?filter=${filter}`)).map((j) => j.ID),
      ).toEqual([name]);
      const byGroup = encodeURIComponent(`TaskGroup == ${JSON.stringify(name)}`);
      expect(
        json<Alloc[]>(await t.request('GET', `/v1/allocations?filter=${byGroup}`)).length,
      ).toBeGreaterThan(0);
      // the event stream selects the job by its name
      const event = await firstEvent(t.server.scheduler.url, 'Job', name);
      expect(event.Key).toBe(name);
    },
  );
});
