import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { ApiError, InvalidRequestError } from '@sked/scheduler-client';

import { collect, eventually, rejection, serviceJob, startTestServer, type TestServer } from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('jobs against the sample server', () => {
  it('create, read, list with a filter, summary', async () => {
    const { client } = server;
    // Arrange / Act
    const created = await client.jobs.create(serviceJob('web', { count: 2, meta: { team: 'blue' } }));
    await client.jobs.create(serviceJob('api', { meta: { team: 'red' } }));
    // Assert
    expect(created.data.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.data.JobModifyIndex).toBeGreaterThan(0);

    const { data: job, meta } = await client.jobs.read('web');
    expect(job.ID).toBe('web');
    expect(job.TaskGroups?.[0]?.Count).toBe(2);
    expect(meta.index).toBeGreaterThanOrEqual(1);
    expect(meta.knownLeader).toBe(true);

    const filtered = await client.jobs.list({ filter: 'Meta.team == "red"' });
    expect(filtered.data.map((j) => j.ID)).toEqual(['api']);

    const withMeta = await client.jobs.list({ prefix: 'we', meta: true });
    expect(withMeta.data.map((j) => [j.ID, j.Meta])).toEqual([['web', { team: 'blue' }]]);

    const summary = await eventually(async () => {
      const { data } = await client.jobs.summary('web');
      const web = data.Summary['web'];
      return web !== undefined && web.Running + web.Starting + web.Queued === 2 ? data : undefined;
    }, 'a summary of 2 allocations');
    expect(summary.JobID).toBe('web');
  });

  it('pages through jobs in both directions', async () => {
    const { client } = server;
    for (const id of ['page-a', 'page-b', 'page-c', 'page-d', 'page-e']) {
      await client.jobs.create(serviceJob(id));
    }
    const forward = await collect(client.jobs.list.items({ perPage: 2, filter: 'ID matches "^page-"' }));
    expect(forward.map((j) => j.ID)).toEqual(['page-a', 'page-b', 'page-c', 'page-d', 'page-e']);
    const pages = await collect(
      client.jobs.list.pages({ perPage: 2, filter: 'ID matches "^page-"', reverse: true }),
    );
    expect(pages.map((p) => p.data.map((j) => j.ID))).toEqual([
      ['page-e', 'page-d'],
      ['page-c', 'page-b'],
      ['page-a'],
    ]);
    expect(pages[0]?.meta.nextToken).toBe('default.page-c');
    expect(pages[2]?.meta.nextToken).toBeUndefined();
  });

  it('refuses filter with prefix before the request, with the server message', async () => {
    const { client } = server;
    const early = await rejection(client.jobs.list({ prefix: 'w', filter: 'ID == "web"' }));
    expect(InvalidRequestError.is(early)).toBe(true);
    // The server says the same thing when asked directly.
    const response = await fetch(
      `${server.url}/v1/jobs?prefix=w&filter=${encodeURIComponent('ID == "web"')}`,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(early.message);
  });

  it('reports a filter that does not parse with the server message', async () => {
    const error = await rejection(server.client.jobs.list({ filter: 'Status ==' }));
    expect(ApiError.is(error)).toBe(true);
    expect(error['status']).toBe(400);
    expect(error.message).toContain('failed to read filter expression:');
  });

  it('refuses a body the model refuses before sending it, and one the service refuses with its 400', async () => {
    const { client } = server;
    // the schema's problem: the client's request path refuses it, naming the field
    const bad = { ID: 'bad-body', TaskGroups: [{ Name: 'g', Count: 'two', Tasks: [] }] };
    const refused = await rejection(client.jobs.create(bad as never));
    expect(InvalidRequestError.is(refused) && refused.parameter).toBe('Job.TaskGroups[0].Count');
    // the service's own check: two groups of one name reach it and get its 400
    const job = serviceJob('bad-body');
    const groups = job.TaskGroups ?? [];
    expect(groups).toHaveLength(1);
    const error = await rejection(client.jobs.create({ ...job, TaskGroups: [...groups, ...groups] }));
    expect(error).toMatchObject({ status: 400 });
    expect(error.message).toContain('is defined more than once');
    expect(await rejection(client.jobs.read('bad-body'))).toMatchObject({ status: 404 });
  });

  it('refuses a revert whose prior version does not match, and changes nothing', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('cas-revert'));
    await client.jobs.update('cas-revert', serviceJob('cas-revert', { count: 2 }));
    const error = await rejection(client.jobs.revert('cas-revert', 0, { enforcePriorVersion: 5 }));
    expect(error).toMatchObject({ status: 400 });
    expect((await client.jobs.read('cas-revert')).data.Version).toBe(1);
  });

  it('answers 404 job not found for an unknown job', async () => {
    const error = await rejection(server.client.jobs.read('no-such-job'));
    expect(error).toMatchObject({ status: 404 });
    expect(error.message).toContain('job not found');
  });

  it('update with check-and-set, versions with diffs, stable, revert', async () => {
    const { client } = server;
    const first = await client.jobs.create(serviceJob('cas'));
    // A stale index is refused and nothing is written.
    const conflict = await rejection(
      client.jobs.update('cas', serviceJob('cas', { count: 3 }), {
        enforceIndex: first.data.JobModifyIndex + 1000,
      }),
    );
    expect(conflict).toMatchObject({ status: 400 });
    expect((await client.jobs.read('cas')).data.Version).toBe(0);
    // The right index is accepted.
    const updated = await client.jobs.update('cas', serviceJob('cas', { count: 3 }), {
      enforceIndex: first.data.JobModifyIndex,
    });
    expect(updated.data.JobModifyIndex).toBeGreaterThan(first.data.JobModifyIndex);

    const versions = await client.jobs.versions('cas', { diffs: true });
    expect(versions.data.Versions.map((v) => v.Version)).toEqual([1, 0]);
    expect(versions.data.Diffs).toHaveLength(1);

    const stable = await client.jobs.stable('cas', { version: 0, stable: true });
    expect(stable.data.JobModifyIndex).toBeGreaterThan(0);

    const reverted = await client.jobs.revert('cas', 0, { enforcePriorVersion: 1 });
    expect(reverted.data.EvalID).not.toBe('');
    const after = await client.jobs.read('cas');
    expect(after.data.Version).toBe(2);
    expect(after.data.TaskGroups?.[0]?.Count).toBe(1);
  });

  it('submission: the source given at registration is kept per version', async () => {
    const { client } = server;
    const source = JSON.stringify(serviceJob('with-source'));
    await client.jobs.create(serviceJob('with-source'), { submission: { Format: 'json', Source: source } });
    const { data } = await client.jobs.submission('with-source', 0);
    expect(data).toMatchObject({ Format: 'json', Source: source, Version: 0, JobID: 'with-source' });
    const missing = await rejection(client.jobs.submission('with-source', 7));
    expect(missing).toMatchObject({ status: 404 });
  });

  it('allocations, evaluations, deployments and the latest deployment of a job', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('deploy', { count: 2 }));
    const allocs = await eventually(async () => {
      const { data } = await client.jobs.allocations('deploy');
      return data.length === 2 ? data : undefined;
    }, 'two allocations');
    expect(allocs.every((a) => a.JobID === 'deploy')).toBe(true);
    const evals = await client.jobs.evaluations('deploy');
    expect(evals.data.length).toBeGreaterThanOrEqual(1);
    expect(evals.data[0]?.JobID).toBe('deploy');
    // A service job gets the default update strategy, so its first version is deployed; a new
    // version starts a new deployment.
    const rolling = { ...serviceJob('deploy', { count: 3 }), Update: { MaxParallel: 1 } };
    await client.jobs.update('deploy', rolling);
    const deployments = await eventually(async () => {
      const { data } = await client.jobs.deployments('deploy', { all: true });
      return data.some((d) => d.JobVersion === 1) ? data : undefined;
    }, 'a deployment of version 1');
    expect(deployments.every((d) => d.JobID === 'deploy')).toBe(true);
    expect(deployments.map((d) => d.JobVersion).sort((a, b) => a - b)).toEqual([0, 1]);
    const latest = await client.jobs.latestDeployment('deploy');
    expect(latest.data?.JobID).toBe('deploy');
    expect(latest.data?.JobVersion).toBe(1);
    expect(deployments.map((d) => d.ID)).toContain(latest.data?.ID);
    // A job without deployments answers null.
    expect((await client.jobs.latestDeployment('no-such-job')).data).toBeNull();
  });

  it('plan is a dry run that reports the diff and changes nothing', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('planned'));
    const before = await client.jobs.read('planned');
    const { data: plan } = await client.jobs.plan(serviceJob('planned', { count: 4 }), { diff: true });
    expect(plan.Diff?.Type).toBe('Edited');
    expect(plan.JobModifyIndex).toBe(before.data.JobModifyIndex);
    expect((await client.jobs.read('planned')).data.TaskGroups?.[0]?.Count).toBe(1);
  });

  it('evaluate creates an evaluation', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('evaluated'));
    const { data } = await client.jobs.evaluate('evaluated', { forceReschedule: true });
    expect(data.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const evals = await client.jobs.evaluations('evaluated');
    expect(evals.data.map((e) => e.ID)).toContain(data.EvalID);
  });

  it('dispatch creates a child of a parameterized job', async () => {
    const { client } = server;
    const parent = {
      ...serviceJob('params'),
      Type: 'batch' as const,
      ParameterizedJob: { Payload: 'optional', MetaRequired: ['who'], MetaOptional: [] },
    };
    await client.jobs.create(parent);
    const { data } = await client.jobs.dispatch('params', {
      payload: new TextEncoder().encode('hello'),
      meta: { who: 'me' },
    });
    expect(data.DispatchedJobID.startsWith('params/dispatch-')).toBe(true);
    const child = await client.jobs.read(data.DispatchedJobID);
    expect(child.data.ParentID).toBe('params');
    expect(child.data.Meta).toMatchObject({ who: 'me' });
  });

  it('periodicForce launches an instance of a periodic job', async () => {
    const { client } = server;
    const periodic = {
      ...serviceJob('nightly'),
      Type: 'batch' as const,
      Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron', ProhibitOverlap: true },
    };
    await client.jobs.create(periodic);
    const { data } = await client.jobs.periodicForce('nightly');
    expect(data.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const children = await client.jobs.list({ prefix: 'nightly/periodic-' });
    expect(children.data.length).toBe(1);
  });

  it('parse turns job text into a job', async () => {
    const source = `job "parsed" {\n  datacenters = ["dc1"]\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n`;
    const { data } = await server.client.jobs.parse(source, { canonicalize: true });
    expect(data.ID).toBe('parsed');
    expect(data.TaskGroups?.[0]?.Tasks?.[0]?.Driver).toBe('mock');
  });

  it('a job parsed with Canonicalize registers as is and runs (the parse, then run workflow)', async () => {
    // Arrange
    const { client } = server;
    const source = [
      'job "from-text" {',
      '  datacenters = ["dc1"]',
      '  group "g" {',
      '    count = 2',
      '    task "t" {',
      '      driver = "mock"',
      '      config {',
      '        run_for = "1h"',
      '      }',
      '      resources {',
      '        cpu    = 100',
      '        memory = 64',
      '      }',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    // Act
    const { data: parsed } = await client.jobs.parse(source, { canonicalize: true });
    const registered = await client.jobs.create(parsed);
    // Assert
    expect(registered.data.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const running = await eventually(async () => {
      const { data } = await client.jobs.allocations('from-text');
      const live = data.filter((a) => a.ClientStatus === 'running');
      return live.length === 2 ? live : undefined;
    }, 'two running allocations of from-text');
    expect(running.map((a) => a.TaskGroup)).toEqual(['g', 'g']);
    expect((await client.jobs.read('from-text')).data.Status).toBe('running');
  });

  it('stop deregisters a job; purge removes it', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('stopped'));
    const stopped = await client.jobs.stop('stopped');
    expect(stopped.data.EvalID).not.toBe('');
    expect((await client.jobs.read('stopped')).data.Stop).toBe(true);
    await client.jobs.stop('stopped', { purge: true });
    expect(await rejection(client.jobs.read('stopped'))).toMatchObject({ status: 404 });
  });

  it('watch yields the job again when it changes', async () => {
    const { client } = server;
    await client.jobs.create(serviceJob('watched'));
    const controller = new AbortController();
    const seen: number[] = [];
    const watching = (async () => {
      for await (const { data } of client.jobs.read.watch('watched', {
        signal: controller.signal,
        wait: '5s',
      })) {
        seen.push(data.TaskGroups?.[0]?.Count ?? -1);
        if (data.TaskGroups?.[0]?.Count === 2) break;
      }
    })();
    await eventually(
      () => Promise.resolve(seen.length >= 1 ? true : undefined),
      'the first answer of the watch',
    );
    await client.jobs.update('watched', serviceJob('watched', { count: 2 }));
    await watching;
    expect(seen[0]).toBe(1);
    expect(seen.at(-1)).toBe(2);
  });
});
