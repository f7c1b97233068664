/**
 * The console in headless Chromium against real `sked-server --demo` processes: one with ACLs (the
 * console asks for the management token first), and a second one, without ACLs, as the mesh peer.
 * Every view is checked for console errors, failed requests and serious accessibility violations,
 * and photographed into artifacts/. Every wait is for a condition, with a deadline.
 */
import { request as httpRequest } from 'node:http';
import { createMeshClient, type MeshClient } from '@sked/mesh-client';
import { createSchedulerClient, type SchedulerClient } from '@sked/scheduler-client';
import { createSecretsClient } from '@sked/secrets-client';
import { makeJob } from '@sked/testkit';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { launchChromium, watchedPage, type WatchedPage } from './browser.js';
import { startServerProcess, type ServerProcess } from './server.js';

const ROOT_TOKEN = 'console-test-root-token';
const BINDPASS = 'bind-password-never-shown';
const DEMO_JOBS = ['cache', 'flaky-import', 'nightly-backup', 'node-cleanup', 'report', 'transcode', 'web'];
/** Deadline of one condition (a live update, a view's first data) on a loaded machine. */
const WAIT = 20_000;

let main: ServerProcess;
let peer: ServerProcess;
let browser: Browser;
let tab: WatchedPage;
let jobs: SchedulerClient;
let peerMesh: MeshClient;

beforeAll(async () => {
  [main, peer, browser] = await Promise.all([
    startServerProcess(['--demo', '--acl'], { SKED_SECRETS_ROOT_TOKEN: ROOT_TOKEN }),
    startServerProcess(['--datacenter', 'dc2']),
    launchChromium(),
  ]);
  jobs = createSchedulerClient({ address: main.scheduler, token: main.aclToken, env: false });
  peerMesh = createMeshClient({ address: peer.mesh, env: false });
  tab = await watchedPage(browser);
});

// a failed test leaves a picture of the page it failed on, and prints what went wrong there
beforeEach((context) => {
  context.onTestFailed(async () => {
    console.error(`problems on the page when "${context.task.name}" failed:`, tab?.problems());
    await tab
      ?.screenshot(`failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`)
      .catch(() => undefined);
  });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([main?.stop(), peer?.stop()]);
});

/** Waits until a locator has the text, within the deadline. */
async function shows(locator: Locator, text: string | RegExp): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: WAIT });
}

/** The view loaded cleanly: no console error, no failed request, no serious accessibility violation. */
async function clean(name: string): Promise<void> {
  await tab.screenshot(name);
  expect(tab.problems()).toEqual([]);
  expect(await seriousViolations(tab.page)).toEqual([]);
}

/** Waits until the first column of the table lists exactly these IDs. */
async function rowsAre(ids: readonly string[]): Promise<void> {
  await tab.page.waitForFunction(
    (want) => JSON.stringify([...document.querySelectorAll('tbody th')].map((th) => th.textContent)) === want,
    JSON.stringify(ids),
    { timeout: WAIT },
  );
}

function nav(name: string): Locator {
  return tab.page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });
}

describe('the console', () => {
  it('asks for the ACL token before any request, and keeps it in the tab only', async () => {
    const { page } = tab;
    await page.goto(`${main.scheduler}/`);
    expect(new URL(page.url()).pathname).toBe('/ui/');
    await page.getByRole('heading', { name: 'Token needed' }).waitFor({ timeout: WAIT });
    expect(tab.sent.filter((r) => r.url.includes('/v1/'))).toEqual([]);
    expect(tab.sent.map((r) => new URL(r.url).pathname)).toContain('/ui/favicon.svg');
    await clean('token');
    await page.getByLabel('ACL token', { exact: true }).fill(main.aclToken ?? '');
    await page.getByRole('button', { name: 'Use token' }).click();
    await shows(page.getByRole('row'), 'web');
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('sked.console.acl-token'),
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(stored).toEqual({ session: main.aclToken, local: 0, cookie: '' });
    expect(page.url()).not.toContain(main.aclToken);
    expect(tab.sent.filter((r) => r.url.includes(main.aclToken ?? '-'))).toEqual([]);
    expect(tab.problems()).toEqual([]);
  });

  it('lists the demo jobs, and a job registered from outside appears without a reload', async () => {
    const { page } = tab;
    const ids = await page.locator('tbody th').allTextContents();
    expect(ids).toEqual(DEMO_JOBS);
    await page.evaluate(() => Object.assign(globalThis, { consoleStillHere: true }));
    await jobs.jobs.create(makeJob({ ID: 'outside-1' }));
    await shows(page.getByRole('row'), 'outside-1');
    expect(await page.evaluate(() => 'consoleStillHere' in globalThis)).toBe(true);
    // a blocking query carried the change: the list was asked again with the index it last saw
    expect(tab.sent.some((r) => r.url.includes('/v1/jobs?') && /[?&]index=\d+/.test(r.url))).toBe(true);
    expect(await page.getByRole('link', { name: 'web', exact: true }).getAttribute('href')).toBe(
      '/ui/jobs/web?namespace=default',
    );
    await clean('jobs');

    // another namespace appears in the selector as soon as it has a job; choosing it lists its jobs
    await jobs.jobs.create(makeJob({ ID: 'ops-job', Namespace: 'ops' }));
    const select = page.getByLabel('Namespace', { exact: true });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLOptionElement>('#namespace option')].some((o) => o.value === 'ops'),
      undefined,
      { timeout: WAIT },
    );
    await select.selectOption('ops');
    await rowsAre(['ops-job']);
    expect(new URL(page.url()).searchParams.get('namespace')).toBe('ops');
    await select.selectOption('*');
    await shows(page.getByRole('row'), /ops-job\s*ops/);
    expect(await page.getByRole('columnheader', { name: 'Namespace' }).count()).toBe(1);
    await select.selectOption('default');
    await rowsAre([...DEMO_JOBS, 'outside-1'].sort());
    expect(new URL(page.url()).searchParams.has('namespace')).toBe(false);
    expect(tab.problems()).toEqual([]);
  });

  it('filters on the server, refuses a bad expression in the page, and completes selectors', async () => {
    const { page } = tab;
    const box = page.getByRole('combobox', { name: 'Filter', exact: true });
    const filtered = (text: string): boolean =>
      tab.sent.some((r) => r.url.includes('/v1/jobs?') && new URL(r.url).searchParams.get('filter') === text);

    await box.fill('Type == "batch"');
    await rowsAre(['flaky-import', 'nightly-backup', 'report', 'transcode']);
    expect(filtered('Type == "batch"')).toBe(true);
    expect(new URL(page.url()).searchParams.get('filter')).toBe('Type == "batch"');

    // the bad expression: the filter's diagnostic with its caret, tied to the box, and no request
    const bad = 'Status = "running"';
    const sentBad = page
      .waitForRequest((r) => new URL(r.url()).searchParams.get('filter') === bad, { timeout: 2_000 })
      .then(
        () => 'sent',
        () => 'not sent',
      );
    await box.fill(bad);
    const described = await box.getAttribute('aria-describedby');
    const diagnostic = page.locator(`#${described ?? 'none'}`);
    await shows(diagnostic, 'Comparisons are written "==" and "!="');
    expect(await diagnostic.textContent()).toBe(
      `1:8: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".\n${bad}\n       ^`,
    );
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).searchParams.get('filter')).toBe(bad);
    expect(await sentBad).toBe('not sent');
    await tab.screenshot('filter-diagnostic');

    // completion: after "Sta", Status is offered in a listbox of visible options
    await box.fill('Sta');
    const options = page.getByRole('listbox', { name: 'Filter suggestions' });
    await options.waitFor({ state: 'visible', timeout: WAIT });
    expect(await options.getByRole('option').allTextContents()).toContain('Status selector');
    await tab.screenshot('filter-completion');
    await box.press('ArrowDown');
    const active = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active ?? 'none'}`).textContent()).toBe('Status selector');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Status');
    await options.waitFor({ state: 'hidden', timeout: WAIT });
    await box.press('End');
    await box.pressSequentially(' == "dead"');
    await rowsAre(['node-cleanup', 'report']);
    await clean('filter');

    // the address keeps the view: loading it again shows the same filtered table
    await page.reload();
    await rowsAre(['node-cleanup', 'report']);
    expect(await box.inputValue()).toBe('Status == "dead"');
    await box.fill('');
    await rowsAre([...DEMO_JOBS, 'outside-1'].sort());
    expect(tab.problems()).toEqual([]);
  });

  it('shows a job: allocations live with short IDs, deployment, versions with their diff, evaluations', async () => {
    const { page } = tab;
    tab.reset();
    await page.getByRole('link', { name: 'web', exact: true }).click();
    await page.getByRole('heading', { name: 'web', level: 1 }).waitFor({ timeout: WAIT });
    expect(new URL(page.url()).pathname).toBe('/ui/jobs/web');
    const allocations = page.locator('table[aria-labelledby="allocations-title"] tbody tr');
    await shows(allocations, 'running');
    const { data: allocs } = await jobs.jobs.allocations('web');
    const shown = await allocations.locator('th').allTextContents();
    expect(shown.length).toBe(allocs.length);
    expect(shown.every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(shown.sort()).toEqual(allocs.map((a) => a.ID.slice(0, 8)).sort());
    await shows(page.locator('section p'), /for version 0:/);
    await shows(page.locator('table[aria-labelledby="evaluations-title"] tbody tr'), 'job-register');

    // a new version registered from outside: its diff to version 0 shows up live
    const { data: web } = await jobs.jobs.read('web');
    await jobs.jobs.update('web', { ...web, Priority: 70 });
    const newest = page.locator('.versions > li').first();
    await shows(newest, 'Version 1');
    await shows(newest.locator('.diff li'), 'Priority: 50 → 70');
    await clean('job');

    // revert, with a confirmation
    await page.getByRole('button', { name: 'Revert to version 0' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revert job web to version 0?' });
    await dialog.waitFor({ timeout: WAIT });
    expect(await seriousViolations(page)).toEqual([]);
    await tab.screenshot('job-revert');
    await dialog.getByRole('button', { name: 'Revert to version 0' }).click();
    await shows(page.getByRole('status'), /^Reverted to version 0: evaluation [0-9a-f]{8}\.$/);
    await shows(newest, 'Version 2');
    expect((await jobs.jobs.read('web')).data.Priority).toBe(50);

    // stop: cancelled first with the keyboard (the dialog opens on Cancel; Escape closes it), then confirmed
    await page.getByRole('button', { name: 'Stop job' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop job web?' });
    await stop.waitFor({ timeout: WAIT });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await stop.waitFor({ state: 'detached', timeout: WAIT });
    expect((await jobs.jobs.read('web')).data.Stop).toBe(false);
    await page.getByRole('button', { name: 'Stop job' }).click();
    await stop.getByRole('button', { name: 'Stop job' }).click();
    await page.getByRole('button', { name: 'Stopped' }).waitFor({ timeout: WAIT });
    expect((await jobs.jobs.read('web')).data.Stop).toBe(true);
    expect(tab.problems()).toEqual([]);
  });

  it('tails the event stream with topics, key and type, and resumes where it paused', async () => {
    const { page } = tab;
    tab.reset();
    await nav('Events').click();
    const lines = page.getByRole('log', { name: 'Events' }).locator('li');
    await shows(lines, /Job\s+JobRegistered\s+web\s+default/);
    await jobs.jobs.create(makeJob({ ID: 'outside-2' }));
    await shows(lines, /Job\s+JobRegistered\s+outside-2\s+default/);
    await clean('events');

    // only the Job topic: the stream starts again with that topic
    for (const topic of ['Allocation', 'Evaluation', 'Deployment', 'Node']) {
      await page.getByRole('checkbox', { name: topic }).uncheck();
    }
    expect(new URL(page.url()).searchParams.getAll('topic')).toEqual(['Job']);
    await shows(lines, /outside-2/);
    expect(new Set(await lines.locator('.topic').allTextContents())).toEqual(new Set(['Job']));

    // paused: the address keeps where to resume; an event meanwhile comes on resume
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor({ timeout: WAIT });
    expect(Number(new URL(page.url()).searchParams.get('index'))).toBeGreaterThan(0);
    await jobs.jobs.create(makeJob({ ID: 'while-paused' }));
    expect(await lines.filter({ hasText: 'while-paused' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await shows(lines, /Job\s+JobRegistered\s+while-paused/);
    expect(new URL(page.url()).searchParams.has('index')).toBe(false);

    // under a steady flow of events, a pause shown is a pause kept: no line comes after it, and
    // none is at or past the index it resumes from (the stream stops at the click, not a paint later)
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        await jobs.jobs.create(makeJob({ ID: `flow-${n}` }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const indexes = async (): Promise<number[]> =>
      (await lines.locator('.index').allTextContents()).map(Number);
    try {
      for (let round = 0; round < 3; round++) {
        await shows(lines, /flow-/);
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.getByRole('button', { name: 'Resume' }).waitFor({ timeout: WAIT });
        const from = Number(new URL(page.url()).searchParams.get('index'));
        const shown = await indexes();
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await indexes()).toEqual(shown);
        expect(Math.max(...shown)).toBe(from - 1);
        await page.getByRole('button', { name: 'Resume' }).click();
        await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: WAIT });
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(tab.problems()).toEqual([]);
  });

  it('shows the LDAP method (never bindpass), its groups and users with the root token', async () => {
    const secrets = createSecretsClient({ address: main.secrets, token: ROOT_TOKEN, env: false });
    await secrets.ldap.config.write({
      url: 'ldap://127.0.0.1:1389',
      binddn: 'cn=admin,dc=example,dc=org',
      bindpass: BINDPASS,
      userdn: 'ou=users,dc=example,dc=org',
    });
    await secrets.ldap.groups.write('devs', { policies: ['dev', 'shared'] });
    await secrets.ldap.users.write('alice', { policies: ['ops'], groups: ['devs'] });
    const { page } = tab;
    tab.reset();
    await nav('Secrets').click();
    await page.getByLabel('Secrets token', { exact: true }).fill(ROOT_TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await shows(page.locator('dl.config dd'), 'cn=admin,dc=example,dc=org');
    await shows(page.getByRole('row'), /devs\s*dev, shared/);
    await shows(page.getByRole('row'), /alice\s*ops\s*devs/);
    expect(await page.locator('dl.config dt').allTextContents()).not.toContain('bindpass');
    expect(await page.content()).not.toContain(BINDPASS);
    expect(tab.sent.filter((r) => r.url.includes(ROOT_TOKEN))).toEqual([]);
    expect(tab.sent.some((r) => r.url.includes('/ui/api/secrets/v1/auth/ldap/groups?list=true'))).toBe(true);
    await clean('secrets');
  });

  it('lists peerings with their state, generates a token, establishes and deletes', async () => {
    const { page } = tab;
    tab.reset();
    await nav('Mesh').click();
    await shows(page.locator('p'), 'No peerings.');
    // a token generated in the console, with which the peer establishes: the row turns ACTIVE live
    await page.getByLabel('Peer name', { exact: true }).first().fill('dc2-peer');
    await page.getByRole('button', { name: 'Generate token' }).click();
    const generated = page.getByLabel(/^Token for dc2-peer/);
    await generated.waitFor({ timeout: WAIT });
    await peerMesh.peerings.establish({ PeerName: 'dc1-main', PeeringToken: await generated.inputValue() });
    await shows(page.getByRole('row'), /dc2-peer\s*ACTIVE/);

    // establish in the console with a token the peer generated
    const { data } = await peerMesh.peerings.generateToken({ PeerName: 'dc1-again' });
    const form = page.getByRole('form', { name: 'Establish a peering' });
    await form.getByLabel('Peer name', { exact: true }).fill('dc2-again');
    await form.getByLabel('Peering token', { exact: true }).fill(data.PeeringToken);
    await form.getByRole('button', { name: 'Establish' }).click();
    await shows(form.getByRole('status'), 'Peering dc2-again established.');
    await shows(page.getByRole('row'), /dc2-again\s*(INITIAL|ACTIVE)/);
    await clean('mesh');

    // delete, with a confirmation
    await page.getByRole('button', { name: 'Delete peering dc2-again' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete peering dc2-again?' });
    await dialog.getByRole('button', { name: 'Delete peering' }).click();
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('tbody tr')].some(
          (row) => row.textContent?.includes('dc2-again') === true && !row.textContent.includes('TERMINATED'),
        ),
      undefined,
      { timeout: WAIT },
    );
    expect(tab.problems()).toEqual([]);
  });

  it('asks for no token where the server has no ACLs', async () => {
    const other = await watchedPage(browser);
    await other.page.goto(`${peer.scheduler}/ui/jobs`);
    await other.page.getByText('No jobs.').waitFor({ timeout: WAIT });
    expect(await other.page.getByRole('heading', { name: 'Token needed' }).count()).toBe(0);
    expect(other.problems()).toEqual([]);
    await other.page.context().close();
  });

  it('serves its icon and no file from outside its folder', async () => {
    const icon = await tab.page.evaluate(() =>
      document.querySelector('link[rel="icon"]')?.getAttribute('href'),
    );
    expect(icon).toBe('/ui/favicon.svg');
    const get = (path: string): Promise<{ status: number; type: string | undefined }> =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(main.scheduler);
        httpRequest({ hostname, port, path, timeout: WAIT }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] });
        })
          .on('error', reject)
          .end();
      });
    expect(await get('/ui/favicon.svg')).toEqual({ status: 200, type: 'image/svg+xml' });
    for (const path of [
      '/ui/../package.json',
      '/ui/%2e%2e/package.json',
      '/ui/..%2fpackage.json',
      '/ui/%2e%2e/',
    ]) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 404 });
    }
  });
});
