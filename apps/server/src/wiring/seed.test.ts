import { LdapConfigDefaults } from '@sked/model';
import { makeJob } from '@sked/testkit';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeedError } from './seed.js';
import { startServer, type RunningServer } from './server.js';

/**
 * Issue 23: seeding a running server from code, through each service's own path (the endpoint's
 * validation, the store's writes), and resetting it between tests.
 */

const OPS = 'ops-seed-secret';
let server: RunningServer;
let slapd: Slapd;

const HCL = `
variable "count" {
  type    = number
  default = 1
}
job "from-hcl" {
  datacenters = ["*"]
  group "g" {
    count = var.count
    task "t" {
      driver = "mock"
      config {
        run_for = "1h"
      }
    }
  }
}
`;

async function get(path: string, token = OPS): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.scheduler.url}${path}`, { headers: { 'x-svc-token': token } });
  return { status: res.status, body: await res.text() };
}

async function seedError(run: () => unknown): Promise<SeedError> {
  try {
    await run();
  } catch (error) {
    if (SeedError.is(error)) return error;
    throw error;
  }
  throw new Error('the seed call succeeded');
}

beforeAll(async () => {
  slapd = await startSlapd();
  server = await startServer({
    nodes: 1,
    acl: true,
    aclConfig: { tokens: [{ name: 'ops', secret: OPS, management: true }] },
  });
}, 120_000);
afterAll(async () => {
  await server.close();
  await slapd.stop();
});

describe('seed.job', () => {
  it('registers a Job object, a register body, JSON text and HCL text as POST /v1/jobs would', async () => {
    const seeded = await server.seed.jobs([
      makeJob({ ID: 'plain' }),
      { Job: makeJob({ ID: 'body', Namespace: 'team-a' }) },
      JSON.stringify(makeJob({ ID: 'text' })),
    ]);
    expect(seeded.map((job) => [job.id, job.namespace])).toEqual([
      ['plain', 'default'],
      ['body', 'team-a'],
      ['text', 'default'],
    ]);
    const hcl = await server.seed.job(HCL, { variableFlags: { count: '2' } });
    expect(hcl).toMatchObject({ id: 'from-hcl', namespace: 'default' });
    const read = JSON.parse((await get('/v1/job/from-hcl')).body) as { TaskGroups: { Count: number }[] };
    expect(read.TaskGroups[0]?.Count).toBe(2);
    expect((await get('/v1/job/body?namespace=team-a')).status).toBe(200);
    expect(hcl.index).toBeGreaterThan(seeded[2]?.index ?? Number.POSITIVE_INFINITY);
  });

  it.each([
    [
      { ID: 'bad', TaskGroups: [{ Name: 'g', Count: 'two' }] },
      {},
      'seed.job("bad")',
      'Job.TaskGroups[0].Count: expected an integer but got the string "two"',
      400,
    ],
    ['{"ID": "x", ', {}, 'seed.job', 'The job text is not JSON:', 400],
    [
      'job "broken" {',
      {},
      'seed.job',
      'Failed to parse job.hcl: job.hcl:1,14-15: Unclosed configuration block',
      400,
    ],
    [
      makeJob({ ID: 'ns', Namespace: 'a' }),
      { namespace: 'b' },
      'seed.job("ns")',
      'Job namespace "a" does not match the request namespace "b"',
      400,
    ],
    [
      makeJob({ ID: 'star' }),
      { namespace: '*' },
      'seed.job("star")',
      'Invalid namespace "*": a write names one namespace, not the wildcard',
      400,
    ],
    [makeJob({ ID: 'far', Region: 'mars' }), {}, 'seed.job("far")', 'No path to region "mars"', 400],
    [null, {}, 'seed.job', 'Job: expected an object but got null', 400],
  ])(
    'refuses %j with a SeedError naming the call and the problem, storing nothing',
    async (input, options, call, message, status) => {
      // The jobs, versions and evaluations tables: other tables move on their own (allocations of
      // earlier tests reach running while an HCL text is parsed).
      const { store } = server.scheduler.cluster;
      const tables = () => [
        store.jobs.watch.current,
        store.jobVersions.watch.current,
        store.evals.watch.current,
      ];
      const before = tables();
      const error = await seedError(() => server.seed.job(input, options));
      expect(error.call).toBe(call);
      expect(error.message.startsWith(`${call}: `)).toBe(true);
      expect(error.message).toContain(message);
      expect(error.status).toBe(status);
      expect(tables()).toEqual(before);
    },
  );

  it('checks the job tokens as the endpoint does with ACLs on', async () => {
    const job = makeJob({
      ID: 'needs-secrets',
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Secrets: { Policies: ['db'] } }] }],
    });
    const error = await seedError(() => server.seed.job(job));
    expect(error.message).toContain('but carries no SecretsToken');
  });
});

describe('seed.aclTokens', () => {
  it('adds tokens in the token file form; the services accept them at once', async () => {
    expect((await get('/v1/jobs', 'reader-secret')).body).toBe('ACL token not found');
    server.seed.aclTokens([
      { name: 'reader', secret: 'reader-secret', namespaces: { default: ['list-jobs'] } },
    ]);
    expect((await get('/v1/jobs', 'reader-secret')).status).toBe(200);
    expect((await get('/v1/jobs?namespace=other', 'reader-secret')).body).toBe('Permission denied');
  });

  it.each([
    [
      [{ name: 'x', secret: 's', namespaces: { default: ['fly'] } }],
      'tokens[0].namespaces.default[0]: expected one of "deny", "list-jobs"',
    ],
    [[{ name: 'reader', secret: 'other' }], 'tokens[0] ("reader"): the name is used by another token'],
    [[{ name: 'y', secret: 'reader-secret' }], 'tokens[0] ("y"): the secret is used by another token'],
    [[{ name: 'z', secret: 'z', admin: true }], 'tokens[0].admin: is not a known key; known keys: name'],
  ])('refuses %j with the token file message (never quoting a secret)', async (tokens, message) => {
    const error = await seedError(() => server.seed.aclTokens(tokens));
    expect(error.message.startsWith(`seed.aclTokens: ${message}`)).toBe(true);
    expect(error.message).not.toContain('reader-secret');
  });

  it('says that ACLs are off on a server without them', async () => {
    await using open = await startServer({ nodes: 0 });
    const error = await seedError(() => open.seed.aclTokens([{ name: 'a', secret: 'b' }]));
    expect(error.message).toBe(
      'seed.aclTokens: ACLs are off: start the server with acl: true (or aclConfig, aclTokens) to seed tokens',
    );
  });
});

describe('seed.ldap*', () => {
  it('configures the method to a directory, maps groups and users; a login gets their policies', async () => {
    server.seed.ldapConfig({ ...LdapConfigDefaults, ...slapd.authConfig, request_timeout: 10 });
    server.seed.ldapGroup('devs', { policies: ['web'] });
    server.seed.ldapUser('alice', { policies: 'db,cache', groups: ['ops'] });
    server.seed.ldapGroup('ops', { policies: 'pager' });
    const res = await fetch(`${server.secrets.url}/v1/auth/ldap/login/alice`, {
      method: 'POST',
      body: JSON.stringify({ password: 'alice-pw' }),
    });
    const login = (await res.json()) as { auth: { policies: string[] } };
    expect(login.auth.policies).toEqual(['cache', 'db', 'default', 'pager', 'web']);
  });

  it.each([
    [() => server.seed.ldapConfig({ url: 'http://x' }), 'seed.ldapConfig: ', 'url'],
    [() => server.seed.ldapConfig({ colour: 'red' }), 'seed.ldapConfig: ', 'colour'],
    [() => server.seed.ldapGroup('', { policies: 'a' }), 'seed.ldapGroup(""): ', 'missing name'],
    [
      () => server.seed.ldapGroup('a\u0000b'),
      'seed.ldapGroup("a\\u0000b"): ',
      'control characters are not allowed',
    ],
    [() => server.seed.ldapUser('x'.repeat(1025)), 'seed.ldapUser(', 'longer than 1024 characters'],
    [() => server.seed.ldapUser('bob', { policies: 5 } as never), 'seed.ldapUser("bob"): ', 'policies'],
    [() => server.seed.ldapUser('bob', { group: 'x' } as never), 'seed.ldapUser("bob"): ', 'group'],
  ])('refuses bad input with the endpoint message (%#)', async (run, prefix, part) => {
    const error = await seedError(run);
    expect(error.message.startsWith(prefix)).toBe(true);
    expect(error.message).toContain(part);
    expect(error.status).toBe(400);
  });
});

describe('reset', () => {
  it('goes back to the state at start: jobs, seeded tokens, LDAP records and faults gone', async () => {
    await server.seed.job(makeJob({ ID: 'to-go' }));
    server.faults.inject({ path: '/v1/volumes', status: 500, times: 'always' });
    server.faults.leaderless();
    await server.reset();
    expect(server.faults.list()).toEqual([]);
    expect(server.faults.isLeaderless).toBe(false);
    expect(JSON.parse((await get('/v1/jobs?namespace=*')).body)).toEqual([]);
    expect((await get('/v1/jobs', 'reader-secret')).body).toBe('ACL token not found');
    expect(server.scheduler.cluster.store.view.all('allocs')).toEqual([]);
    const group = await fetch(`${server.secrets.url}/v1/auth/ldap/groups/devs`, {
      headers: { 'x-secrets-token': server.secrets.rootToken },
    });
    expect(group.status).toBe(404);
    const config = await fetch(`${server.secrets.url}/v1/auth/ldap/config`, {
      headers: { 'x-secrets-token': server.secrets.rootToken },
    });
    expect(((await config.json()) as { data: { url: string } }).data.url).toBe(LdapConfigDefaults.url);
  });

  it('registers the demo jobs again on a demo server', async () => {
    await using demo = await startServer({ demo: true, nodes: 1 });
    await demo.seed.job(makeJob({ ID: 'extra' }));
    await demo.reset();
    const jobs = (await (await fetch(`${demo.scheduler.url}/v1/jobs`)).json()) as { ID: string }[];
    expect(jobs.map((job) => job.ID)).toEqual([
      'cache',
      'flaky-import',
      'nightly-backup',
      'node-cleanup',
      'report',
      'transcode',
      'web',
    ]);
  });
});

describe('startServer() as a fixture', () => {
  it('binds three free loopback ports without port options, and points env at them', async () => {
    let url = '';
    {
      await using fixture = await startServer({ nodes: 0 });
      const urls = [fixture.scheduler.url, fixture.secrets.url, fixture.mesh.url];
      const ports = urls.map((u) => Number(new URL(u).port));
      expect(new Set(ports).size).toBe(3);
      for (const port of ports) expect([0, 4646, 8200, 8500]).not.toContain(port);
      for (const u of urls) expect(new URL(u).hostname).toBe('127.0.0.1');
      expect(fixture.env).toEqual({
        SKED_ADDR: fixture.scheduler.url,
        SKED_SECRETS_ADDR: fixture.secrets.url,
        SKED_SECRETS_TOKEN: fixture.secrets.rootToken,
        SKED_MESH_ADDR: fixture.mesh.url,
      });
      url = fixture.scheduler.url;
      expect((await fetch(`${url}/v1/jobs`)).status).toBe(200);
    }
    // disposed at the end of the block: nothing listens there any more
    await expect(fetch(`${url}/v1/jobs`)).rejects.toThrow('fetch failed');
  });

  it('hands the generated ACL bootstrap secret to child processes as SKED_TOKEN', async () => {
    await using fixture = await startServer({ nodes: 0, acl: true });
    expect(fixture.env['SKED_TOKEN']).toBe(fixture.acl.enabled ? fixture.acl.bootstrapSecret : undefined);
    expect(
      (
        await fetch(`${fixture.scheduler.url}/v1/jobs`, {
          headers: { 'x-svc-token': fixture.env['SKED_TOKEN'] ?? '' },
        })
      ).status,
    ).toBe(200);
  });
});
