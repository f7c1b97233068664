import { fc, test } from '@fast-check/vitest';
import { PROTOTYPE_NAMES } from '@sked/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';

import { createCluster, DELETED, type Job } from '../scheduler/core/index.js';
import { openDurable } from './index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sked-lazy-'));
  dirs.push(dir);
  return dir;
}

const key = (ns: string, id: string): string => `${ns}\u0000${id}`;

/** Writes jobs straight through the backend (one commit), as the store hands them over. */
function store(dir: string, jobs: Record<string, unknown>[]): void {
  const durable = openDurable(dir);
  const writes = new Map([
    ['jobs' as const, new Map(jobs.map((j) => [key(String(j.Namespace), String(j.ID)), j]))],
  ]);
  durable.scheduler.record({ index: 5, writes, events: [] });
  durable.close();
}

/** Short strings, with the Object.prototype names mixed in (issue 29). */
const name = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength }), fc.constantFrom(...PROTOTYPE_NAMES));
const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null));
const jobArb = fc
  .record({
    ID: name(8).filter((id) => id !== ''),
    Namespace: fc.constantFrom('default', 'team-a'),
    Version: fc.nat(9),
    Status: fc.constantFrom('pending', 'running', 'dead'),
    Periodic: fc.option(fc.record({ Spec: fc.string({ maxLength: 5 }), Enabled: fc.boolean() }), {
      nil: null,
    }),
    Meta: fc.option(fc.dictionary(name(4), fc.string({ maxLength: 4 }), { maxKeys: 3 }), {
      nil: null,
    }),
    TaskGroups: fc.array(fc.record({ Name: name(4), Count: fc.nat(3) }), {
      maxLength: 2,
    }),
  })
  .chain((base) =>
    fc
      .dictionary(
        fc.constantFrom('Extra', 'Stop', 'Priority', 'Type', 'ParentID', ...PROTOTYPE_NAMES),
        scalar,
      )
      .map((extra) => ({
        ...extra,
        ...base,
      })),
  );

describe('lazily restored items', () => {
  test.prop(
    [fc.uniqueArray(jobArb, { selector: (j) => key(j.Namespace, j.ID), minLength: 1, maxLength: 8 })],
    {
      numRuns: 25,
    },
  )(
    'read as the plain items they were: same JSON, keys, spreads; the head without reading the row',
    (jobs) => {
      const dir = freshDir();
      store(dir, jobs);
      const durable = openDurable(dir);
      try {
        const restored = [...(durable.scheduler.restored?.items.jobs ?? [])] as unknown as Record<
          string,
          unknown
        >[];
        expect(restored).toHaveLength(jobs.length);
        expect(durable.scheduler.unread).toBe(jobs.length);
        const byKey = new Map(jobs.map((j) => [key(j.Namespace, j.ID), j]));
        for (const item of restored) {
          // Head fields answer without the row.
          const original = byKey.get(key(String(item.Namespace), String(item.ID)));
          expect(original).toBeDefined();
          expect([item.Version, item.Status]).toEqual([original?.Version, original?.Status]);
          if (original?.Periodic === null) expect(item.Periodic).toBeNull();
        }
        expect(durable.scheduler.unread).toBe(jobs.length);
        for (const item of restored) {
          const original = byKey.get(key(String(item.Namespace), String(item.ID)));
          expect(JSON.stringify(item)).toBe(JSON.stringify(original));
          expect(Object.keys(item)).toEqual(Object.keys(original ?? {}));
          expect({ ...item }).toEqual(original);
          expect('TaskGroups' in item).toBe(true);
          expect('Nope' in item).toBe(false);
        }
        expect(durable.scheduler.unread).toBe(0);
      } finally {
        durable.close();
      }
    },
  );

  it('keep what they were when their row is rewritten or deleted before they were read', () => {
    const dir = freshDir();
    const jobs = ['a', 'b'].map((id) => ({ ID: id, Namespace: 'default', Version: 0, Meta: { v: '1' } }));
    store(dir, jobs);
    const durable = openDurable(dir);
    const [a, b] = [...(durable.scheduler.restored?.items.jobs ?? [])] as Job[];
    // A write replaces a and deletes b; whoever still holds them reads them as they were.
    const writes = new Map([
      [
        'jobs' as const,
        new Map<string, unknown>([
          [key('default', 'a'), { ...jobs[0], Meta: { v: '2' } }],
          [key('default', 'b'), DELETED],
        ]),
      ],
    ]);
    durable.scheduler.record({ index: 6, writes, events: [] });
    durable.scheduler.flush();
    expect(durable.scheduler.unread).toBe(0);
    durable.close();
    expect(a?.Meta).toEqual({ v: '1' });
    expect(JSON.stringify(b)).toBe(JSON.stringify(jobs[1]));
    // And the data dir holds the new state.
    const again = openDurable(dir);
    const now = [...(again.scheduler.restored?.items.jobs ?? [])] as Job[];
    expect(now.map((j) => [j.ID, j.Meta])).toEqual([['a', { v: '2' }]]);
    again.close();
  });

  it('an item not read before its data dir closed says so when asked for more than its head', () => {
    const dir = freshDir();
    store(dir, [{ ID: 'a', Namespace: 'default', Version: 0, Meta: { v: '1' } }]);
    const durable = openDurable(dir);
    const [a] = [...(durable.scheduler.restored?.items.jobs ?? [])] as Job[];
    durable.close();
    expect(a?.ID).toBe('a');
    expect(() => a?.Meta).toThrow(/is closed: jobs default.a was not read/);
  });

  it('a cluster restored from a data dir indexes its tables, the ones nothing read included', async () => {
    const dir = freshDir();
    const first = openDurable(dir);
    const a = createCluster({
      nodes: 1,
      dataRoot: first.taskRoot,
      persistence: { backend: first.scheduler },
    });
    for (let i = 0; i < 20; i++) {
      a.registerJob({
        job: {
          ID: `j${String(i).padStart(2, '0')}`,
          Type: 'batch',
          TaskGroups: [{ Name: 'g', Count: 0, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }],
        } as never,
      });
    }
    const sizes = (c: typeof a): number[] =>
      [c.store.jobs, c.store.jobVersions, c.store.summaries, c.store.evals].map((t) => t.size);
    const before = sizes(a);
    const versions = JSON.stringify([...a.store.jobVersions.items.values()]);
    await a.close();
    first.close();
    const second = openDurable(dir);
    const b = createCluster({
      nodes: 1,
      dataRoot: second.taskRoot,
      persistence: {
        backend: second.scheduler,
        ...(second.scheduler.restored && { restored: second.scheduler.restored }),
      },
    });
    // Let the tables be indexed after start, then compare.
    await new Promise((r) => setTimeout(r, 50));
    expect(sizes(b)).toEqual(before);
    expect(JSON.stringify([...b.store.jobVersions.items.values()])).toBe(versions);
    expect(b.store.ofJob('jobVersions', 'default', 'j07').map((v) => v.ID)).toEqual(['j07']);
    await b.close();
    second.close();
  });
});

describe('a data dir of storage format 1', () => {
  it('is upgraded at open: auto_vacuum on, heads written, every item restored', () => {
    const dir = freshDir();
    const db = new DatabaseSync(join(dir, 'state.db'));
    db.exec(`PRAGMA journal_mode = WAL;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE items (tbl TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (tbl, id)) WITHOUT ROWID;
      CREATE TABLE records (space TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (space, key)) WITHOUT ROWID;
      PRAGMA user_version = 1;`);
    const job = { ID: 'old', Namespace: 'default', Version: 0, Status: 'dead', Meta: { k: 'v' } };
    db.prepare('INSERT INTO items VALUES (?, ?, ?)').run('jobs', key('default', 'old'), JSON.stringify(job));
    db.prepare('INSERT INTO meta VALUES (?, ?)').run('index', '9');
    db.close();
    const durable = openDurable(dir);
    const [restored] = [...(durable.scheduler.restored?.items.jobs ?? [])];
    expect(JSON.stringify(restored)).toBe(JSON.stringify(job));
    expect(durable.scheduler.restored?.index).toBe(9);
    durable.close();
    const check = new DatabaseSync(join(dir, 'state.db'));
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
    expect(check.prepare('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 });
    expect((check.prepare('SELECT count(*) AS n FROM heads').get() as { n: number }).n).toBe(1);
    check.close();
  });

  it('a new data dir gives freed pages back (auto_vacuum incremental)', () => {
    const dir = freshDir();
    openDurable(dir).close();
    const check = new DatabaseSync(join(dir, 'state.db'));
    expect(check.prepare('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 });
    check.close();
  });
});
