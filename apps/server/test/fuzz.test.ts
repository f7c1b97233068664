/**
 * The fuzzer, driven by the server's own `GET /v1/openapi.json`: every operation of the three
 * listeners, valid and malformed, on a server with ACLs off and one with ACLs on. `npm test` runs a
 * small budget (one case per operation and mutation); `pnpm --filter @sked/server fuzz` a longer
 * one (SKED_FUZZ_RUNS cases each, SKED_FUZZ_SEED to replay a run).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitrary, mutationsOf, type Role } from './fuzz/cases.js';
import { checkCase, describeCase, type Problem } from './fuzz/check.js';
import { knownOpen } from './fuzz/known-open.js';
import { readDescription, type Operation } from './fuzz/openapi.js';
import { sendRaw } from './fuzz/raw-http.js';
import { startTarget } from './fuzz/target.js';
import { websocketArbitrary } from './fuzz/websocket.js';

const runs = Number(process.env['SKED_FUZZ_RUNS'] ?? 1);
const seed = Number(process.env['SKED_FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
// --strict (the fuzz script) ignores KNOWN_OPEN: every defect fails the run.
const strict = process.env['SKED_FUZZ_STRICT'] === '1';

interface Tally {
  requests: number;
  valid: number;
  malformed: number;
  upgrades: number;
  byClass: Map<string, number>;
  problems: Problem[];
  known: Map<string, number>;
  /** Operations whose 2xx was checked against the description. */
  documented: Set<string>;
  /** Operations (not WebSockets, not streams) the run tried. */
  operations: Set<string>;
  /** Every problem by kind, known open or not. */
  kinds: Map<string, number>;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

async function fuzzTarget(acl: boolean, tally: Tally): Promise<void> {
  const target = await startTarget(acl);
  const served = await sendRaw(target.ports.scheduler, {
    method: 'GET',
    target: '/v1/openapi.json',
    headers: {},
  });
  expect(served.status).toBe(200);
  const description = readDescription(JSON.parse(served.body.toString('utf8')) as Record<string, unknown>);
  const values = await target.pools();
  const roles: Role[] = acl ? ['good', 'reader', 'none', 'bogus'] : ['good', 'good', 'good', 'none', 'bogus'];
  const pools = { values, peeringToken: target.peeringToken, roles };
  const record = async (fuzzCase: Parameters<typeof checkCase>[2]): Promise<void> => {
    const outcome = await checkCase(description, target, fuzzCase);
    tally.requests += 1;
    const { operation } = fuzzCase;
    if (!operation.websocket && !operation.stream)
      tally.operations.add(`${operation.method} ${operation.path}`);
    if (outcome.documented) tally.documented.add(`${operation.method} ${operation.path}`);
    if (fuzzCase.mutation === 'valid') tally.valid += 1;
    else if (fuzzCase.mutation === 'bad-upgrade') tally.upgrades += 1;
    else tally.malformed += 1;
    count(tally.byClass, outcome.status === undefined ? 'none' : `${String(outcome.status).charAt(0)}xx`);
    for (const problem of outcome.problems) {
      const known = strict ? undefined : knownOpen(problem);
      count(tally.kinds, problem.kind);
      if (known === undefined) tally.problems.push(problem);
      else count(tally.known, known.item);
    }
  };
  let offset = 0;
  // The small budget of `npm test` fuzzes the server with ACLs on through the operations that write
  // (the law it is there for: no 2xx write without the capability); the long run fuzzes them all.
  const inScope = (op: Operation): boolean => !op.websocket && (!acl || runs > 1 || op.method !== 'GET');
  for (const operation of description.operations.filter(inScope)) {
    for (const mutation of ['valid', ...mutationsOf(operation)] as const) {
      offset += 1;
      await fc.assert(
        fc.asyncProperty(caseArbitrary(description, operation, mutation, pools), async (fuzzCase) => {
          await record(fuzzCase);
        }),
        { numRuns: runs, seed: seed + offset, endOnFailure: true },
      );
    }
  }
  await fc.assert(
    fc.asyncProperty(
      websocketArbitrary(description.operations, values.get('alloc_id') ?? [], roles),
      async (fuzzCase) => {
        await record(fuzzCase);
      },
    ),
    { numRuns: runs * 20, seed, endOnFailure: true },
  );
}

const sumKnown = (tally: Tally): number => [...tally.known.values()].reduce((a, b) => a + b, 0);
const sumKinds = (kinds: Map<string, number>): number =>
  ['server-error', 'schema', 'state-change', 'acl-write'].reduce(
    (sum, kind) => sum + (kinds.get(kind) ?? 0),
    0,
  );

function summary(tally: Tally, acl: boolean): string {
  const classes = [...tally.byClass].map(([k, v]) => `${k}=${v}`).join(' ');
  const kinds = tally.kinds;
  const known = [...tally.known].map(([k, v]) => `${k}: ${v}`).join(', ');
  return (
    `fuzz (acl ${acl ? 'on' : 'off'}, seed ${seed}, ${runs} per case): ${tally.requests} requests ` +
    `(${tally.valid} valid, ${tally.malformed} malformed, ${tally.upgrades} upgrades) ${classes}; ` +
    `5xx=${kinds.get('server-error') ?? 0} schema=${kinds.get('schema') ?? 0} state-changes=${kinds.get('state-change') ?? 0} ` +
    `acl-writes=${kinds.get('acl-write') ?? 0} other=${tally.problems.length + sumKnown(tally) - sumKinds(kinds)} ` +
    `(new: ${tally.problems.length}; known open: ${known === '' ? 'none' : known}); ` +
    `documented 2xx checked for ${tally.documented.size} of ${tally.operations.size} operations`
  );
}

describe('fuzz from GET /v1/openapi.json', () => {
  it.each([false, true])(
    'acl %s: no 5xx, always a message, documented bodies, no change after a refusal',
    async (acl) => {
      const tally: Tally = {
        requests: 0,
        valid: 0,
        malformed: 0,
        upgrades: 0,
        byClass: new Map(),
        problems: [],
        known: new Map(),
        kinds: new Map(),
        documented: new Set(),
        operations: new Set(),
      };
      await fuzzTarget(acl, tally);
      process.stdout.write(`${summary(tally, acl)}\n`);
      if (process.env['SKED_FUZZ_VERBOSE'] === '1') {
        const never = [...tally.operations].filter((op) => !tally.documented.has(op));
        process.stdout.write(`fuzz: no 2xx checked for: ${never.join(', ')}\n`);
      }
      // Every operation is tried at least once, valid and malformed.
      expect(tally.valid).toBeGreaterThan(acl && runs <= 1 ? 30 : 60);
      expect(tally.malformed).toBeGreaterThan(tally.valid);
      expect(
        tally.problems.map(
          (problem) => `${problem.kind}: ${problem.detail} <- ${describeCase(problem.fuzzCase)}`,
        ),
      ).toEqual([]);
    },
    120_000 + runs * 30_000,
  );
});
