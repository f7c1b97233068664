import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked, startServer, type ServerProcess } from './harness.js';

/**
 * `--secrets-token` and `--mesh-token` of `job run`, `job plan` and `job revert`: with ACLs on, the
 * server checks a job's SecretsToken against its secrets service (the root token allows every
 * policy) and its MeshToken against the tokens the mesh service accepts; a bad one is refused
 * with the server's message, which never quotes it.
 */

let server: ServerProcess;
let dir: string;
const OPS = 'ops-cli-secret';

function jobFile(name: string, policies: string[] | null): string {
  const task: Record<string, unknown> = { Name: 't', Driver: 'mock', Config: { run_for: '1h' } };
  if (policies !== null) task['Secrets'] = { Policies: policies };
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      ID: name,
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Tasks: [task] }],
    }),
  );
  return path;
}

const run = (args: string[]) => sked(args, { env: { ...server.env, SKED_TOKEN: OPS } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sked-cli-tokens-'));
  const acl = join(dir, 'acl.json');
  writeFileSync(acl, JSON.stringify({ tokens: [{ name: 'ops', secret: OPS, management: true }] }));
  server = await startServer(['--acl', '--acl-tokens', acl]);
});
afterAll(async () => {
  await server.close();
});

describe('job tokens with ACLs on', () => {
  it('job run: refused without a SecretsToken or with an unknown one, run with one that allows the policies', async () => {
    const file = jobFile('tok-run', ['db']);
    const none = await run(['job', 'run', '--detach', file]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'The job requests secrets service policies ("db") but carries no SecretsToken',
    );
    const unknown = await run(['job', 'run', '--detach', '--secrets-token', 'sks.cli-unknown-42', file]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SecretsToken is not a token of the secrets service');
    expect(unknown.stdout + unknown.stderr).not.toContain('cli-unknown-42');
    const mesh = await run([
      'job',
      'run',
      '--detach',
      '--mesh-token',
      'mesh-cli-nope',
      jobFile('tok-mesh', null),
    ]);
    expect(mesh.code).toBe(1);
    expect(mesh.stderr).toContain('MeshToken is not a token of the mesh service');
    expect(mesh.stdout + mesh.stderr).not.toContain('mesh-cli-nope');
    const ok = await run([
      'job',
      'run',
      '--detach',
      '--secrets-token',
      server.secretsRootToken,
      '--mesh-token',
      OPS,
      file,
    ]);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(/^Job registration successful\n/);
  });

  it('job plan takes the same flags (exit 255 on a refused token)', async () => {
    const file = jobFile('tok-plan', ['db']);
    const refused = await run(['job', 'plan', '--secrets-token', 'sks.cli-unknown-43', file]);
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain('SecretsToken is not a token of the secrets service');
    const planned = await run(['job', 'plan', '--secrets-token', server.secretsRootToken, file]);
    expect(planned.code).toBe(1); // a new job: changes
    expect(planned.stdout).toContain('+ Job: "tok-plan"');
  });

  it('job revert hands the tokens to the version reverted to', async () => {
    const root = server.secretsRootToken;
    expect(
      (await run(['job', 'run', '--detach', '--secrets-token', root, jobFile('tok-rev', ['db'])])).code,
    ).toBe(0);
    expect((await run(['job', 'run', '--detach', jobFile('tok-rev', null)])).code).toBe(0);
    const refused = await run(['job', 'revert', '--detach', 'tok-rev', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('carries no SecretsToken');
    const reverted = await run(['job', 'revert', '--detach', '--secrets-token', root, 'tok-rev', '0']);
    expect(reverted.code).toBe(0);
  });
});
