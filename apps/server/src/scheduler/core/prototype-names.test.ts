import type { DesiredUpdates } from '@sked/model';
import { fc, test } from '@fast-check/vitest';
import { inputNameArbitrary } from '@sked/testkit';
import { describe, expect, it } from 'vitest';

import { parseJobHcl } from './hcl/parse-job.js';
import { jobKey } from './state/store.js';
import { serviceJob, testCluster } from './test/helpers.js';
import type { Job } from './types.js';

/** Names that are Object.prototype members (issue 29), and a plain control. */
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

/** A job whose group and task are both called `name`, with `name` as a Meta and Env key too. */
function namedJob(name: string, extra: { Priority?: number } = {}) {
  const kv = JSON.parse(`{${JSON.stringify(name)}:"v"}`) as Record<string, string>;
  return serviceJob(
    'web',
    { ...extra, Meta: kv, group: { Name: name, Update: { MaxParallel: 1 } } },
    { Name: name, Env: kv, Config: { run_for: '2h' } },
  );
}

describe.each(NAMES)('a group and a task named %j', (name) => {
  it('run: allocations, task states and events, summary, deployment, events', async () => {
    // Arrange
    const t = testCluster();
    // Act
    t.cluster.registerJob({ job: namedJob(name) });
    t.run(15_000);
    // Assert: both allocations run, with the task's state and events under its own key
    const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
    expect(allocs.map((a) => a.ClientStatus)).toEqual(['running', 'running']);
    for (const a of allocs) {
      expect(Object.keys(a.TaskStates ?? {})).toEqual([name]);
      expect(Object.keys(a.TaskResources)).toEqual([name]);
      const state = Object.getOwnPropertyDescriptor(a.TaskStates, name)?.value as {
        State: string;
        Events: { Type: string }[];
      };
      expect(state.State).toBe('running');
      expect(state.Events.map((e) => e.Type)).toEqual(['Received', 'Task Setup', 'Started']);
    }
    const summary = t.cluster.store.summaries.get(jobKey('default', 'web'));
    expect(JSON.parse(JSON.stringify(summary?.Summary))).toEqual(
      JSON.parse(
        `{${JSON.stringify(name)}:{"Queued":0,"Complete":0,"Failed":0,"Running":2,"Starting":0,"Lost":0,"Unknown":0}}`,
      ),
    );
    const deployment = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1);
    expect(Object.keys(deployment?.TaskGroups ?? {})).toEqual([name]);
    expect(JSON.stringify(deployment?.TaskGroups)).toContain(`${JSON.stringify(name)}:{"AutoPromote":false`);
    expect(deployment?.Status).toBe('successful');
    const evals = t.cluster.store.ofJob('evals', 'default', 'web');
    expect(evals.map((e) => Object.keys(e.QueuedAllocations ?? {}))).toContainEqual([name]);
    const events = t.batches.flatMap((b) => b.Events);
    expect(events.some((e) => e.Type === 'DeploymentAllocHealth')).toBe(true);
    await t.cluster.close();
  });

  it('plan (annotations and diff), versions with diffs, signal and restart by task name', async () => {
    // Arrange
    const t = testCluster();
    t.cluster.registerJob({ job: namedJob(name) });
    t.run(3000);
    // Act
    const plan = t.cluster.planJob({ job: namedJob(name, { Priority: 70 }) as never, diff: true });
    t.cluster.registerJob({ job: namedJob(name, { Priority: 70 }) });
    const versions = t.cluster.jobVersions({ namespace: 'default', id: 'web', diffs: true });
    const id = t.cluster.store.ofJob('allocs', 'default', 'web')[0]!.ID;
    t.cluster.restartAlloc({ allocId: id, task: name });
    t.cluster.signalAlloc({ allocId: id, task: name, signal: 'SIGHUP' });
    t.run(500);
    // Assert
    const updates = JSON.parse(JSON.stringify(plan.Annotations.DesiredTGUpdates)) as Record<
      string,
      DesiredUpdates
    >;
    expect(Object.keys(updates)).toEqual([name]);
    expect(Object.getOwnPropertyDescriptor(updates, name)?.value).toMatchObject({ InPlaceUpdate: 2 });
    expect(plan.Diff?.TaskGroups?.map((g) => [g.Name, g.Updates])).toEqual([
      [name, { 'in-place update': 2 }],
    ]);
    expect(versions.Diffs?.[0]?.Fields).toEqual([
      { Type: 'Edited', Name: 'Priority', Old: '50', New: '70', Annotations: null },
    ]);
    const a = t.cluster.store.allocs.get(id)!;
    const state = Object.getOwnPropertyDescriptor(a.TaskStates, name)?.value as {
      Restarts: number;
      Events: { Type: string }[];
    };
    expect(state.Restarts).toBe(1);
    expect(state.Events.map((e) => e.Type)).toContain('Signaling');
    await t.cluster.close();
  });

  it('HCL: the group, task, Meta key and variable keep the name', async () => {
    const label = JSON.stringify(name);
    const hcl = `variable ${label} { default = "v" }
job "web" {
  meta = { ${label} = "\${var.${name}}" }
  group ${label} {
    task ${label} {
      driver = "mock"
      env = { ${label} = "e" }
    }
  }
}`;
    const job = (await parseJobHcl({ hcl, canonicalize: true }, { region: 'global' })) as Job;
    expect(Object.keys(job.Meta ?? {})).toEqual([name]);
    expect(JSON.stringify(job.Meta)).toBe(`{${label}:"v"}`);
    expect(job.TaskGroups.map((g) => [g.Name, g.Tasks.map((x) => x.Name)])).toEqual([[name, [name]]]);
    expect(JSON.stringify(job.TaskGroups[0]?.Tasks[0]?.Env)).toBe(`{${label}:"e"}`);
  });
});

describe('properties', () => {
  /** One or two groups of one or two tasks, names drawn with the Object.prototype names mixed in. */
  const groups = fc.uniqueArray(
    fc.record({
      name: inputNameArbitrary(),
      tasks: fc.uniqueArray(inputNameArbitrary(), { minLength: 1, maxLength: 2 }),
      meta: inputNameArbitrary(),
    }),
    { minLength: 1, maxLength: 2, selector: (g) => g.name },
  );
  test.prop([groups], { numRuns: 12 })(
    'every group and task runs and is found under its own name in every record keyed by it',
    async (drawn) => {
      // Arrange
      const t = testCluster();
      const TaskGroups = drawn.map((g) => ({
        Name: g.name,
        Count: 1,
        Meta: JSON.parse(`{${JSON.stringify(g.meta)}:"m"}`) as Record<string, string>,
        Update: { MaxParallel: 1, MinHealthyTime: 0 },
        Tasks: g.tasks.map((name) => ({ Name: name, Driver: 'mock', Config: { run_for: '1h' } })),
      }));
      // Act
      t.cluster.registerJob({ job: serviceJob('web', { TaskGroups }) });
      t.run(1000);
      // Assert
      const allocs = t.cluster.store.ofJob('allocs', 'default', 'web');
      expect(allocs.map((a) => a.ClientStatus)).toEqual(drawn.map(() => 'running'));
      for (const a of allocs) {
        const tasks = drawn.find((g) => g.name === a.TaskGroup)?.tasks ?? [];
        expect(Object.keys(a.TaskStates ?? {}).sort()).toEqual([...tasks].sort());
        expect(Object.keys(JSON.parse(JSON.stringify(a.TaskResources)) as object).sort()).toEqual(
          [...tasks].sort(),
        );
      }
      const names = drawn.map((g) => g.name);
      const summary = t.cluster.store.summaries.get(jobKey('default', 'web'));
      expect(Object.keys(JSON.parse(JSON.stringify(summary?.Summary)) as object)).toEqual(names);
      const deployment = t.cluster.store.ofJob('deployments', 'default', 'web').at(-1);
      expect(Object.keys(JSON.parse(JSON.stringify(deployment?.TaskGroups)) as object)).toEqual(names);
      await t.cluster.close();
    },
  );
});
