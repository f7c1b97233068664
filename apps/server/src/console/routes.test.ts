import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../test/raw-http.js';
import { createHttpApp } from '../http/app.js';
import { guardLocalOnly } from '../http/local-only.js';
import { loadConsoleAssets } from './assets.js';
import { CONSOLE_CSP, registerConsole, settlePage } from './index.js';

/**
 * The console's files and page on a listener, from a folder built here: content types, caching,
 * redirects, and paths that try to leave the folder (`..`, `%2e%2e`, encoded slashes, a symbolic
 * link to a file outside), which never reach the file system (the files are a map read at start).
 */

const PAGE = '<!doctype html><html lang="en"><head><title>sked</title></head><body>page</body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
let root: string;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sked-console-'));
  const ui = join(root, 'ui');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), PAGE);
  writeFileSync(join(ui, 'assets', 'app-ABC123.js'), SCRIPT);
  writeFileSync(join(ui, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(ui, 'notes.md'), 'not a served type');
  writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
  writeFileSync(join(root, 'package.json'), '{"name":"TOP SECRET"}');
  symlinkSync(join(root, 'secret.txt'), join(ui, 'linked.txt'));
  app = createHttpApp();
  guardLocalOnly(app);
  registerConsole(app, { dir: ui, upstreams: { secrets: () => undefined, mesh: () => undefined } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the console on a listener', () => {
  it('redirects / and /ui to /ui/', async () => {
    for (const path of ['/', '/ui']) {
      const answer = await rawRequest(base, 'GET', path);
      expect(answer.status).toBe(307);
      expect(answer.headers['location']).toBe('/ui/');
    }
  });

  it('serves the page at /ui/ and at every view, revalidated, under a same-origin policy', async () => {
    for (const path of [
      '/ui/',
      '/ui/jobs',
      '/ui/jobs/web%2Fdispatch-1?namespace=a',
      '/ui/events',
      '/ui/mesh/',
    ]) {
      const answer = await rawRequest(base, 'GET', path);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body.toString()).toBe(settlePage(PAGE, { acl: false }));
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONSOLE_CSP).toMatch(/connect-src 'self'/);
    expect(CONSOLE_CSP).toMatch(/frame-ancestors 'none'/);
  });

  it('serves hashed assets for a year, gzipped when asked, with their content type', async () => {
    const plain = await rawRequest(base, 'GET', '/ui/assets/app-ABC123.js');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(SCRIPT);
    const gzipped = await rawRequest(base, 'GET', '/ui/assets/app-ABC123.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
    expect(gzipped.body.byteLength).toBeLessThan(SCRIPT.length / 10);
    const icon = await rawRequest(base, 'GET', '/ui/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await rawRequest(base, 'GET', '/ui/');
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await rawRequest(base, 'GET', '/ui/', { 'if-none-match': `"other", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    const head = await rawRequest(base, 'HEAD', '/ui/assets/app-ABC123.js');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
  });

  it.each([
    '/ui/../package.json',
    '/ui/../secret.txt',
    '/ui/%2e%2e/package.json',
    '/ui/%2e%2e/',
    '/ui/%2E%2E%2Fsecret.txt',
    '/ui/assets/..%2f..%2fsecret.txt',
    '/ui/assets%2fapp-ABC123.js',
    '/ui/..\\secret.txt',
    '/ui/%5c..%5csecret.txt',
    '/ui//etc/passwd',
    '/ui/linked.txt',
    '/ui/notes.md',
    '/ui/assets/',
    '/ui/assets/missing.js',
    '/ui/index.html%00',
    '/ui/api',
  ])('does not serve %s (404, nothing from outside the folder)', async (path) => {
    const answer = await rawRequest(base, 'GET', path);
    expect(answer.status).toBe(404);
    expect(answer.body.toString()).not.toMatch(/TOP SECRET/);
  });

  it('answers an over-long or undecodable path with a plain-text 4xx, never a 500', async () => {
    for (const path of [`/ui/${'a'.repeat(20_000)}`, `/ui/jobs/${'%ff'.repeat(10)}`, '/ui/%']) {
      const answer = await rawRequest(base, 'GET', path);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('answers a view path holding .. with the page only (the path is the page to read)', async () => {
    const answer = await rawRequest(base, 'GET', '/ui/jobs/..%2f..%2fpackage.json');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(settlePage(PAGE, { acl: false }));
  });

  it('tells the page in its head whether the server checks ACL tokens', async () => {
    expect(settlePage(PAGE, { acl: true })).toBe(
      '<!doctype html><html lang="en"><head><title>sked</title>  <meta name="sked-acl" content="on" />\n  </head><body>page</body></html>',
    );
    const page = (await rawRequest(base, 'GET', '/ui/')).body.toString();
    expect(page).toContain('<meta name="sked-acl" content="off" />');
    const acl = createHttpApp();
    registerConsole(acl, {
      dir: join(root, 'ui'),
      acl: true,
      upstreams: { secrets: () => undefined, mesh: () => undefined },
    });
    expect((await acl.inject({ method: 'GET', url: '/ui/events' })).body).toContain(
      '<meta name="sked-acl" content="on" />',
    );
    await acl.close();
  });

  it('refuses another Host (DNS rebinding) and other methods', async () => {
    const rebound = await rawRequest(base, 'GET', '/ui/', { host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.body.toString()).toMatch(/^Host "attacker.example" is not allowed/);
    const post = await rawRequest(base, 'POST', '/ui/');
    expect(post.status).toBe(405);
    const put = await rawRequest(base, 'PUT', '/ui/jobs', { origin: 'http://attacker.example' });
    expect(put.status).toBe(403);
  });
});

describe('loadConsoleAssets', () => {
  it('reads only regular files of known types, not links, and nothing without an index.html', () => {
    const assets = loadConsoleAssets(join(root, 'ui'));
    expect([...(assets?.keys() ?? [])].sort()).toEqual(['assets/app-ABC123.js', 'favicon.svg', 'index.html']);
    expect(assets?.get('assets/app-ABC123.js')?.immutable).toBe(true);
    expect(assets?.get('index.html')?.immutable).toBe(false);
    expect(loadConsoleAssets(root)).toBeUndefined();
    expect(loadConsoleAssets(join(root, 'nowhere'))).toBeUndefined();
  });

  it('answers 404 saying the console is not built when the folder has none', async () => {
    const bare = createHttpApp();
    registerConsole(bare, {
      dir: join(root, 'nowhere'),
      upstreams: { secrets: () => undefined, mesh: () => undefined },
    });
    const answer = await bare.inject({ method: 'GET', url: '/ui/' });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toMatch(/^The web console is not part of this build of sked-server/);
    expect((await bare.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
    await bare.close();
  });
});
