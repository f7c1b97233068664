import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { EventPayload, formatProblems, isEventOf, validate } from '@sked/model';
import { jobFactory } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../wiring/server.js';
import type { ClusterEvent } from '../core/index.js';
import { callJson } from '../../../test/json-api.js';

/**
 * End-to-end: the real server (startServer) with its cluster, the event stream over real HTTP,
 * and real jobs registered through the API.
 */

interface Batch {
  Index: number;
  Events: ClusterEvent[];
}

let server: RunningServer;
let base: URL;

beforeAll(async () => {
  server = await startServer({ schedulerPort: 0, nodes: 2, heartbeatMs: 200 });
  base = new URL(server.scheduler.url);
});
afterAll(async () => {
  await server.close();
});

/** An open stream: batches as they arrive (heartbeats counted apart). */
interface Stream {
  readonly batches: Batch[];
  heartbeats: number;
  response: IncomingMessage;
  /** Resolves once `check` holds for the batches received so far. */
  until(check: (batches: Batch[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

function openStream(path: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = httpRequest({ host: base.hostname, port: base.port, path }, (response) => {
      const watchers = new Set<() => void>();
      const stream: Stream = {
        batches: [],
        heartbeats: 0,
        response,
        until: (check, timeoutMs = 10_000) =>
          new Promise<void>((done, fail) => {
            const timer = setTimeout(() => {
              watchers.delete(test);
              fail(new Error(`timed out; got ${JSON.stringify(stream.batches.map((b) => b.Index))}`));
            }, timeoutMs);
            const test = (): void => {
              if (!check(stream.batches)) return;
              clearTimeout(timer);
              watchers.delete(test);
              done();
            };
            watchers.add(test);
            test();
          }),
        close: () => req?.destroy(),
      };
      let rest = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        rest += chunk;
        for (let at = rest.indexOf('\n'); at >= 0; at = rest.indexOf('\n')) {
          const value = JSON.parse(rest.slice(0, at)) as Partial<Batch>;
          rest = rest.slice(at + 1);
          if (value.Events === undefined) stream.heartbeats += 1;
          else stream.batches.push(value as Batch);
        }
        for (const watcher of watchers) watcher();
      });
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

const api = (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> =>
  callJson(base, method, path, body);

const serviceJob = jobFactory({ group: { Name: 'group' }, task: { Name: 'task' } });

function job(id: string, count = 1): unknown {
  return { Job: serviceJob(id, { group: { Count: count } }) };
}

const events = (batches: Batch[]): ClusterEvent[] => batches.flatMap((b) => b.Events);
const has = (batches: Batch[], type: string, key?: string): boolean =>
  events(batches).some(
    (e) => e.Type === type && (key === undefined || e.Key === key || e.FilterKeys?.includes(key)),
  );
const about = (e: ClusterEvent, id: string): boolean => e.Key === id || (e.FilterKeys ?? []).includes(id);
const signature = (e: ClusterEvent): string => `${e.Index}/${e.Topic}/${e.Type}/${e.Key}`;

describe('event stream end to end', () => {
  it('delivers JobRegistered, EvaluationUpdated and AllocationCreated of a registration in index order', async () => {
    // Arrange
    const stream = await openStream('/v1/event/stream?topic=Job&topic=Evaluation&topic=Allocation');
    // Act
    const registered = await api('POST', '/v1/jobs', job('e2e-order'));
    await stream.until((b) => has(b, 'AllocationCreated', 'e2e-order'));
    stream.close();
    // Assert
    expect(registered.status).toBe(200);
    const mine = events(stream.batches).filter(
      (e) => e.Key === 'e2e-order' || e.FilterKeys?.includes('e2e-order'),
    );
    const types = mine.map((e) => e.Type);
    expect(types.indexOf('JobRegistered')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('JobRegistered')).toBeLessThan(types.indexOf('EvaluationUpdated'));
    expect(types.indexOf('EvaluationUpdated')).toBeLessThan(types.indexOf('AllocationCreated'));
    const indexes = stream.batches.map((b) => b.Index);
    expect(indexes).toEqual([...indexes].sort((x, y) => x - y));
    expect(new Set(indexes).size).toBe(indexes.length);
    const created = mine.find((e) => e.Type === 'AllocationCreated');
    const allocation = created?.Topic === 'Allocation' ? created.Payload.Allocation : undefined;
    expect(allocation).toMatchObject({ JobID: 'e2e-order' });
    expect(allocation).not.toHaveProperty('Job');
    expect(stream.response.headers['content-type']).toBe('application/json');
  });

  it('resumes after a dropped connection from the last index + 1 with nothing lost or repeated', async () => {
    // Arrange: a first connection that sees part of the history and then drops
    const first = await openStream('/v1/event/stream?topic=Job&topic=Evaluation&topic=Allocation');
    await api('POST', '/v1/jobs', job('e2e-resume-a'));
    await first.until((b) => has(b, 'AllocationCreated', 'e2e-resume-a'));
    first.close();
    const last = first.batches.at(-1)?.Index ?? 0;
    // Act: writes while disconnected, then resume
    await api('POST', '/v1/jobs', job('e2e-resume-b', 2));
    await api('DELETE', '/v1/job/e2e-resume-a');
    const second = await openStream(
      `/v1/event/stream?topic=Job&topic=Evaluation&topic=Allocation&index=${last + 1}`,
    );
    await second.until(
      (b) => has(b, 'JobDeregistered', 'e2e-resume-a') && has(b, 'AllocationCreated', 'e2e-resume-b'),
    );
    second.close();
    // Assert: first + second equals one uninterrupted read of the same range
    const full = await openStream(
      `/v1/event/stream?topic=Job&topic=Evaluation&topic=Allocation&index=${first.batches[0]?.Index ?? 0}`,
    );
    const end = second.batches.at(-1)?.Index ?? 0;
    await full.until((b) => (b.at(-1)?.Index ?? 0) >= end);
    full.close();
    const joined = [...events(first.batches), ...events(second.batches)].map(signature);
    const reference = events(full.batches.filter((b) => b.Index <= end)).map(signature);
    expect(joined).toEqual(reference);
    expect(new Set(joined).size).toBe(joined.length);
  });

  it('filters by topic and by filter key', async () => {
    // Arrange
    const jobOnly = await openStream('/v1/event/stream?topic=Job:e2e-filter-a');
    const allocsOfA = await openStream('/v1/event/stream?topic=Allocation:e2e-filter-a');
    // Act
    await api('POST', '/v1/jobs', job('e2e-filter-b'));
    await api('POST', '/v1/jobs', job('e2e-filter-a'));
    await allocsOfA.until((b) => has(b, 'AllocationCreated'));
    await jobOnly.until((b) => has(b, 'JobRegistered'));
    jobOnly.close();
    allocsOfA.close();
    // Assert
    expect(events(jobOnly.batches).every((e) => e.Topic === 'Job' && e.Key === 'e2e-filter-a')).toBe(true);
    expect(
      events(allocsOfA.batches).every(
        (e) => e.Topic === 'Allocation' && e.FilterKeys?.includes('e2e-filter-a'),
      ),
    ).toBe(true);
  });

  it('has the NodeRegistration events of the simulated nodes, written at start, in its buffer', async () => {
    const stream = await openStream('/v1/event/stream?topic=Node');
    await stream.until((b) => events(b).filter((e) => e.Type === 'NodeRegistration').length === 2);
    stream.close();
    const registrations = events(stream.batches).filter((e) => e.Type === 'NodeRegistration');
    expect(registrations.map((e) => e.Topic)).toEqual(['Node', 'Node']);
    expect(
      registrations.every((e) => e.Topic === 'Node' && e.Namespace === '' && e.Key === e.Payload.Node.ID),
    ).toBe(true);
  });

  it('carries the events of every kind of write, each with its Key and FilterKeys', async () => {
    // Arrange
    const stream = await openStream('/v1/event/stream?namespace=*');
    const cluster = server.scheduler.cluster;
    await stream.until((b) => has(b, 'NodeRegistration'));
    const nodeId = events(stream.batches).find((e) => e.Type === 'NodeRegistration')?.Key ?? '';
    // Act: a job with a rolling update (a deployment), then the writes around it
    await api('POST', '/v1/jobs', {
      Job: serviceJob('e2e-kinds', {
        Update: {
          MaxParallel: 1,
          MinHealthyTime: 1_000_000,
          HealthyDeadline: 60_000_000_000,
          HealthCheck: 'task_states',
        },
      }),
    });
    await stream.until(
      (b) => has(b, 'DeploymentStatusUpdate', 'e2e-kinds') && has(b, 'DeploymentAllocHealth', 'e2e-kinds'),
    );
    const alloc = events(stream.batches).find((e) => e.Type === 'AllocationCreated' && about(e, 'e2e-kinds'));
    await api('POST', `/v1/allocation/${alloc?.Key ?? ''}/stop`);
    await stream.until((b) => has(b, 'AllocationUpdateDesiredStatus', 'e2e-kinds'));
    await api('DELETE', '/v1/job/e2e-kinds');
    await api('POST', '/v1/jobs', job('e2e-kinds-batch'));
    cluster.batchDeregisterJobs({ jobs: [{ namespace: 'default', id: 'e2e-kinds-batch' }] });
    cluster.setNodeEligibility({ nodeId, eligible: false });
    cluster.drainNode({ nodeId, enable: true });
    await stream.until(
      (b) =>
        has(b, 'JobDeregistered', 'e2e-kinds') &&
        has(b, 'JobBatchDeregistered', 'e2e-kinds-batch') &&
        has(b, 'NodeEligibility', nodeId) &&
        has(b, 'NodeDrain', nodeId),
    );
    stream.close();
    // Assert
    const seen = new Set<string>(events(stream.batches).map((e) => e.Type));
    const wanted = [
      'JobRegistered',
      'JobDeregistered',
      'JobBatchDeregistered',
      'EvaluationUpdated',
      'AllocationCreated',
      'AllocationUpdated',
      'AllocationUpdateDesiredStatus',
      'DeploymentStatusUpdate',
      'DeploymentAllocHealth',
      'PlanResult',
      'NodeRegistration',
      'NodeEligibility',
      'NodeDrain',
    ];
    expect(wanted.filter((type) => !seen.has(type))).toEqual([]);
    const all = events(stream.batches);
    expect(all.filter((e) => e.Key === '' || e.Index <= 0)).toEqual([]);
    const allocs = all.filter((e) => e.Topic === 'Allocation');
    expect(allocs.filter((e) => !(e.FilterKeys ?? []).includes(e.Payload.Allocation.JobID))).toEqual([]);
    // every payload is the model's for its topic: its key (isEventOf) and its fields
    const wrong = all.flatMap((e) => {
      const result = validate(EventPayload[e.Topic], e.Payload);
      if (result.ok && isEventOf(e, e.Topic)) return [];
      return [`${e.Topic}/${e.Type}: ${result.ok ? 'no payload key' : formatProblems(result.problems)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('sends heartbeats at the configured interval', async () => {
    const stream = await openStream('/v1/event/stream?topic=Node&index=999999999');
    for (let i = 0; i < 500 && stream.heartbeats < 3; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    stream.close();
    expect(stream.heartbeats).toBeGreaterThanOrEqual(3);
    expect(stream.batches).toEqual([]);
  });

  it('answers 400 for a bad index, before any byte of stream', async () => {
    const response = await fetch(new URL('/v1/event/stream?index=abc', base));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Invalid index');
  });
});
