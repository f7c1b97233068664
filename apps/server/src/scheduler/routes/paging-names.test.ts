import { fc } from '@fast-check/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobInput, startTestServer, type TestServer } from '../../../test/server.js';

/**
 * Issue 30 item 3: paging `namespace=*` job lists and volume lists through any set of (namespace,
 * ID) pairs at every `per_page` sees each item exactly once, then the end (IDs may hold dots;
 * namespace names are letters, digits and `-`, so `a.b` is refused rather than looping).
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ nodes: 1 });
});

const namespaceArb = fc.constantFrom('a', 'a-b', 'b', 'default', 'A');
const idArb = fc.stringMatching(/^[a-z0-9.-]{1,6}$/);
const pairs = fc.uniqueArray(fc.record({ ns: namespaceArb, id: idArb }), {
  minLength: 1,
  maxLength: 6,
  selector: (p) => `${p.ns}/${p.id}`,
});

async function pageAll(path: string, perPage: number): Promise<string[]> {
  const seen: string[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 2000; pages += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const url = `${path}${sep}per_page=${perPage}${token === undefined ? '' : `&next_token=${encodeURIComponent(token)}`}`;
    const res = await t.request('GET', url);
    expect(res.statusCode).toBe(200);
    for (const item of res.json() as { ID: string; Namespace: string }[])
      seen.push(`${item.Namespace}/${item.ID}`);
    const next = res.headers['x-svc-nexttoken'];
    if (next === undefined || next === '') return seen;
    token = String(next);
  }
  throw new Error(`paging ${path} did not end`);
}

describe('paging by namespace and ID through the API', () => {
  it('namespace=* job and volume lists: each item once, then the end, at every per_page', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(pairs, async (items) => {
        run += 1;
        // `x` ends the run number, so no run's tag is a prefix of another's item (`r2` + `93.5` was
        // taken for run 29's: seed -229024889)
        const tag = `r${run}x`;
        const expected = items.map((p) => `${p.ns}/${tag}${p.id}`).sort();
        for (const p of items) {
          const job = await t.request('POST', `/v1/jobs?namespace=${p.ns}`, {
            body: { Job: jobInput(`${tag}${p.id}`, { Namespace: p.ns }) },
          });
          expect(job.statusCode).toBe(200);
          const volume = await t.request('PUT', `/v1/volume/csi/${tag}${p.id}?namespace=${p.ns}`, {
            body: { Volumes: [{ ID: `${tag}${p.id}`, PluginID: 'plugin' }] },
          });
          expect(volume.statusCode).toBe(200);
        }
        const mine = (all: string[]): string[] => all.filter((key) => key.split('/')[1]?.startsWith(tag));
        // this run's items at every per_page; the whole list (every earlier run's items too, so it
        // grows with the runs) at 1 and 2, which cross every page boundary
        for (let perPage = 1; perPage <= items.length + 1; perPage += 1) {
          for (const list of ['/v1/jobs?namespace=*', '/v1/volumes?type=csi&namespace=*']) {
            const paths = perPage <= 2 ? [list, `${list}&prefix=${tag}`] : [`${list}&prefix=${tag}`];
            for (const path of paths) {
              const all = await pageAll(path, perPage);
              expect(new Set(all).size).toBe(all.length);
              expect(mine(all).sort()).toEqual(expected);
            }
          }
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('refuses a dotted namespace instead of looping over its jobs', async () => {
    const res = await t.request('POST', '/v1/jobs?namespace=a.b', { body: { Job: jobInput('a') } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Invalid namespace name "a.b": must match regex ^[a-zA-Z0-9-]{1,128}$');
  });
});
