/**
 * The data dir keeps the LDAP bind password: every file of it is 0600 and the directories 0700,
 * whatever the umask, the SQLite WAL and shared-memory files included; a data dir others could read
 * is made private with a warning (issue 22 item 6).
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../secrets/config.js';
import { openDataDir } from './data-dir.js';
import { openDurable } from './index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const umask = process.umask();
afterEach(() => {
  process.umask(umask);
});

function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sked-modes-'));
  dirs.push(dir);
  return dir;
}

/** Mode (octal text) of everything in the data dir but the contents of task directories. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const name of readdirSync(dir)) out[name] = (statSync(join(dir, name)).mode & 0o777).toString(8);
  return out;
}

const BINDPASS = 'bind-secret-9f2c';

describe('modes of the data dir', () => {
  for (const mask of [0o000, 0o022, 0o002]) {
    it(`under umask ${mask.toString(8).padStart(3, '0')}: files 0600, directories 0700, the WAL holding bindpass included`, () => {
      process.umask(mask);
      const dir = join(fresh(), 'data');
      const durable = openDurable(dir);
      durable.secrets.writeConfig({ ...DEFAULT_SETTINGS, binddn: 'cn=reader', bindpass: BINDPASS });
      const wal = readFileSync(join(dir, 'state.db-wal'));
      expect(wal.includes(Buffer.from(BINDPASS))).toBe(true);
      // (no -shm file: the exclusive lock keeps the WAL index in memory; one would get the same mode)
      expect(modes(dir)).toEqual({
        '.': '700',
        'state.db': '600',
        'state.db-wal': '600',
        'sked-server.pid': '600',
        tasks: '700',
      });
      durable.close();
    });
  }

  it('makes an existing data dir of mode 0755 private and says so; its old 0644 files too', () => {
    process.umask(0o022);
    const dir = fresh();
    chmodSync(dir, 0o755);
    const first = openDataDir(dir, () => undefined);
    first.close();
    chmodSync(join(dir, 'state.db'), 0o644);
    writeFileSync(join(dir, 'sked-server.pid'), '1\n');
    chmodSync(join(dir, 'sked-server.pid'), 0o644);
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    const again = openDurable(dir, undefined, { warn: (message) => void warnings.push(message) });
    again.secrets.writeConfig({ ...DEFAULT_SETTINGS, bindpass: BINDPASS });
    expect(modes(dir)).toMatchObject({
      '.': '700',
      'state.db': '600',
      'state.db-wal': '600',
      'sked-server.pid': '600',
    });
    expect(warnings).toEqual([
      `the data dir ${JSON.stringify(dir)} was open to other users (mode 0755); it is now 0700. It holds the LDAP bind password and the mesh secrets: check who could read it.`,
      `files of the data dir ${JSON.stringify(dir)} were open to other users: state.db (0644), sked-server.pid (0644); they are now 0600`,
    ]);
    again.close();
  });

  it('says nothing about a data dir that is already private', () => {
    const dir = fresh();
    chmodSync(dir, 0o700);
    mkdirSync(join(dir, 'tasks'), { mode: 0o700 });
    const warnings: string[] = [];
    openDataDir(dir, (message) => void warnings.push(message)).close();
    openDataDir(dir, (message) => void warnings.push(message)).close();
    expect(warnings).toEqual([]);
  });
});
