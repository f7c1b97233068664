import { describe, expect, it } from 'vitest';

import { fakeClient } from '../test/fake-fetch.js';
import type { SchedulerClient } from './index.js';

const allocId = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';

interface Case {
  readonly name: string;
  readonly call: (client: SchedulerClient) => Promise<unknown>;
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body?: unknown;
}

const job = { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };

// Every endpoint of spec documents 1 and 2, with the request it must send.
const cases: Case[] = [
  { name: 'jobs.list', call: (c) => c.jobs.list(), method: 'GET', path: '/v1/jobs', query: {} },
  {
    name: 'jobs.list with every parameter',
    call: (c) =>
      c.jobs.list({
        namespace: 'prod',
        region: 'eu',
        filter: 'Status == "running"',
        perPage: 10,
        nextToken: 'prod.web',
        reverse: true,
        stale: true,
        meta: true,
      }),
    method: 'GET',
    path: '/v1/jobs',
    query: {
      namespace: 'prod',
      region: 'eu',
      filter: 'Status == "running"',
      per_page: '10',
      next_token: 'prod.web',
      reverse: 'true',
      stale: 'true',
      meta: 'true',
    },
  },
  {
    name: 'jobs.list with a prefix',
    call: (c) => c.jobs.list({ prefix: 'we' }),
    method: 'GET',
    path: '/v1/jobs',
    query: { prefix: 'we' },
  },
  {
    name: 'jobs.create',
    call: (c) => c.jobs.create(job),
    method: 'POST',
    path: '/v1/jobs',
    query: {},
    body: { Job: job },
  },
  {
    name: 'jobs.create with check-and-set and every option',
    call: (c) =>
      c.jobs.create(job, {
        enforceIndex: 0,
        evalPriority: 70,
        policyOverride: true,
        preserveCounts: true,
        submission: { Format: 'json', Source: '{}' },
      }),
    method: 'POST',
    path: '/v1/jobs',
    query: {},
    body: {
      Job: job,
      EnforceIndex: true,
      JobModifyIndex: 0,
      EvalPriority: 70,
      PolicyOverride: true,
      PreserveCounts: true,
      Submission: { Format: 'json', Source: '{}' },
    },
  },
  {
    name: "jobs.create sends the job's namespace",
    call: (c) => c.jobs.create({ ...job, Namespace: 'prod' }),
    method: 'POST',
    path: '/v1/jobs',
    query: { namespace: 'prod' },
    body: { Job: { ...job, Namespace: 'prod' } },
  },
  {
    name: 'jobs.parse',
    call: (c) =>
      c.jobs.parse('job "web" {}', {
        canonicalize: true,
        variables: 'a = 1',
        variableFlags: { b: '2' },
        hclv1: false,
      }),
    method: 'POST',
    path: '/v1/jobs/parse',
    query: {},
    body: {
      JobHCL: 'job "web" {}',
      Canonicalize: true,
      Variables: 'a = 1',
      VariableFlags: { b: '2' },
      HCLv1: false,
    },
  },
  { name: 'jobs.read', call: (c) => c.jobs.read('web'), method: 'GET', path: '/v1/job/web', query: {} },
  {
    name: 'jobs.read as one blocking query',
    call: (c) => c.jobs.read('web', { index: 42, wait: '30s' }),
    method: 'GET',
    path: '/v1/job/web',
    query: { index: '42', wait: '30s' },
  },
  {
    name: 'allocations.list as one blocking query with a wait in milliseconds',
    call: (c) => c.allocations.list({ index: 7, wait: 1500 }),
    method: 'GET',
    path: '/v1/allocations',
    query: { index: '7', wait: '1500ms' },
  },
  {
    name: 'jobs.read escapes the ID',
    call: (c) => c.jobs.read('a b/c?d#e%'),
    method: 'GET',
    path: '/v1/job/a%20b%2Fc%3Fd%23e%25',
    query: {},
  },
  {
    name: 'jobs.submission',
    call: (c) => c.jobs.submission('web', 2),
    method: 'GET',
    path: '/v1/job/web/submission',
    query: { version: '2' },
  },
  {
    name: 'jobs.versions',
    call: (c) => c.jobs.versions('web', { diffs: true }),
    method: 'GET',
    path: '/v1/job/web/versions',
    query: { diffs: 'true' },
  },
  {
    name: 'jobs.allocations',
    call: (c) => c.jobs.allocations('web', { all: true }),
    method: 'GET',
    path: '/v1/job/web/allocations',
    query: { all: 'true' },
  },
  {
    name: 'jobs.evaluations',
    call: (c) => c.jobs.evaluations('web', { stale: true }),
    method: 'GET',
    path: '/v1/job/web/evaluations',
    query: { stale: 'true' },
  },
  {
    name: 'jobs.deployments',
    call: (c) => c.jobs.deployments('web', { all: true }),
    method: 'GET',
    path: '/v1/job/web/deployments',
    query: { all: 'true' },
  },
  {
    name: 'jobs.latestDeployment',
    call: (c) => c.jobs.latestDeployment('web'),
    method: 'GET',
    path: '/v1/job/web/deployment',
    query: {},
  },
  {
    name: 'jobs.summary',
    call: (c) => c.jobs.summary('web'),
    method: 'GET',
    path: '/v1/job/web/summary',
    query: {},
  },
  {
    name: 'jobs.update',
    call: (c) => c.jobs.update('web', job, { enforceIndex: 12 }),
    method: 'POST',
    path: '/v1/job/web',
    query: {},
    body: { Job: job, EnforceIndex: true, JobModifyIndex: 12 },
  },
  {
    name: 'jobs.update fills in a missing job ID',
    call: (c) => c.jobs.update('web', { TaskGroups: job.TaskGroups } as never),
    method: 'POST',
    path: '/v1/job/web',
    query: {},
    body: { Job: { TaskGroups: job.TaskGroups, ID: 'web' } },
  },
  {
    name: 'jobs.dispatch',
    call: (c) =>
      c.jobs.dispatch('batch', {
        payload: new TextEncoder().encode('hello'),
        meta: { k: 'v' },
        idPrefixTemplate: 'run',
        idempotencyToken: 'tok-1',
      }),
    method: 'POST',
    path: '/v1/job/batch/dispatch',
    query: { IdempotencyToken: 'tok-1' },
    body: { Payload: 'aGVsbG8=', Meta: { k: 'v' }, IdPrefixTemplate: 'run' },
  },
  {
    name: 'jobs.dispatch with a base64 payload',
    call: (c) => c.jobs.dispatch('batch', { payload: 'aGVsbG8=' }),
    method: 'POST',
    path: '/v1/job/batch/dispatch',
    query: {},
    body: { Payload: 'aGVsbG8=' },
  },
  {
    name: 'jobs.revert',
    call: (c) => c.jobs.revert('web', 1, { enforcePriorVersion: 3, meshToken: 'm', secretsToken: 's' }),
    method: 'POST',
    path: '/v1/job/web/revert',
    query: {},
    body: { JobID: 'web', JobVersion: 1, EnforcePriorVersion: 3, MeshToken: 'm', SecretsToken: 's' },
  },
  {
    name: 'jobs.stable',
    call: (c) => c.jobs.stable('web', { version: 2, stable: true }),
    method: 'POST',
    path: '/v1/job/web/stable',
    query: {},
    body: { JobID: 'web', JobVersion: 2, Stable: true },
  },
  {
    name: 'jobs.evaluate',
    call: (c) => c.jobs.evaluate('web', { forceReschedule: true }),
    method: 'POST',
    path: '/v1/job/web/evaluate',
    query: {},
    body: { JobID: 'web', EvalOptions: { ForceReschedule: true } },
  },
  {
    name: 'jobs.evaluate without options',
    call: (c) => c.jobs.evaluate('web'),
    method: 'POST',
    path: '/v1/job/web/evaluate',
    query: {},
    body: { JobID: 'web' },
  },
  {
    name: 'jobs.plan',
    call: (c) => c.jobs.plan(job, { diff: true, policyOverride: false }),
    method: 'POST',
    path: '/v1/job/web/plan',
    query: {},
    body: { Job: job, Diff: true, PolicyOverride: false },
  },
  {
    name: 'jobs.periodicForce',
    call: (c) => c.jobs.periodicForce('nightly'),
    method: 'POST',
    path: '/v1/job/nightly/periodic/force',
    query: {},
  },
  {
    name: 'jobs.stop',
    call: (c) => c.jobs.stop('web', { purge: true, global: true, evalPriority: 50, noShutdownDelay: true }),
    method: 'DELETE',
    path: '/v1/job/web',
    query: { purge: 'true', global: 'true', eval_priority: '50', no_shutdown_delay: 'true' },
  },
  {
    name: 'jobs.stop sends false flags as absent',
    call: (c) => c.jobs.stop('web', { purge: false }),
    method: 'DELETE',
    path: '/v1/job/web',
    query: {},
  },
  {
    name: 'allocations.list',
    call: (c) => c.allocations.list(),
    method: 'GET',
    path: '/v1/allocations',
    query: {},
  },
  {
    name: 'allocations.list with every parameter',
    call: (c) =>
      c.allocations.list({
        namespace: '*',
        prefix: '5456bd7a',
        perPage: 5,
        nextToken: '5456bd7a-9fc0-c0dd-6131-cbee77f57577',
        reverse: true,
        resources: true,
        taskStates: false,
      }),
    method: 'GET',
    path: '/v1/allocations',
    query: {
      namespace: '*',
      prefix: '5456bd7a',
      per_page: '5',
      next_token: '5456bd7a-9fc0-c0dd-6131-cbee77f57577',
      reverse: 'true',
      resources: 'true',
      task_states: 'false',
    },
  },
  {
    name: 'allocations.list with taskStates true sends the default (nothing)',
    call: (c) => c.allocations.list({ taskStates: true }),
    method: 'GET',
    path: '/v1/allocations',
    query: {},
  },
  {
    name: 'allocations.read',
    call: (c) => c.allocations.read(allocId),
    method: 'GET',
    path: `/v1/allocation/${allocId}`,
    query: {},
  },
  {
    name: 'allocations.stop',
    call: (c) => c.allocations.stop(allocId, { noShutdownDelay: true }),
    method: 'POST',
    path: `/v1/allocation/${allocId}/stop`,
    query: { no_shutdown_delay: 'true' },
  },
  {
    name: 'allocations.signal',
    call: (c) => c.allocations.signal(allocId, 'SIGHUP', { task: 'web' }),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/signal`,
    query: {},
    body: { Signal: 'SIGHUP', Task: 'web' },
  },
  {
    name: 'allocations.restart',
    call: (c) => c.allocations.restart(allocId, { task: 'web' }),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/restart`,
    query: {},
    body: { Task: 'web' },
  },
  {
    name: 'allocations.restart of every task',
    call: (c) => c.allocations.restart(allocId),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/restart`,
    query: {},
    body: {},
  },
  {
    name: 'volumes.list sends type=csi',
    call: (c) => c.volumes.list(),
    method: 'GET',
    path: '/v1/volumes',
    query: { type: 'csi' },
  },
  {
    name: 'volumes.list with node and plugin prefixes',
    call: (c) => c.volumes.list({ nodeId: 'ab12', pluginId: 'ebs', prefix: 'vol', perPage: 2 }),
    method: 'GET',
    path: '/v1/volumes',
    query: { type: 'csi', node_id: 'ab12', plugin_id: 'ebs', prefix: 'vol', per_page: '2' },
  },
  {
    name: 'volumes.read',
    call: (c) => c.volumes.read('vol-1'),
    method: 'GET',
    path: '/v1/volume/csi/vol-1',
    query: {},
  },
  {
    name: 'volumes.register',
    call: (c) =>
      c.volumes.register({ ID: 'vol-1', Name: 'data', Namespace: 'prod', PluginID: 'ebs' } as never),
    method: 'PUT',
    path: '/v1/volume/csi/vol-1',
    query: { namespace: 'prod' },
    body: { Volumes: [{ ID: 'vol-1', Name: 'data', Namespace: 'prod', PluginID: 'ebs' }] },
  },
  {
    name: 'volumes.delete',
    call: (c) => c.volumes.delete('vol-1', { force: true }),
    method: 'DELETE',
    path: '/v1/volume/csi/vol-1',
    query: { force: 'true' },
  },
  {
    name: 'volumes.detach',
    call: (c) => c.volumes.detach('vol-1', 'node-1'),
    method: 'DELETE',
    path: '/v1/volume/csi/vol-1/detach',
    query: { node: 'node-1' },
  },
];

describe('every endpoint', () => {
  it.each(cases)('$name sends $method $path', async ({ call, method, path, query, body }) => {
    // Arrange
    const { client, calls } = fakeClient(() => ({ json: {} }));
    // Act
    await call(client);
    // Assert
    expect(calls).toHaveLength(1);
    const [sent] = calls;
    expect(sent?.method).toBe(method);
    expect(sent?.path).toBe(path);
    expect(sent?.query).toEqual(query);
    expect(sent?.body).toEqual(body);
    expect(sent?.headers.get('content-type')).toBe(body === undefined ? null : 'application/json');
  });

  it.each(cases)('$name answers { data, meta } with the X-Svc headers', async ({ call }) => {
    const { client } = fakeClient(() => ({
      json: { answer: 42 },
      headers: { 'X-Svc-Index': '1234', 'X-Svc-LastContact': '7', 'X-Svc-KnownLeader': 'true' },
    }));
    const result = (await call(client)) as { data: unknown; meta: Record<string, unknown> };
    expect(result.data).toEqual({ answer: 42 });
    expect(result.meta).toMatchObject({ index: 1234, lastContact: 7, knownLeader: true });
  });

  it.each(cases)('$name throws the ApiError of a 4xx with the server message', async ({ call }) => {
    const { client } = fakeClient(() => ({ status: 404, text: 'job not found' }));
    await expect(call(client)).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      message: expect.stringContaining('job not found'),
    });
  });
});
