/**
 * Request bodies checked against the model's schemas in `@sked/http`, before anything is sent: counted
 * at a real HTTP server.
 */
import { makeJob, makeTaskGroup } from '@sked/testkit';
import { startRecordingServer, type RecordingServer } from '@sked/testkit/net';
import { ValidationError } from '@sked/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSchedulerClient, InvalidRequestError, type JobInput, type SchedulerClient } from './index.js';

let server: RecordingServer;
let client: SchedulerClient;
beforeAll(async () => {
  server = await startRecordingServer(() => ({
    body: '{"EvalID":"","EvalCreateIndex":0,"JobModifyIndex":1,"Index":1,"Warnings":""}',
  }));
  client = createSchedulerClient({ address: server.url, env: false });
});
afterAll(() => server.close());

const good = makeJob({ ID: 'web' }) as JobInput;
const badCount = makeJob({ ID: 'web', TaskGroups: [makeTaskGroup({ Count: 'three' as never })] }) as JobInput;

describe('job bodies', () => {
  it.each([
    ['create', (c: SchedulerClient, job: JobInput) => c.jobs.create(job), 'job register'],
    ['update', (c: SchedulerClient, job: JobInput) => c.jobs.update('web', job), 'job register'],
    ['plan', (c: SchedulerClient, job: JobInput) => c.jobs.plan(job), 'job plan'],
  ])('%s sends a job of the model, and refuses another before any request', async (_name, call, what) => {
    // Arrange
    const before = server.requests.length;
    // Act
    await call(client, good);
    const error = await call(client, badCount).catch((e: unknown) => e);
    // Assert
    expect(server.requests.length - before).toBe(1);
    expect(JSON.parse(server.requests.at(-1)?.body ?? '{}')).toMatchObject({ Job: { ID: 'web' } });
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as InvalidRequestError).parameter).toBe('Job.TaskGroups[0].Count');
    expect((error as Error).message).toBe(
      `The ${what} body is not valid: Job.TaskGroups[0].Count: expected an integer but got the string "three".`,
    );
    expect(ValidationError.is((error as Error).cause)).toBe(true);
  });

  it('refuses every kind of schema problem, naming its path, and sends nothing', async () => {
    const before = server.requests.length;
    const cases: [unknown, string][] = [
      [{ ...good, Priority: 1.5 }, 'Job.Priority'],
      [{ ...good, Meta: { team: 7 } }, 'Job.Meta.team'],
      [{ ...good, TaskGroups: 'web' }, 'Job.TaskGroups'],
      [{ ...good, Constraints: [{ LTarget: 1 }] }, 'Job.Constraints[0].LTarget'],
    ];
    const parameters = await Promise.all(
      cases.map(async ([job]) => {
        const error = await client.jobs.create(job as JobInput).catch((e: unknown) => e);
        return InvalidRequestError.is(error) ? error.parameter : `not refused: ${String(error)}`;
      }),
    );
    expect(parameters).toEqual(cases.map(([, parameter]) => parameter));
    expect(server.requests.length).toBe(before);
  });
});
