/**
 * LDAP logins against the real OpenLDAP and TCP servers that never answer: URLs are tried in order
 * within `request_timeout`, each with its share (issue 31 item 1), no connection outlives the
 * login, durations a timer cannot hold are refused (item 2), and usernames are the directory's
 * (issue 22 item 8).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { LdapConfigDefaults } from '@sked/model';
import { startSlapd, type Slapd } from '@sked/testkit/slapd';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSecrets, type SecretsHarness } from './test/harness.js';

/** A TCP server that counts the connections it holds open. */
interface Counting {
  readonly url: (scheme?: string) => string;
  /** Connections open now. */
  open(): number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Answers from the directory not yet passed on (the slow proxy). */
  delayed(): number;
  close(): Promise<void>;
}

async function counting(handle: (client: Socket, count: { delayed: number }) => void): Promise<Counting> {
  const sockets = new Set<Socket>();
  const count = { delayed: 0 };
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted++;
    sockets.add(client);
    client.on('error', () => undefined);
    client.once('close', () => sockets.delete(client));
    handle(client, count);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: (scheme = 'ldap') => `${scheme}://127.0.0.1:${port}`,
    open: () => sockets.size,
    accepted: () => accepted,
    delayed: () => count.delayed,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Forwards to the directory; its answers are held `delayMs` first. */
function proxyTo(target: URL, delayMs: number) {
  return (client: Socket, count: { delayed: number }): void => {
    const upstream = connect(Number(target.port), target.hostname);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (delayMs === 0) {
        client.write(chunk);
        return;
      }
      count.delayed++;
      setTimeout(() => {
        count.delayed--;
        if (!client.destroyed) client.write(chunk);
      }, delayMs);
    });
  };
}

let slapd: Slapd;
let h: SecretsHarness;
let dead: Counting;
let proxy: Counting;
let slow: Counting;
beforeAll(async () => {
  slapd = await startSlapd();
  h = await startSecrets();
  // accepts and reads, never answers (reading lets it see the other side close)
  dead = await counting((client) => client.resume());
  proxy = await counting(proxyTo(new URL(slapd.url), 0));
  slow = await counting(proxyTo(new URL(slapd.url), 1500));
  await h.call('POST', '/v1/auth/ldap/users/alice', { body: { policies: 'alice-policy' } });
}, 120_000);
afterAll(async () => {
  await Promise.all([dead, proxy, slow].map((s) => s.close()));
  await slapd.stop();
});

async function configure(config: Record<string, unknown>): Promise<void> {
  const body = { ...LdapConfigDefaults, ...slapd.authConfig, request_timeout: 10, ...config };
  const write = await h.call('POST', '/v1/auth/ldap/config', { body });
  if (write.status !== 204) throw new Error(`config write failed: ${write.text}`);
}

async function login(username: string, password: string) {
  const res = await h.call('POST', `/v1/auth/ldap/login/${encodeURIComponent(username)}`, {
    body: { password },
    token: null,
  });
  const json = res.json as {
    auth?: { policies: string[]; metadata: { username: string }; client_token: string };
    errors?: string[];
  };
  return { status: res.status, auth: json.auth, error: json.errors?.[0] };
}

/** Waits (at most 10 s) until no server holds a connection of the login, and says what is open. */
async function settle(): Promise<number[]> {
  await vi
    .waitFor(
      () => {
        if (slow.delayed() > 0) throw new Error('answers still held');
        if (dead.open() + proxy.open() + slow.open() > 0) throw new Error('connections open');
      },
      { timeout: 10_000, interval: 50 },
    )
    .catch(() => undefined);
  return [dead.open(), proxy.open(), slow.open()];
}

describe('URLs in order within request_timeout', () => {
  it('a first server that accepts TCP and never answers (LDAPS or LDAP) does not hide a healthy one', async () => {
    await configure({ url: `${dead.url('ldaps')},${dead.url()},${proxy.url()}`, request_timeout: 6 });
    const r = await login('alice', 'alice-pw');
    expect([r.status, r.error]).toEqual([200, undefined]);
    expect(r.auth?.policies).toContain('alice-policy');
    expect(await settle()).toEqual([0, 0, 0]);
  });

  it('a login that runs out of time names every URL and leaves no LDAP connection open', async () => {
    await configure({ url: `${dead.url('ldaps')},${slow.url()}`, request_timeout: 1 });
    const acceptedBefore = slow.accepted();
    const results = await Promise.all(Array.from({ length: 6 }, () => login('alice', 'alice-pw')));
    for (const r of results) {
      expect(r.status).toBe(400);
      expect(r.error).toMatch(
        /^ldap operation failed: error connecting to host "ldaps:\/\/127\.0\.0\.1:\d+": .*within 0\.\d+s; error connecting to host "ldap:\/\/127\.0\.0\.1:\d+": did not answer within 0\.\d+s$/,
      );
    }
    // the directory's late answers reach the server after the logins are over: nothing goes on
    expect(await settle()).toEqual([0, 0, 0]);
    expect(slow.accepted() - acceptedBefore).toBe(6);
  });

  it('a client that goes away ends its login and the login’s connections at once', async () => {
    await configure({ url: dead.url(), request_timeout: 120 });
    const before = dead.accepted();
    const controller = new AbortController();
    const pending = fetch(`${h.url}/v1/auth/ldap/login/alice`, {
      method: 'POST',
      body: JSON.stringify({ password: 'alice-pw' }),
      signal: controller.signal,
    }).catch(() => undefined);
    await vi.waitFor(
      () => {
        if (dead.accepted() === before || dead.open() === 0) throw new Error('not connected yet');
      },
      { timeout: 10_000, interval: 20 },
    );
    controller.abort();
    await pending;
    // with request_timeout 120 s, only the client's going away can have closed it
    expect(await settle()).toEqual([0, 0, 0]);
  });

  it('every connection of a successful login is closed', async () => {
    await configure({ url: proxy.url(), anonymous_group_search: true });
    const r = await login('alice', 'alice-pw');
    expect(r.status).toBe(200);
    expect(await settle()).toEqual([0, 0, 0]);
    await configure({ anonymous_group_search: false });
  });
});

describe('request_timeout and what a timer holds', () => {
  it('refuses 25 days (and 2147484 s) with a 400 naming the field and the limit, storing nothing', async () => {
    await configure({ url: proxy.url(), request_timeout: 7 });
    for (const value of ['25d', 2_147_484, '596h31m24s']) {
      const res = await h.call('POST', '/v1/auth/ldap/config', { body: { request_timeout: value } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        errors: [
          `invalid value for "request_timeout": at most 2147483 seconds (the longest a timer can wait, 2^31-1 ms), got ${JSON.stringify(value)}`,
        ],
      });
    }
    const read = await h.call('GET', '/v1/auth/ldap/config');
    expect((read.json as { data: { request_timeout: number } }).data.request_timeout).toBe(7);
  });

  it('logs in with the longest request_timeout accepted', async () => {
    await configure({ url: proxy.url(), request_timeout: 2_147_483 });
    expect((await login('alice', 'alice-pw')).status).toBe(200);
  });
});

describe('usernames are the directory’s', () => {
  const modes: [string, Record<string, unknown>][] = [
    ['search then bind', {}],
    ['bind DN built from userattr', { binddn: '', bindpass: '', userattr: 'cn' }],
  ];
  for (const [mode, config] of modes) {
    it(`${mode}: "alice ", " alice" and "ALICE" log in as alice, with her policies and name`, async () => {
      await configure({ url: proxy.url(), ...config });
      const seen: unknown[] = [];
      for (const name of ['alice ', ' alice', 'ALICE', 'alice']) {
        const r = await login(name, 'alice-pw');
        const token = r.auth?.client_token ?? '';
        const lookup = await h.call('GET', '/v1/auth/token/lookup-self', { token });
        const data = (lookup.json as { data?: { display_name: string; policies: string[] } }).data;
        seen.push([name, r.status, r.auth?.metadata.username, data?.display_name, data?.policies]);
      }
      const alice = ['ldap-alice', ['alice-policy', 'default']];
      expect(seen).toEqual(['alice ', ' alice', 'ALICE', 'alice'].map((n) => [n, 200, 'alice', ...alice]));
      expect(await login('alice', 'alice-pw')).toMatchObject({ status: 200 });
    });
  }

  it('"bob " is never alice, nor anyone without a password check', async () => {
    await configure({ url: proxy.url() });
    const r = await login('bob ', 'alice-pw');
    expect(r.status).toBe(400);
  });
});
