import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { dataDirServers } from '../../test/data-dir.js';
import type { RunningServer } from '../wiring/server.js';
import { DEFAULT_SETTINGS } from '../secrets/config.js';
import { issueToken } from '../secrets/tokens.js';
import { openDurable } from './index.js';

const { freshDir, start } = dataDirServers('sked-durable-svc-', {
  schedulerPort: 0,
  nodes: 1,
  secretsRootToken: 'root-token-for-test',
});

async function secrets(s: RunningServer, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${s.secrets.url}${path}`, {
    method,
    headers: { 'x-secrets-token': 'root-token-for-test' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('--data-dir for the secrets and mesh services', { timeout: 60_000 }, () => {
  it('keeps the LDAP configuration, users and groups across a restart', async () => {
    const dir = freshDir();
    const a = await start(dir);
    const base = `/v1/${a.secrets.mountPath}`;
    expect(
      (
        await secrets(a, 'POST', `${base}/config`, {
          url: 'ldap://127.0.0.1:1',
          userdn: 'ou=people,dc=x',
          binddn: 'cn=admin,dc=x',
          bindpass: 'bind-pass-1',
        })
      ).status,
    ).toBe(204);
    expect((await secrets(a, 'POST', `${base}/groups/ops`, { policies: 'admin,dev' })).status).toBe(204);
    expect((await secrets(a, 'POST', `${base}/users/alice`, { policies: 'dev', groups: 'ops' })).status).toBe(
      204,
    );
    expect((await secrets(a, 'POST', `${base}/users/bob`, { policies: 'ro' })).status).toBe(204);
    expect((await secrets(a, 'DELETE', `${base}/users/bob`)).status).toBe(204);
    const config = await (await secrets(a, 'GET', `${base}/config`)).json();
    await a.close();

    const b = await start(dir);
    expect(await (await secrets(b, 'GET', `${base}/config`)).json()).toMatchObject({
      data: (config as { data: object }).data,
    });
    expect(
      ((await (await secrets(b, 'GET', `${base}/users/alice`)).json()) as { data: unknown }).data,
    ).toMatchObject({
      policies: ['dev'],
      groups: 'ops',
    });
    expect(
      ((await (await secrets(b, 'GET', `${base}/groups/ops`)).json()) as { data: unknown }).data,
    ).toMatchObject({
      policies: ['admin', 'dev'],
    });
    expect((await secrets(b, 'GET', `${base}/users/bob`)).status).toBe(404);
  });

  it('keeps issued tokens by their hash only: a token still works after a restart, its secret is nowhere on disk', async () => {
    const dir = freshDir();
    const durable = openDurable(dir);
    const { secret } = issueToken(
      durable.secrets.tokens,
      { ...DEFAULT_SETTINGS, token_ttl: 3600 },
      { policies: ['dev'], username: 'alice', mountPath: 'auth/ldap' },
      Date.now(),
    );
    durable.close();
    const db = readFileSync(join(dir, 'state.db'));
    expect(db.includes(Buffer.from(secret))).toBe(false);
    expect(statSync(join(dir, 'state.db')).mode & 0o777).toBe(0o600);
    const s = await start(dir);
    const res = await fetch(`${s.secrets.url}/v1/auth/token/lookup-self`, {
      headers: { 'x-secrets-token': secret },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { display_name: string } }).data.display_name).toBe('ldap-alice');
  });

  it('keeps the mesh peerings (with the cluster ID) across a restart', async () => {
    const dir = freshDir();
    const a = await start(dir);
    const made = await fetch(`${a.mesh.url}/v1/peering/token`, {
      method: 'POST',
      body: JSON.stringify({ PeerName: 'bee' }),
    });
    expect(made.status).toBe(200);
    const before = await (await fetch(`${a.mesh.url}/v1/peering/bee`)).json();
    await a.close();
    const b = await start(dir);
    const after = await (await fetch(`${b.mesh.url}/v1/peering/bee`)).json();
    expect(after).toEqual(before);
  });
});
