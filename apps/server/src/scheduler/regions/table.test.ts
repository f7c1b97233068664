import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseMemberAddress, regionNameProblem } from './names.js';
import { readSyncMessage } from './sync.js';
import { createMemberTable, readMemberRecord, type MemberRecord, type MemberStore } from './table.js';

const self: MemberRecord = {
  Region: 'west',
  Address: 'http://127.0.0.1:4646',
  Datacenter: 'dc1',
  Name: 'h.west',
  Epoch: 100,
};
const quiet = { warn: () => undefined };
const record = (Region: string, port: number, Epoch: number): MemberRecord => ({
  Region,
  Address: `http://127.0.0.1:${port}`,
  Datacenter: 'dc1',
  Name: `h.${Region}`,
  Epoch,
});

describe('regionNameProblem', () => {
  it.each(['global', 'eu-west_1', 'a.b', '__proto__', 'constructor', 'x'.repeat(128)])(
    'accepts %j',
    (name) => {
      expect(regionNameProblem(name)).toBeUndefined();
    },
  );
  it.each(['', '.', '..', '../x', 'a/b', 'a b', 'é', 'x'.repeat(129), 'a\u0000b'])('refuses %j', (name) => {
    expect(regionNameProblem(name)).toMatch(/^a region name is 1-128 letters/);
  });
  it('refuses what is not a string', () => {
    expect(regionNameProblem(7)).toBe('a region name must be a string');
  });
});

describe('parseMemberAddress', () => {
  it.each([
    ['http://127.0.0.1:4646', 'http://127.0.0.1:4646'],
    ['http://127.0.0.1:4646/', 'http://127.0.0.1:4646'],
    ['http://[::1]:9', 'http://[::1]:9'],
    ['https://sked.example', 'https://sked.example'],
  ])('reads %j as %j', (text, address) => {
    expect(parseMemberAddress(text)).toEqual({ address });
  });
  it.each([
    '',
    'localhost:4646',
    'ftp://x:1',
    'http://u:p@x:1',
    'http://x:1/v1',
    'http://x:1?a=1',
    'http://x:1#f',
    'x'.repeat(3000),
  ])('refuses %j', (text) => {
    expect(parseMemberAddress(text)).toEqual({
      error: expect.stringMatching(/^a member address is the scheduling address/),
    });
  });
});

describe('readMemberRecord and readSyncMessage', () => {
  it('names the field that is wrong', () => {
    expect(readMemberRecord({ ...record('east', 1, 1), Region: '../x' })).toEqual({
      error: expect.stringMatching(/^Region: /),
    });
    expect(readMemberRecord({ ...record('east', 1, 1), Epoch: -1 })).toEqual({
      error: 'Epoch: expected a non-negative integer',
    });
    expect(readMemberRecord(null)).toEqual({ error: expect.stringMatching(/^a member is an object/) });
    expect(
      readSyncMessage({ Self: record('east', 1, 1), Members: [record('a', 2, 1), { Region: 1 }] }),
    ).toEqual({
      error: expect.stringMatching(/^Members\[1\]\.Region: /),
    });
    expect(
      readSyncMessage({ Self: record('east', 1, 1), Members: Array.from({ length: 1001 }, () => 0) }),
    ).toEqual({
      error: 'Members: more than 1000 members',
    });
  });

  it('reads only own fields (an inherited Region is no Region)', () => {
    const inherited = Object.create({ Region: 'east' }) as object;
    expect(
      readMemberRecord(
        Object.assign(inherited, { Address: 'http://x:1', Datacenter: '', Name: '', Epoch: 1 }),
      ),
    ).toEqual({
      error: expect.stringMatching(/^Region: /),
    });
  });
});

describe('createMemberTable', () => {
  it('keeps hostile names as names: __proto__ and constructor are regions like any other', () => {
    const table = createMemberTable(self, quiet);
    expect(table.merge([record('__proto__', 1, 1), record('constructor', 2, 1)])).toBe(true);
    expect(table.get('__proto__')?.Address).toBe('http://127.0.0.1:1');
    expect(table.get('toString')).toBeUndefined();
    expect(table.regions()).toEqual(['__proto__', 'constructor', 'west']);
  });

  it('never replaces its own record, and says so once when another member claims its region', () => {
    const warnings: string[] = [];
    const table = createMemberTable(self, { warn: (m) => warnings.push(m) });
    expect(table.merge([record('west', 9, 999), record('west', 9, 1000)])).toBe(false);
    expect(table.records()[0]).toEqual(self);
    expect(warnings).toEqual(['the member at http://127.0.0.1:9 also claims region "west"']);
  });

  it('takes the newer epoch of a region (a member restarted elsewhere) and keeps a failed member', () => {
    const table = createMemberTable(self, quiet);
    table.merge([record('east', 1, 10)], 'east');
    expect(table.get('east')?.status).toBe('alive');
    table.failed('east');
    table.failed('east');
    expect(table.get('east')).toMatchObject({ status: 'failed', failures: 2 });
    expect(table.merge([record('east', 1, 9)])).toBe(false);
    expect(table.merge([record('east', 2, 11)])).toBe(true);
    expect(table.get('east')).toMatchObject({
      Address: 'http://127.0.0.1:2',
      status: 'unknown',
      failures: 0,
    });
  });

  it('saves to its store on a change and loads what it kept, skipping records that no longer read', () => {
    const saved: MemberRecord[][] = [];
    const store: MemberStore = {
      load: () => [record('east', 1, 1), { Region: '../x' }],
      save: (records) => void saved.push([...records]),
    };
    const warnings: string[] = [];
    const table = createMemberTable(self, { store, warn: (m) => warnings.push(m) });
    expect(table.regions()).toEqual(['east', 'west']);
    expect(warnings).toEqual([expect.stringMatching(/^a stored region member is skipped: Region: /)]);
    table.merge([record('north', 3, 1)]);
    expect(saved.at(-1)?.map((r) => r.Region)).toEqual(['east', 'north']);
  });

  describe('properties', () => {
    const records = fc.array(
      fc.record({
        Region: fc.constantFrom('east', 'north', 'south', '__proto__', 'west'),
        Address: fc.integer({ min: 1, max: 65535 }).map((port) => `http://127.0.0.1:${port}`),
        Datacenter: fc.constant('dc1'),
        Name: fc.constant('n'),
        Epoch: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 30 },
    );
    const view = (table: ReturnType<typeof createMemberTable>) =>
      table.others().map((m) => [m.Region, m.Epoch, m.Address]);

    test.prop([records, fc.integer({ min: 0, max: 30 }), fc.infiniteStream(fc.double())])(
      'the table is the same whatever the order and grouping of what it hears (the highest epoch of each region, ties by address)',
      (heard, cut, noise) => {
        const a = createMemberTable(self, quiet);
        a.merge(heard);
        const shuffled = [...heard].sort(() => (noise.next().value < 0.5 ? -1 : 1));
        const b = createMemberTable(self, quiet);
        b.merge(shuffled.slice(0, cut));
        b.merge(shuffled.slice(cut));
        b.merge(shuffled); // idempotent
        expect(view(b)).toEqual(view(a));
        for (const [region, epoch] of view(a).map(([r, e]) => [r, e] as const)) {
          const highest = Math.max(...heard.filter((r) => r.Region === region).map((r) => r.Epoch));
          expect(epoch).toBe(highest);
        }
        expect(a.records()[0]).toEqual(self);
        expect(a.regions()).toEqual([...new Set(['west', ...heard.map((r) => r.Region)])].sort());
      },
    );
  });
});
