import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';

import { dataDirServers } from '../../test/data-dir.js';
import { eventually, jobInput } from '../../test/server.js';
import { startServer, type RunningServer } from '../wiring/server.js';

const { freshDir, start } = dataDirServers('sked-unreadable-', { schedulerPort: 0, nodes: 2 });

/** Names that are Object.prototype members (issue 29), and a plain control. */
const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'plain'];

async function call(server: RunningServer, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.scheduler.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

interface AllocStub {
  ID: string;
  JobID: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string }> | null;
}

async function running(server: RunningServer, count: number): Promise<AllocStub[]> {
  return eventually(async () => {
    const allocs = (await (await call(server, 'GET', '/v1/allocations')).json()) as AllocStub[];
    const live = allocs.filter((a) => a.ClientStatus === 'running');
    return live.length === count ? live : undefined;
  }, 15_000);
}

describe('--data-dir restart', { timeout: 60_000 }, () => {
  it('restores jobs whose ID, group and task are Object.prototype names, and runs them again', async () => {
    // Arrange: one job per name, its group and task named the same
    const dir = freshDir();
    const a = await start(dir);
    for (const name of NAMES) {
      const job = jobInput(name, { group: { Name: name, Count: 1 }, task: { Name: name } });
      expect((await call(a, 'PUT', '/v1/jobs', { Job: job })).status).toBe(200);
    }
    await running(a, NAMES.length);
    await a.close();
    // Act: the restart replays every job
    const b = await start(dir);
    // Assert: the old allocations are lost, new ones run with the task state under its own name
    const live = await running(b, NAMES.length);
    expect(live.map((x) => x.JobID).sort()).toEqual([...NAMES].sort());
    for (const x of live) {
      const alloc = (await (await call(b, 'GET', `/v1/allocation/${x.ID}`)).json()) as AllocStub;
      expect(Object.keys(alloc.TaskStates ?? {})).toEqual([x.JobID]);
    }
    const summary = (await (await call(b, 'GET', '/v1/job/constructor/summary')).json()) as {
      Summary: Record<string, { Running: number }>;
    };
    expect(Object.keys(summary.Summary)).toEqual(['constructor']);
  });
});

describe('--data-dir holding a record that cannot be read', { timeout: 60_000 }, () => {
  it('refuses to start naming the record and the way out; with the flag starts without it', async () => {
    // Arrange: a stored job whose row is no longer JSON
    const dir = freshDir();
    const a = await start(dir);
    expect((await call(a, 'PUT', '/v1/jobs', { Job: jobInput('web') })).status).toBe(200);
    expect((await call(a, 'PUT', '/v1/jobs', { Job: jobInput('api') })).status).toBe(200);
    await a.close();
    const db = new DatabaseSync(join(dir, 'state.db'));
    const key = (
      db.prepare('SELECT id FROM items WHERE tbl = \'jobs\' AND body LIKE \'%"ID":"web"%\'').get() as {
        id: string;
      }
    ).id;
    db.prepare('UPDATE items SET body = \'{"ID":"web",\' WHERE tbl = \'jobs\' AND id = ?').run(key);
    db.close();
    // Act / Assert: refused, naming the record and the flag
    await expect(startServer({ schedulerPort: 0, nodes: 2, dataDir: dir })).rejects.toThrow(
      `1 stored record cannot be read (not a JSON object): jobs ${JSON.stringify(key)}. Start once with --set-aside-unreadable`,
    );
    // With the flag: starts, without that record, the other job still there; the text is kept
    const warnings: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (
      warnings.push(String(chunk)),
      true
    )) as typeof process.stderr.write;
    let b: RunningServer;
    try {
      b = await startServer({ schedulerPort: 0, nodes: 2, dataDir: dir, setAsideUnreadable: true });
    } finally {
      process.stderr.write = write;
    }
    try {
      expect(warnings.join('')).toContain(`set aside the stored record jobs ${JSON.stringify(key)}`);
      expect((await call(b, 'GET', '/v1/job/web')).status).toBe(404);
      expect((await call(b, 'GET', '/v1/job/api')).status).toBe(200);
    } finally {
      await b.close();
    }
    const check = new DatabaseSync(join(dir, 'state.db'));
    const kept = check.prepare("SELECT body FROM records WHERE space = 'unreadable'").all() as {
      body: string;
    }[];
    check.close();
    expect(kept.map((r) => (JSON.parse(r.body) as { body: string }).body)).toEqual(['{"ID":"web",']);
    // And the next start needs no flag.
    const c = await start(dir);
    expect((await call(c, 'GET', '/v1/job/api')).status).toBe(200);
  });
});
