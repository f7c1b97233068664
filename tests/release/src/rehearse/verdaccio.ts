/**
 * A throwaway private npm registry: verdaccio on a free loopback port, storage in a temporary
 * directory, `@sked/*` served only from what is published to it (never proxied), everything else
 * proxied from the npm registry the machine uses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@sked/testkit/net';
import { spawnGroup } from '../run.ts';
import { repoRoot } from '../workspace.ts';

/** A running registry. */
export interface Registry {
  readonly url: string;
  /** A token of a user created on it, for publishing. */
  readonly token: string;
  output(): string;
  close(): Promise<void>;
}

function config(storage: string, uplink: string): string {
  return [
    `storage: ${storage}`,
    'auth:',
    '  htpasswd:',
    `    file: ${join(storage, 'htpasswd')}`,
    '    max_users: 10',
    'uplinks:',
    '  npmjs:',
    `    url: ${uplink}`,
    '    timeout: 60s',
    '    max_fails: 20',
    '    fail_timeout: 1s',
    'packages:',
    "  '@sked/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: npmjs',
    'server:',
    '  keepAliveTimeout: 60',
    'log: { type: stdout, format: pretty, level: warn }',
    'publish:',
    '  allow_offline: true',
    '',
  ].join('\n');
}

/** Starts verdaccio in `dir` (its storage and config) and creates a user to publish with. */
export async function startRegistry(dir: string, uplink: string, timeoutMs = 90_000): Promise<Registry> {
  const storage = join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, config(storage, uplink));
  const bin = join(repoRoot, 'tests/release/node_modules/verdaccio/bin/verdaccio');
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const { child, output, close } = spawnGroup(
      process.execPath,
      [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
      { env: { ...process.env, NODE_ENV: 'production' }, graceMs: 5_000 },
    );
    const deadline = Date.now() + timeoutMs;
    let ready = false;
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        const response = await fetch(`${url}-/ping`);
        if (response.ok) {
          ready = true;
          break;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!ready) {
      await close();
      // another process took the port between the probe and verdaccio's listen: try another
      if (attempt < 3 && /EADDRINUSE/.test(output())) continue;
      throw new Error(`verdaccio did not start on ${url}:\n${output()}`);
    }
    const user = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'rehearsal', password: `pw-${process.pid}-${Date.now()}`, type: 'user' }),
    });
    const { token } = (await user.json()) as { token?: string };
    if (!user.ok || token === undefined) {
      await close();
      throw new Error(`verdaccio refused to create the publishing user (${user.status}):\n${output()}`);
    }
    return { url, token, output, close };
  }
}
