// @sked/filter and @sked/model in a browser: each bundled by esbuild for the browser platform (no
// Node built-in may be pulled in), its minified + gzipped size held to the budget its README
// states, and its behaviour checked inside headless Chromium (Debian's chromium).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleForBrowser, readBudget } from './browser/bundle.ts';
import { launchChromium, type HeadlessChromium } from './browser/chromium.ts';
import type { CheckResult } from './browser/harness.ts';
import { tarballFiles } from './tarball.ts';
import { repoRoot } from './workspace.ts';

const here = join(repoRoot, 'tests/release/src');
let chromium: HeadlessChromium;

beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** Runs a bundled check script in a blank page; returns its results and any page error. */
async function runInPage(
  script: string,
): Promise<{ results: CheckResult[]; errors: string[]; node: unknown }> {
  const page = await chromium.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.setContent('<!doctype html><html><head><title>checks</title></head><body></body></html>');
    await page.addScriptTag({ content: script });
    await page.waitForFunction(() => 'skedResults' in globalThis, undefined, { timeout: 60_000 });
    const results = (await page.evaluate(
      () => (globalThis as { skedResults?: unknown }).skedResults,
    )) as CheckResult[];
    // a browser has none of Node's globals: the bundle ran without them
    const node = await page.evaluate(() => [
      typeof (globalThis as { process?: unknown }).process,
      typeof (globalThis as { Buffer?: unknown }).Buffer,
    ]);
    return { results, errors, node };
  } finally {
    await page.close();
  }
}

describe.each([
  { name: '@sked/filter', dir: 'packages/filter', checks: 'filter.browser.ts', minChecks: 6 },
  { name: '@sked/model', dir: 'packages/model', checks: 'model.browser.ts', minChecks: 2 },
])('$name in the browser', ({ name, dir, checks, minChecks }) => {
  it('bundles for the browser platform with no Node built-in, within the size budget its README states', async () => {
    const bundle = await bundleForBrowser({ contents: `export * from '${name}';`, resolveDir: here });
    expect(bundle.nodeImports).toEqual([]);
    expect(bundle.inputs.some((input) => input.includes(`${dir}/dist/`))).toBe(true);
    const readme = readFileSync(join(repoRoot, dir, 'README.md'), 'utf8');
    const budget = readBudget(readme);
    const kB = Math.round(bundle.gzippedBytes / 100) / 10;
    console.log(
      `${name}: browser bundle ${bundle.minifiedBytes} B minified, ${bundle.gzippedBytes} B (${kB} kB) min+gzip; README budget ${budget?.budget} kB`,
    );
    if (budget === undefined) {
      throw new Error(
        `${dir}/README.md needs a line "Browser bundle ... **N kB** min+gzip ... budget **B kB**"`,
      );
    }
    expect(bundle.gzippedBytes).toBeLessThanOrEqual(budget.budget * 1000);
    // the stated figure stays near the truth (update the README when it moves by more than 25 %)
    expect(Math.abs(kB - budget.stated) / kB).toBeLessThan(0.25);
  });

  it('passes its checks inside headless Chromium', async () => {
    const script = await bundleForBrowser(
      { contents: `import './browser/${checks}';`, resolveDir: here },
      'iife',
    );
    expect(script.nodeImports).toEqual([]);
    const { results, errors, node } = await runInPage(script.code);
    expect(errors).toEqual([]);
    expect(node).toEqual(['undefined', 'undefined']);
    expect(results.length).toBeGreaterThanOrEqual(minChecks);
    expect(results.filter((result) => !result.ok)).toEqual([]);
  });
});

describe('the API clients in the browser', () => {
  it.each(['@sked/scheduler-client', '@sked/secrets-client', '@sked/mesh-client'])(
    '%s bundles for the browser platform with no Node built-in (its #platform import is the browser one)',
    async (name) => {
      const bundle = await bundleForBrowser({ contents: `export * from '${name}';`, resolveDir: here });
      expect(bundle.nodeImports).toEqual([]);
      expect(bundle.inputs.some((input) => input.includes('packages/http/dist/platform-browser.js'))).toBe(
        true,
      );
      expect(
        bundle.inputs.filter((input) => /undici|packages\/http\/dist\/platform\.js/.test(input)),
      ).toEqual([]);
    },
  );
});

describe('the web console in the @sked/server tarball', () => {
  const server = inject('packed').find((p) => p.name === '@sked/server');
  const read = (file: string): Buffer =>
    execFileSync('tar', ['-xzOf', server?.tarball ?? '', `package/${file}`], { maxBuffer: 64 * 1024 * 1024 });

  it('ships its page, icon, script and styles under ui/, loading nothing from elsewhere', () => {
    const files = tarballFiles(server?.tarball ?? '').filter((file) => file.startsWith('ui/'));
    expect(files).toEqual(expect.arrayContaining(['ui/index.html', 'ui/favicon.svg']));
    const page = read('ui/index.html').toString('utf8');
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(refs.length).toBe(3);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/ui\/(favicon\.svg|assets\/[\w-]+\.(js|css))$/);
      expect(files).toContain(ref.slice(1));
    }
  });

  it('keeps its script and styles (min+gzip -9) within the budget the console README states', () => {
    const files = tarballFiles(server?.tarball ?? '').filter((file) =>
      /^ui\/assets\/.*\.(js|css)$/.test(file),
    );
    const bytes = files.reduce((sum, file) => sum + gzipSync(read(file), { level: 9 }).byteLength, 0);
    const budget = readBudget(readFileSync(join(repoRoot, 'apps/console/README.md'), 'utf8'));
    const kB = Math.round(bytes / 100) / 10;
    console.log(
      `web console: ${files.join(', ')}: ${bytes} B (${kB} kB) min+gzip; README budget ${budget?.budget} kB`,
    );
    if (budget === undefined) {
      throw new Error(
        'apps/console/README.md needs a line "Browser bundle ... **N kB** min+gzip ... budget **B kB**"',
      );
    }
    expect(bytes).toBeLessThanOrEqual(budget.budget * 1000);
    expect(Math.abs(kB - budget.stated) / kB).toBeLessThan(0.25);
  });
});
