import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';

import { dataDirServers } from '../../test/data-dir.js';
import { jobInput } from '../../test/server.js';
import { startServer, type RunningServer } from '../wiring/server.js';
import { openDataDir } from './data-dir.js';

const { freshDir, start } = dataDirServers('sked-durable-', { schedulerPort: 0, nodes: 2 });

async function call(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; index: number; json: () => unknown; text: string }> {
  const res = await fetch(`${server.scheduler.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    index: Number(res.headers.get('x-svc-index')),
    json: () => JSON.parse(text),
    text,
  };
}

const job = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  Job: jobInput(id, extra),
});

async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('--data-dir', { timeout: 60_000 }, () => {
  it('restores every table and its index after a restart; tokens, blocking queries and writes go on', async () => {
    const dir = freshDir();
    const a = await start(dir);
    expect((await call(a, 'PUT', '/v1/jobs', job('web'))).status).toBe(200);
    expect((await call(a, 'PUT', '/v1/jobs', job('web', { Meta: { v: '2' } }))).status).toBe(200);
    expect((await call(a, 'PUT', '/v1/jobs', job('api'))).status).toBe(200);
    const vol = {
      Volumes: [
        {
          ID: 'v1',
          Name: 'v1',
          PluginID: 'p',
          AccessMode: 'single-node-writer',
          AttachmentMode: 'file-system',
        },
      ],
    };
    expect((await call(a, 'PUT', '/v1/volume/csi/v1', vol)).status).toBe(200);
    const running = await until(async () => {
      const allocs = (await call(a, 'GET', '/v1/allocations')).json() as {
        ID: string;
        ClientStatus: string;
      }[];
      return allocs.length === 2 && allocs.every((x) => x.ClientStatus === 'running') ? allocs : undefined;
    });
    const store = a.scheduler.cluster.store;
    const before = {
      jobs: [...store.jobs.items.values()],
      versions: [...store.jobVersions.items.values()],
      submissions: store.submissions.size,
      evals: [...store.evals.items.values()],
      volumes: [...store.volumes.items.values()],
      nodes: [...store.nodes.items.values()],
      index: store.index,
      volumesIndex: store.volumes.watch.current,
    };
    const page = await call(a, 'GET', '/v1/jobs?per_page=1');
    await a.close();

    const b = await start(dir);
    const s = b.scheduler.cluster.store;
    // Versions as stored (the status of the current one follows its allocations, lost below).
    const spec = (j: {
      ID: string;
      Version: number;
      JobModifyIndex: number;
      SubmitTime: number;
      TaskGroups: unknown;
      Meta: unknown;
    }) => [j.ID, j.Version, j.JobModifyIndex, j.SubmitTime, j.TaskGroups, j.Meta];
    expect([...s.jobVersions.items.values()].map(spec)).toEqual(before.versions.map(spec));
    expect(s.submissions.size).toBe(before.submissions);
    expect([...s.volumes.items.values()]).toEqual(before.volumes);
    expect([...s.nodes.items.values()]).toEqual(before.nodes);
    expect(before.evals.length).toBeGreaterThan(0);
    for (const e of before.evals) expect(s.evals.get(e.ID)).toBeDefined();
    expect(s.volumes.watch.current).toBe(before.volumesIndex);
    expect(s.index).toBeGreaterThan(before.index);
    for (const j of before.jobs) {
      expect(
        s.jobs.get(`${j.Namespace}\u0000${j.ID}`) ?? [...s.jobs.items.values()].find((x) => x.ID === j.ID),
      ).toMatchObject({
        JobModifyIndex: j.JobModifyIndex,
        Version: j.Version,
      });
    }
    // The tasks died with the previous process: their allocations are lost and replaced.
    expect(running.length).toBeGreaterThan(0);
    for (const x of running) expect(s.allocs.get(x.ID)?.ClientStatus).toBe('lost');
    await until(async () => {
      const allocs = (await call(b, 'GET', '/v1/allocations')).json() as { ClientStatus: string }[];
      return allocs.filter((x) => x.ClientStatus === 'running').length === 2 ? true : undefined;
    });
    // The pagination token of the first server reads the same next page.
    const token = page.text === '' ? '' : (page.json() as { ID: string }[])[0]?.ID;
    expect(token).toBe('api');
    const next = (await call(b, 'GET', '/v1/jobs?per_page=1&next_token=default.web')).json() as {
      ID: string;
    }[];
    expect(next.map((x) => x.ID)).toEqual(['web']);
    // A blocking query at the stored volumes index waits for the next volume write.
    const blocked = call(b, 'GET', `/v1/volumes?type=csi&index=${before.volumesIndex}&wait=20s`);
    const vol2 = {
      Volumes: [
        {
          ID: 'v2',
          Name: 'v2',
          PluginID: 'p',
          AccessMode: 'single-node-writer',
          AttachmentMode: 'file-system',
        },
      ],
    };
    const written = await call(b, 'PUT', '/v1/volume/csi/v2', vol2);
    const answer = await blocked;
    expect(answer.index).toBe(written.index);
    expect((answer.json() as { ID: string }[]).map((x) => x.ID)).toEqual(['v1', 'v2']);
  });

  it('refuses a second server on the same data dir, naming the holder', async () => {
    const dir = freshDir();
    await start(dir);
    await expect(startServer({ schedulerPort: 0, dataDir: dir })).rejects.toThrow(
      new RegExp(`^the data dir "${dir}" is in use by another sked-server \\(pid ${process.pid}\\)`),
    );
  });

  it('refuses a data dir of a newer storage format, and a file that is not a sked state', async () => {
    const newer = freshDir();
    openDataDir(newer).close();
    const db = new DatabaseSync(join(newer, 'state.db'));
    db.exec('PRAGMA user_version = 7');
    db.close();
    await expect(startServer({ schedulerPort: 0, dataDir: newer })).rejects.toThrow(
      /was written by a newer sked-server \(storage format 7; this one reads format 2\)/,
    );
    const garbage = freshDir();
    writeFileSync(
      join(garbage, 'state.db'),
      'not a database at all, but long enough to look like a header'.repeat(20),
    );
    await expect(startServer({ schedulerPort: 0, dataDir: garbage })).rejects.toThrow(/state\.db/);
    const other = freshDir();
    const db2 = new DatabaseSync(join(other, 'state.db'));
    db2.exec('CREATE TABLE t (a)');
    db2.close();
    await expect(startServer({ schedulerPort: 0, dataDir: other })).rejects.toThrow(
      /is not a sked-server state/,
    );
    const file = join(freshDir(), 'plain-file');
    writeFileSync(file, 'x');
    await expect(startServer({ schedulerPort: 0, dataDir: file })).rejects.toThrow(
      /not a directory|cannot create/,
    );
  });
});
