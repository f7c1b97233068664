import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, startTestServer, type TestServer } from './support.js';

/**
 * Every filter a README of the repository sends to the scheduling service runs against the
 * `--demo` data without error. The READMEs are found by walking the repository (so a new README
 * is covered without touching this test), and a filter is any of:
 *
 * - a `filter=` query parameter of a URL (`/v1/jobs?filter=...`, URL-encoded or not) or of
 *   `curl --data-urlencode 'filter=...'`;
 * - a `filter: '...'` option (client code), with a string literal;
 * - a `--filter '...'` flag of a `sked` command (not `pnpm`/`turbo --filter`, which select packages).
 *
 * The list it runs on is the last one named before it in its code block or line (`/v1/jobs`,
 * `.jobs.`, `sked job`; allocations; volumes); when none is named it must work on one of the three.
 * The filter package's own `compileFilter(...)` examples run on their own data in that package's
 * tests, and are not requests to a server.
 */

type Target = 'jobs' | 'allocations' | 'volumes';

interface ReadmeFilter {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly target: Target | undefined;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.tools', '.turbo', 'docs-site', 'coverage']);

function readmes(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...readmes(join(dir, entry.name)));
    } else if (/^readme\.md$/i.test(entry.name)) {
      found.push(join(dir, entry.name));
    }
  }
  return found.sort();
}

const TARGETS: readonly [RegExp, Target][] = [
  [/\/v1\/jobs\b|\.jobs\.|\bsked job\b/g, 'jobs'],
  [/\/v1\/allocations\b|\.allocations\.|\bsked alloc\b/g, 'allocations'],
  [/\/v1\/volumes\b|\.volumes\.|\bsked volume\b/g, 'volumes'],
];

/** The list named last in `before` (the code block or line up to the filter). */
function targetOf(before: string): Target | undefined {
  let best: { at: number; target: Target } | undefined;
  for (const [pattern, target] of TARGETS) {
    for (const match of before.matchAll(pattern)) {
      if (best === undefined || match.index > best.at) best = { at: match.index, target };
    }
  }
  return best?.target;
}

/** The text a filter is read in: its fenced code block, or its line outside code blocks. */
function contextStart(text: string, at: number): number {
  const fences = [...text.slice(0, at).matchAll(/^\s*```/gm)];
  if (fences.length % 2 === 1) return fences.at(-1)?.index ?? 0;
  return text.lastIndexOf('\n', at) + 1;
}

const PATTERNS: readonly { pattern: RegExp; decode: boolean }[] = [
  // URL query parameter, until the end of the URL
  { pattern: /[?&]filter=([^&\s'"`)]+)/g, decode: true },
  // curl --data-urlencode 'filter=...'
  { pattern: /--data-urlencode\s+(['"])filter=(.*?)\1/g, decode: false },
  // client option filter: '...'
  { pattern: /\bfilter:\s*(['"`])((?:\\.|(?!\1).)*)\1/g, decode: false },
  // sked CLI flag
  { pattern: /\bsked\b[^\n]*?--filter[= ](['"])(.*?)\1/g, decode: false },
];

/** The filters a README's text sends to the service (see the header of this file). */
function filtersIn(text: string, file: string): ReadmeFilter[] {
  const out: ReadmeFilter[] = [];
  for (const { pattern, decode } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const raw = (match.length > 2 ? match[2] : match[1]) as string;
      if (/^[….]+$/.test(raw) || raw.includes('${')) continue; // a placeholder, or a template
      const value = decode ? decodeURIComponent(raw.replace(/\+/g, ' ')) : raw.replace(/\\(['"`\\])/g, '$1');
      // the context runs up to the filter itself, so `sked alloc status --filter` names its own list
      const at = match.index + match[0].lastIndexOf(raw);
      out.push({
        file,
        line: text.slice(0, match.index).split('\n').length,
        text: value,
        target: targetOf(text.slice(contextStart(text, at), at)),
      });
    }
  }
  return out;
}

let server: TestServer;

async function run(target: Target, filter: string): Promise<{ status: number; body: string }> {
  const query = new URLSearchParams({ filter, ...(target === 'volumes' ? { type: 'csi' } : {}) });
  const res = await fetch(`${server.url}/v1/${target}?${query.toString()}`);
  return { status: res.status, body: await res.text() };
}

const found = readmes(root).flatMap((file) => filtersIn(readFileSync(file, 'utf8'), relative(root, file)));

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  // the demo's allocations exist (the scheduler places them a few milliseconds after start)
  await eventually(async () => {
    const allocs = (await (await fetch(`${server.url}/v1/allocations`)).json()) as unknown[];
    return allocs.length > 0 ? allocs : undefined;
  }, 'the demo allocations');
});
afterAll(async () => {
  await server.close();
});

describe('filters in the READMEs', () => {
  it('are found in every README that sends one, including the client and server READMEs', () => {
    const texts = found.map((filter) => `${filter.file}: ${filter.text}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        'packages/scheduler-client/README.md: Type == "batch" and Meta.team == "data"',
        'packages/scheduler-client/README.md: Meta.team == "frontend"',
        'packages/scheduler-client/README.md: ClientStatus == "failed"',
        'apps/server/README.md: Meta.team == "frontend"',
        'apps/server/README.md: Meta is empty',
      ]),
    );
    // package selection flags and placeholders are not filters
    expect(texts.filter((text) => /@sked\/|…/.test(text))).toEqual([]);
  });

  it('are read with the list each names, from every form', () => {
    const readme = [
      'Prose: `curl localhost:4646/v1/volumes?type=csi&filter=PluginID%20%3D%3D%20%22p%22`.',
      '```sh',
      'sked job status',
      'sked alloc status --filter \'JobID == "hello"\'',
      'pnpm --filter @sked/cli test',
      "curl -G http://127.0.0.1:4646/v1/jobs --data-urlencode 'filter=Meta is empty'",
      'GET /v1/jobs?per_page=100&filter=… (a placeholder)',
      '```',
      '```ts',
      'await client.allocations.list({ filter: \'ClientStatus == "failed"\' });',
      'await client.jobs.list({ filter: `Name == "a"` });',
      '```',
      '```ts',
      "filterItems('Not sent == 1', items);",
      "x({ filter: 'Untargeted == 1' });",
      '```',
    ].join('\n');
    expect(filtersIn(readme, 'README.md').map(({ text, target }) => [text, target ?? 'any'])).toEqual([
      ['PluginID == "p"', 'volumes'],
      ['Meta is empty', 'jobs'],
      ['ClientStatus == "failed"', 'allocations'],
      ['Name == "a"', 'jobs'],
      ['Untargeted == 1', 'any'],
      ['JobID == "hello"', 'allocations'],
    ]);
  });

  it.each(found.map((filter) => [`${filter.file}:${filter.line} ${filter.text}`, filter] as const))(
    '%s runs against the demo data without error',
    async (_name, filter) => {
      const targets: Target[] =
        filter.target === undefined ? ['jobs', 'allocations', 'volumes'] : [filter.target];
      const answers = await Promise.all(
        targets.map(async (target) => ({ target, ...(await run(target, filter.text)) })),
      );
      const ok = answers.filter((answer) => answer.status === 200);
      expect({ filter: filter.text, ok: ok.length > 0, answers }).toMatchObject({
        filter: filter.text,
        ok: true,
      });
    },
  );

  it("give the results the server README states on the demo's Meta", async () => {
    const ids = async (filter: string): Promise<string[]> => {
      const res = await run('jobs', filter);
      return (JSON.parse(res.body) as { ID: string }[]).map((job) => job.ID).sort();
    };
    const withoutMeta = ['flaky-import', 'nightly-backup', 'node-cleanup', 'report', 'transcode'];
    expect(await ids('Meta.team == "frontend"')).toEqual(['web']);
    expect(await ids('Meta is empty')).toEqual(withoutMeta);
    expect(await ids('Meta.team != "frontend"')).toEqual(['cache', ...withoutMeta]);
    expect(await run('jobs', 'Meta.team == "x" or Prioirty == 1')).toEqual({
      status: 400,
      body: 'failed to read filter expression: 1:21: An item has no field "Prioirty"; did you mean "Priority"?',
    });
  });
});
