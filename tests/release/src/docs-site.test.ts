// The reference site as a reader meets it: `typedoc` (what `pnpm run docs` runs after the build)
// builds it with validation warnings as errors, then a static server serves it to headless
// Chromium: the front page and an API page render (screenshots kept in tests/release/artifacts/),
// every guide renders, the search finds compileFilter, and no link inside the site is broken.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type HeadlessChromium } from './browser/chromium.ts';
import { run } from './run.ts';
import { checkLinks } from './site/links.ts';
import { serveDirectory, type StaticServer } from './site/serve.ts';
import { publishedPackages, repoRoot } from './workspace.ts';

const site = join(repoRoot, 'docs-site');
export const artifacts = join(repoRoot, 'tests/release/artifacts');
let chromium: HeadlessChromium;
let server: StaticServer;

beforeAll(async () => {
  // what `pnpm run docs` runs after the build
  await run(process.execPath, [join(repoRoot, 'scripts/openapi-docs.mjs')], {
    cwd: repoRoot,
    timeoutMs: 60_000,
  });
  await run(process.execPath, [join(repoRoot, 'node_modules/typedoc/bin/typedoc')], {
    cwd: repoRoot,
    timeoutMs: 240_000,
  });
  mkdirSync(artifacts, { recursive: true });
  server = await serveDirectory(site);
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await server?.close();
});

/** Opens a page of the site and fails on any script error it raises. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await chromium.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  // a missing file is reported with its address (a site without a favicon is fine)
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) {
      errors.push(`${response.status()} ${response.url()}`);
    }
  });
  const response = await page.goto(new URL(path, server.url).href, { waitUntil: 'load', timeout: 60_000 });
  expect(response?.status()).toBe(200);
  return { page, errors };
}

describe('the reference site', () => {
  it('documents every published package with exports, and each has its README as front page', () => {
    const documented = publishedPackages().filter((pkg) => pkg.manifest['exports'] !== undefined);
    const modules = readdirSync(join(site, 'modules'));
    for (const pkg of documented) {
      const file = `${pkg.name.replace(/^@/, '_').replace('/', '_')}.html`;
      expect(modules).toContain(file);
      const html = readFileSync(join(site, 'modules', file), 'utf8');
      const title =
        readFileSync(join(pkg.dir, 'README.md'), 'utf8').split('\n')[0]?.replace(/^#\s*/, '') ?? '';
      expect(html).toContain(title);
    }
  });

  it('opens on a front page written for users, with a first call and links to the guides', async () => {
    const { page, errors } = await open('index.html');
    try {
      await expect(page.title()).resolves.toMatch(/sked/);
      const text = await page.locator('.tsd-panel.tsd-typography').first().innerText();
      expect(text).toContain('A first call');
      expect(text).toContain('npm install @sked/scheduler-client');
      expect(text).not.toContain('Working on one package'); // not the contributors' README
      const guides = await page.locator('a[href^="documents/"]').count();
      expect(guides).toBeGreaterThanOrEqual(1);
      await page.screenshot({ path: join(artifacts, 'front-page.png'), fullPage: false });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('renders an API page with signature, parameters and example', async () => {
    const { page, errors } = await open('functions/_sked_filter.compileFilter.html');
    try {
      await expect(page.locator('h1').first().innerText()).resolves.toContain('compileFilter');
      const body = await page.locator('.col-content').innerText();
      expect(body).toMatch(/compileFilter\(\s*textOrAst/);
      expect(body).toContain('Parameters');
      expect(body).toContain('Example');
      await page.screenshot({ path: join(artifacts, 'api-compileFilter.png'), fullPage: false });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('includes the OpenAPI description: a page listing every operation, and the JSON itself', async () => {
    const pages = readdirSync(join(site, 'documents'));
    const page = pages.find((file) => /openapi/i.test(file));
    expect(page).toBeDefined();
    const html = readFileSync(join(site, 'documents', page ?? ''), 'utf8');
    for (const path of ['/v1/jobs', '/v1/auth/ldap/login/{username}', '/v1/peering/establish'])
      expect(html).toContain(path);
    const link = /href="([^"]*openapi[^"]*\.json)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    const response = await fetch(new URL(link ?? '', new URL(`documents/${page}`, server.url)));
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: object };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths).length).toBeGreaterThan(30);
  });

  it('renders every guide', async () => {
    const guides = readdirSync(join(site, 'documents'))
      .filter((file) => file.endsWith('.html'))
      .filter((file) => !/openapi/i.test(file));
    expect(guides.length).toBeGreaterThanOrEqual(1);
    for (const guide of guides) {
      const { page, errors } = await open(`documents/${guide}`);
      try {
        await expect(page.locator('h1').first().innerText()).resolves.toMatch(/Guide/);
        expect(await page.locator('pre code').count()).toBeGreaterThan(2);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it('finds compileFilter with the search box, and the result leads to its page', async () => {
    const { page, errors } = await open('index.html');
    try {
      await page.locator('#tsd-search-trigger').click();
      await page.locator('#tsd-search-input').fill('compileFilter');
      const first = page.locator('#tsd-search-results li a').first();
      await first.waitFor({ timeout: 30_000 });
      await expect(first.innerText()).resolves.toContain('compileFilter');
      await page.screenshot({ path: join(artifacts, 'search-compileFilter.png'), fullPage: false });
      await first.click();
      await page.waitForURL(/compileFilter\.html/, { timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('has no broken link, and every link leaving the site is https', () => {
    const report = checkLinks(site);
    expect(report.pages).toBeGreaterThan(50);
    expect(report.internalLinks).toBeGreaterThan(1000);
    expect(report.broken).toEqual([]);
    expect(report.external.filter((url) => !url.startsWith('https://'))).toEqual([]);
  });
});
