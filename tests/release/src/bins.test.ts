// The two apps as a user installs them: the packed tarballs installed with plain npm and
// --ignore-scripts (no build script runs, no compiler needed) into a project outside the
// workspace, then run from their bins with npx: the demo server answers, the CLI lists its jobs,
// `sked alloc exec -t` gets a real terminal in a task, `startServer()` of the installed package
// serves the demo on free ports and disposes with `await using`, an old Node gets one clear line,
// and the install sizes stay within the budgets the READMEs state.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ensureAptPackages } from '@sked/testkit/apt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installSize, readInstallBudget } from './install-size.ts';
import { run } from './run.ts';
import { startSkedServer, type SkedServer } from './server.ts';
import { runTour, tourLines } from './tour.ts';
import { repoRoot } from './workspace.ts';

const packed = inject('packed');
/** The machine's system Node (older than the packages' `engines`), where there is one. */
const systemNode = ['/usr/bin/node', '/bin/node'].find((path) => existsSync(path));

let project = '';
let server: SkedServer;
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'sked-bins-')));
  if (project.startsWith(repoRoot)) throw new Error(`${project} is inside the workspace`);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sked-bins', private: true }));
  // every workspace dependency comes from its tarball; third-party ones from the npm cache or registry
  await run(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...packed.map((p) => p.tarball),
    ],
    { cwd: project, timeoutMs: 240_000 },
  );
  server = await startSkedServer([], 60_000, {
    command: 'npx',
    args: ['--no-install', 'sked-server'],
    cwd: project,
  });
  env = { ...process.env, SKED_ADDR: server.urls['scheduler'] ?? '', NO_COLOR: '1' };
});

afterAll(async () => {
  await server?.close();
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('sked-server and sked installed with npm --ignore-scripts outside the workspace', () => {
  it('npx sked-server --demo answers on each listener', async () => {
    expect(server.output()).toMatch(/^scheduler listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const jobs = await fetch(`${server.urls['scheduler']}/v1/jobs`, { signal: AbortSignal.timeout(10_000) });
    expect(jobs.status).toBe(200);
    expect(((await jobs.json()) as { ID: string }[]).map((job) => job.ID)).toContain('web');
    expect(Object.keys(server.urls).sort()).toEqual(['mesh', 'scheduler', 'secrets']);
  });

  it('npx sked-server serves the web console from its own package at /ui/ (nothing outside ui/)', async () => {
    const base = server.urls['scheduler'] ?? '';
    const root = await fetch(`${base}/`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    expect([root.status, root.headers.get('location')]).toEqual([307, '/ui/']);
    const page = await fetch(`${base}/ui/`, { signal: AbortSignal.timeout(10_000) });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const installed = readFileSync(join(project, 'node_modules/@sked/server/ui/index.html'), 'utf8');
    const script = /src="(\/ui\/assets\/app-\w+\.js)"/.exec(installed)?.[1] ?? 'missing';
    expect(html).toContain(`src="${script}"`);
    const js = await fetch(`${base}${script}`, { signal: AbortSignal.timeout(10_000) });
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    // the package's own package.json sits beside ui/: a path out of ui/ reaches nothing
    const { hostname, port } = new URL(base);
    for (const path of ['/ui/../package.json', '/ui/%2e%2e/package.json', '/ui/..%2fpackage.json']) {
      const status = await new Promise<number>((resolve, reject) => {
        httpRequest({ hostname, port, path, timeout: 10_000 }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect({ path, status }).toEqual({ path, status: 404 });
    }
  });

  it('npx sked job status lists the demo jobs', async () => {
    const result = await run('npx', ['--no-install', 'sked', 'job', 'status'], {
      cwd: project,
      env,
      timeoutMs: 60_000,
    });
    for (const job of ['web', 'cache', 'report'])
      expect(result.stdout).toMatch(new RegExp(`^${job}\\s`, 'm'));
  });

  it('sked alloc exec -t gets a real terminal in a task (the prebuilt pty, no install script run)', async () => {
    const result = await run(
      'npx',
      [
        '--no-install',
        'sked',
        'alloc',
        'exec',
        '-t',
        '--no-stdin',
        '--job',
        'web',
        'sh',
        '-c',
        'tty; stty size',
      ],
      { cwd: project, env, timeoutMs: 60_000 },
    );
    // `tty` names a terminal device (not "not a tty"), `stty size` reads the terminal's size (it
    // fails on a pipe), and the terminal turned each newline into CR LF
    expect(result.stdout).toMatch(/^\/dev\/\S+\r\n\d+ \d+\r\n$/);
    expect(result.stdout).not.toContain('not a tty');
  });

  it('startServer({ demo: true }) of the installed package serves the demo on free ports and disposes with await using', async () => {
    const script = [
      "import { startServer } from '@sked/server';",
      'let url;',
      '{',
      '  await using server = await startServer({ demo: true });',
      '  url = server.scheduler.url;',
      '  const urls = [server.scheduler.url, server.secrets.url, server.mesh.url];',
      '  const jobs = await (await fetch(`${url}/v1/jobs`)).json();',
      '  console.log(JSON.stringify({ urls, jobs: jobs.map((job) => job.ID) }));',
      '}',
      "const after = await fetch(`${url}/v1/jobs`).then(() => 'answered', () => 'closed');",
      'console.log(JSON.stringify({ after }));',
    ].join('\n');
    writeFileSync(join(project, 'fixture.mjs'), script);
    // the process ends by itself once the block is left: nothing of the server keeps it alive
    const result = await run(process.execPath, ['fixture.mjs'], { cwd: project, timeoutMs: 60_000 });
    const [served, disposed] = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    const { urls, jobs } = served as { urls: string[]; jobs: string[] };
    const ports = urls.map((url) => new URL(url));
    expect(ports.map((url) => url.hostname)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(new Set(ports.map((url) => url.port)).size).toBe(3);
    for (const url of ports) expect(['4646', '8200', '8500']).not.toContain(url.port);
    expect(jobs).toEqual([
      'cache',
      'flaky-import',
      'nightly-backup',
      'node-cleanup',
      'report',
      'transcode',
      'web',
    ]);
    expect(disposed).toEqual({ after: 'closed' });
  });

  it.each([
    ['sked', '@sked/cli'],
    ['sked-server', '@sked/server'],
  ])(
    '%s on a Node older than engines prints one line naming the version needed and exits 1',
    async (bin, pkg) => {
      expect(systemNode, "this check needs the machine's system Node (older than engines)").toBeDefined();
      const old = execFileSync(systemNode ?? 'node', ['--version'], { encoding: 'utf8' }).trim();
      const manifest = JSON.parse(
        readFileSync(join(project, 'node_modules', pkg, 'package.json'), 'utf8'),
      ) as {
        engines: { node: string };
      };
      const needed = /^>=(\d+\.\d+)/.exec(manifest.engines.node)?.[1] ?? '';
      expect(Number(old.slice(1).split('.')[0])).toBeLessThan(Number(needed.split('.')[0]));
      const result = await run(systemNode ?? 'node', [join(project, 'node_modules/.bin', bin), '--version'], {
        cwd: project,
        allowFailure: true,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${bin}: needs Node.js ${needed} or newer (this is ${old})\n`);
    },
  );

  it.each([
    ['@sked/server', 'apps/server'],
    ['@sked/cli', 'apps/cli'],
  ])('%s with its dependencies stays within the install size its README states', (name, dir) => {
    const size = installSize(project, name);
    const mb = Math.round(size.bytes / 100_000) / 10;
    const budget = readInstallBudget(readFileSync(join(repoRoot, dir, 'README.md'), 'utf8'));
    console.log(
      `${name}: install size ${mb} MB in ${size.packages} packages; README budget ${budget?.budget} MB`,
    );
    expect(
      budget,
      `${dir}/README.md needs a line "Install size ... **N MB** ... budget **B MB**"`,
    ).toBeDefined();
    expect(size.bytes).toBeLessThanOrEqual((budget?.budget ?? 0) * 1_000_000);
    // the stated figure stays near the truth (update the README when it moves by more than 25 %)
    expect(Math.abs(mb - (budget?.stated ?? 0)) / mb).toBeLessThan(0.25);
  });

  // last: the tour submits, changes and purges a job of its own
  it('the CLI README tour runs with the installed bin, each line exiting as its comment states', async () => {
    // the tour's completion lines run fish
    await ensureAptPackages({ name: 'shells', packages: ['fish'], paths: ['/usr/bin/fish'] });
    expect(tourLines().length).toBeGreaterThan(10);
    expect(await runTour(join(project, 'node_modules/.bin'), server.urls['scheduler'] ?? '')).toEqual([]);
  });
});
