import { describe, expect, it } from 'vitest';

import { fakeClient } from '../test/fake-fetch.js';
import { InvalidRequestError, type SchedulerClient } from './index.js';

const allocId = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';
const job = { ID: 'web', TaskGroups: [] };

interface BadCase {
  readonly name: string;
  readonly call: (client: SchedulerClient) => Promise<unknown>;
  readonly parameter: string;
  readonly message: string | RegExp;
}

const filterConflict = 'Filter expression cannot be used with other filter parameters';

const bad: BadCase[] = [
  {
    name: 'an empty job ID',
    call: (c) => c.jobs.read(''),
    parameter: 'jobId',
    message: 'Job ID must be a non-empty string, but got "".',
  },
  {
    name: 'a job ID that is not a string',
    call: (c) => c.jobs.summary(42 as never),
    parameter: 'jobId',
    message: 'Job ID must be a non-empty string, but got 42.',
  },
  {
    name: 'a job ID of ".."',
    call: (c) => c.jobs.stop('..'),
    parameter: 'jobId',
    message:
      'Job ID ".." cannot be addressed in a URL path, because URLs resolve "." and ".." as relative segments.',
  },
  {
    name: 'a job without an ID on create',
    call: (c) => c.jobs.create({ TaskGroups: [] } as never),
    parameter: 'job.ID',
    message: 'Job ID (job.ID) must be a non-empty string, but got undefined.',
  },
  {
    name: 'a job that is not an object on create',
    call: (c) => c.jobs.create(null as never),
    parameter: 'job',
    message: 'job must be an object, but got null.',
  },
  {
    name: 'a job without an ID on plan',
    call: (c) => c.jobs.plan({ ID: '' } as never),
    parameter: 'job.ID',
    message: 'Job ID (job.ID) must be a non-empty string, but got "".',
  },
  {
    name: 'a job ID that differs from the path on update',
    call: (c) => c.jobs.update('api', job as never),
    parameter: 'job.ID',
    message: 'job.ID "web" does not match the job ID "api" of the path.',
  },
  {
    name: 'a negative check-and-set index',
    call: (c) => c.jobs.create(job as never, { enforceIndex: -1 }),
    parameter: 'enforceIndex',
    message: 'enforceIndex must be an integer of at least 0, but got -1.',
  },
  {
    name: 'an evaluation priority of 0',
    call: (c) => c.jobs.stop('web', { evalPriority: 0 }),
    parameter: 'evalPriority',
    message: 'evalPriority must be an integer from 1 to 100, but got 0.',
  },
  {
    name: 'an empty job text to parse',
    call: (c) => c.jobs.parse(''),
    parameter: 'source',
    message: 'source must be a non-empty string, but got "".',
  },
  {
    name: 'variable flags that are not strings',
    call: (c) => c.jobs.parse('job "x" {}', { variableFlags: { n: 1 } as never }),
    parameter: 'variableFlags',
    message: 'variableFlags["n"] must be a string, but got 1.',
  },
  {
    name: 'a fractional submission version',
    call: (c) => c.jobs.submission('web', 1.5),
    parameter: 'version',
    message: 'version must be an integer of at least 0, but got 1.5.',
  },
  {
    name: 'a negative revert version',
    call: (c) => c.jobs.revert('web', -2),
    parameter: 'version',
    message: 'version must be an integer of at least 0, but got -2.',
  },
  {
    name: 'a stability without a boolean',
    call: (c) => c.jobs.stable('web', { version: 1, stable: 'yes' as never }),
    parameter: 'stability.stable',
    message: 'stability.stable must be true or false, but got "yes".',
  },
  {
    name: 'a dispatch payload over 16384 bytes',
    call: (c) => c.jobs.dispatch('batch', { payload: new Uint8Array(16385) }),
    parameter: 'payload',
    message: 'payload is 16385 bytes, more than the 16384 bytes a dispatch payload may hold.',
  },
  {
    name: 'a base64 dispatch payload over 16384 bytes',
    call: (c) => c.jobs.dispatch('batch', { payload: 'A'.repeat(21848) }),
    parameter: 'payload',
    message: 'payload is 16386 bytes, more than the 16384 bytes a dispatch payload may hold.',
  },
  {
    name: 'a dispatch payload that is not base64',
    call: (c) => c.jobs.dispatch('batch', { payload: 'not base64!' }),
    parameter: 'payload',
    message: 'payload must be bytes or a base64 string, but "not base64!" is not valid base64.',
  },
  {
    name: 'dispatch meta with a number',
    call: (c) => c.jobs.dispatch('batch', { meta: { n: 3 } as never }),
    parameter: 'meta',
    message: 'meta["n"] must be a string, but got 3.',
  },
  {
    name: 'filter with prefix on jobs',
    call: (c) => c.jobs.list({ prefix: 'web', filter: 'Status == "running"' }),
    parameter: 'prefix',
    message: filterConflict,
  },
  {
    name: 'filter with prefix on allocations',
    call: (c) => c.allocations.list({ prefix: 'ab', filter: 'ClientStatus == "running"' }),
    parameter: 'prefix',
    message: filterConflict,
  },
  {
    name: 'filter with nodeId on volumes',
    call: (c) => c.volumes.list({ nodeId: 'ab', filter: 'Schedulable' }),
    parameter: 'nodeId',
    message: filterConflict,
  },
  {
    name: 'filter with pluginId on volumes',
    call: (c) => c.volumes.list({ pluginId: 'ebs', filter: 'Schedulable' }),
    parameter: 'pluginId',
    message: filterConflict,
  },
  {
    name: 'filter with prefix in pages()',
    call: async (c) => {
      for await (const page of c.jobs.list.pages({ prefix: 'a', filter: 'ID == "a"' })) void page;
    },
    parameter: 'prefix',
    message: filterConflict,
  },
  {
    name: 'a filter that is neither text nor an expression',
    call: (c) => c.jobs.list({ filter: 42 as never }),
    parameter: 'filter',
    message: 'filter must be a string or a filter expression built with @sked/filter, but got 42.',
  },
  {
    name: 'a negative page size',
    call: (c) => c.jobs.list({ perPage: -1 }),
    parameter: 'perPage',
    message: 'perPage must be an integer of at least 0, but got -1.',
  },
  {
    name: 'a fractional page size',
    call: (c) => c.allocations.list({ perPage: 2.5 }),
    parameter: 'perPage',
    message: 'perPage must be an integer of at least 0, but got 2.5.',
  },
  {
    name: 'a non-boolean reverse',
    call: (c) => c.jobs.list({ reverse: 'true' as never }),
    parameter: 'reverse',
    message: 'reverse must be true or false, but got "true".',
  },
  {
    name: 'an odd-length allocation prefix',
    call: (c) => c.allocations.list({ prefix: 'abc' }),
    parameter: 'prefix',
    message:
      'prefix "abc" has an odd number of hexadecimal characters; hex prefixes must have an even number of characters (0-9a-f) because the service decodes them to bytes.',
  },
  {
    name: 'an odd-length allocation prefix with a hyphen',
    call: (c) => c.allocations.list({ prefix: '5456bd7a-9' }),
    parameter: 'prefix',
    message: /odd number of hexadecimal characters/,
  },
  {
    name: 'an allocation prefix that is not hexadecimal',
    call: (c) => c.allocations.list({ prefix: 'web1' }),
    parameter: 'prefix',
    message:
      'prefix "web1" is not a UUID prefix: it may hold only the characters 0-9, a-f and "-", at most 36 of them.',
  },
  {
    name: 'an odd-length node ID prefix on volumes',
    call: (c) => c.volumes.list({ nodeId: 'a' }),
    parameter: 'nodeId',
    message: /^nodeId "a" has an odd number of hexadecimal characters/,
  },
  {
    name: 'an unsupported volume type',
    call: (c) => c.volumes.list({ type: 'host' as never }),
    parameter: 'type',
    message: 'Unsupported volume type "host": the service supports only "csi".',
  },
  {
    name: 'a short allocation ID',
    call: (c) => c.allocations.read('5456bd7a'),
    parameter: 'allocId',
    message:
      'Allocation ID "5456bd7a" is not a full allocation ID (a 36-character UUID); the service does not accept short or partial IDs in paths. To resolve a short ID, list allocations with { prefix: "5456bd7a" } and use the full ID.',
  },
  {
    name: 'an allocation ID that is not a UUID',
    call: (c) => c.allocations.stop('web-1'),
    parameter: 'allocId',
    message:
      'Allocation ID "web-1" is not a full allocation ID (a 36-character UUID); the service does not accept short or partial IDs in paths.',
  },
  {
    name: 'an empty allocation ID',
    call: (c) => c.allocations.restart(''),
    parameter: 'allocId',
    message: 'Allocation ID must be a non-empty string, but got "".',
  },
  {
    name: 'an empty signal',
    call: (c) => c.allocations.signal(allocId, ''),
    parameter: 'signal',
    message: 'signal must be a non-empty string, but got "".',
  },
  {
    name: 'an empty task name',
    call: (c) => c.allocations.restart(allocId, { task: '' }),
    parameter: 'task',
    message: 'task must be a non-empty string, but got "".',
  },
  {
    name: 'an empty volume ID',
    call: (c) => c.volumes.delete(''),
    parameter: 'volumeId',
    message: 'Volume ID must be a non-empty string, but got "".',
  },
  {
    name: 'a volume without an ID',
    call: (c) => c.volumes.register({ Name: 'x' } as never),
    parameter: 'volume.ID',
    message: 'Volume ID (volume.ID) must be a non-empty string, but got undefined.',
  },
  {
    name: 'a detach without a node',
    call: (c) => c.volumes.detach('vol-1', ''),
    parameter: 'nodeId',
    message: 'nodeId must be a non-empty string, but got "".',
  },
  {
    name: 'a wait the service cannot read',
    call: (c) => c.jobs.read('web', { index: 3, wait: 'soon' }),
    parameter: 'wait',
    message: 'Invalid wait time "soon": use a duration such as "30s", "5m" or "1h30m", or milliseconds.',
  },
  {
    name: 'a negative wait in milliseconds',
    call: (c) => c.volumes.list({ index: 3, wait: -5 }),
    parameter: 'wait',
    message: 'wait must be a duration string or a non-negative number of milliseconds, but got -5.',
  },
  {
    name: 'a negative index',
    call: (c) => c.jobs.summary('web', { index: -1 }),
    parameter: 'index',
    message: 'index must be an integer of at least 0, but got -1.',
  },
  {
    name: 'a watch with a wait the service cannot read',
    call: async (c) => {
      for await (const result of c.jobs.read.watch('web', { wait: '5 minutes' })) void result;
    },
    parameter: 'wait',
    message: /^Invalid wait time "5 minutes"/,
  },
  {
    name: 'a namespace that is not a string',
    call: (c) => c.jobs.read('web', { namespace: 3 as never }),
    parameter: 'namespace',
    message: 'namespace must be a string, but got 3.',
  },
];

describe('bad input is refused before any request', () => {
  it.each(bad)('$name', async ({ call, parameter, message }) => {
    // Arrange
    const { client, calls } = fakeClient();
    // Act
    const error: unknown = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Assert
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(InvalidRequestError);
    const invalid = error as InvalidRequestError;
    expect(invalid.name).toBe('InvalidRequestError');
    expect(invalid.parameter).toBe(parameter);
    const exact =
      typeof message === 'string'
        ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
        : message;
    expect(invalid.message).toMatch(exact);
    expect(calls).toHaveLength(0);
  });

  it('refuses synchronously-detectable mistakes as a rejected promise, never a synchronous throw', () => {
    const { client } = fakeClient();
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = client.jobs.read('');
    }).not.toThrow();
    return expect(promise).rejects.toThrow(InvalidRequestError);
  });

  it('accepts an uppercase allocation ID and prefix, as the service does', async () => {
    const { client, calls } = fakeClient(() => ({ json: [] }));
    await client.allocations.read(allocId.toUpperCase());
    await client.allocations.list({ prefix: 'AB12' });
    expect(calls.map((c) => c.url.pathname + c.url.search)).toEqual([
      `/v1/allocation/${allocId.toUpperCase()}`,
      '/v1/allocations?prefix=AB12',
    ]);
  });

  it('lets an empty filter go with a prefix (an empty filter is no filter)', async () => {
    const { client, calls } = fakeClient(() => ({ json: [] }));
    await client.jobs.list({ prefix: 'web', filter: '' });
    expect(calls[0]?.query).toEqual({ prefix: 'web' });
  });
});
