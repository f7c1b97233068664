import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { aptGet, ensureAptPackages, missingPaths, type AptRequirement } from './apt.js';

const SHELLS: AptRequirement = {
  name: 'shells',
  packages: ['zsh', 'fish'],
  paths: ['/usr/bin/zsh', '/usr/bin/fish'],
};

describe('ensureAptPackages', () => {
  it('makes the README example true: zsh and fish are there afterwards', async () => {
    await ensureAptPackages({
      name: 'shells',
      packages: ['zsh', 'fish'],
      paths: ['/usr/bin/zsh', '/usr/bin/fish'],
    });
    expect(existsSync('/usr/bin/zsh') && existsSync('/usr/bin/fish')).toBe(true);
    expect(missingPaths(SHELLS)).toEqual([]);
  });

  it('answers callers of one requirement with one installation', () => {
    expect(ensureAptPackages(SHELLS)).toBe(ensureAptPackages(SHELLS));
  });

  it('lists what is missing', () => {
    expect(
      missingPaths({ name: 'x', packages: [], paths: ['/bin/sh', '/nonexistent/sked-apt-test'] }),
    ).toEqual(['/nonexistent/sked-apt-test']);
  });

  it('waits for a lock of the package lists that another process holds, as apt-get update does', async () => {
    // apt takes fcntl locks; `apt-get clean` needs the lists' lock and fails at once while it is held
    const holder = spawn(
      'python3',
      [
        '-c',
        "import fcntl,sys,time; f=open('/var/lib/apt/lists/lock','w'); fcntl.lockf(f, fcntl.LOCK_EX); " +
          "print('held', flush=True); time.sleep(1.5)",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('error', reject);
    });
    try {
      await expect(aptGet(['clean'], 0)).rejects.toMatchObject({
        stderr: expect.stringMatching(/Could not get lock/),
      });
      const started = Date.now();
      await aptGet(['clean']);
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeGreaterThan(500);
    } finally {
      holder.kill();
    }
  });

  it('does not wait when apt-get fails for another reason', async () => {
    await expect(aptGet(['no-such-command'])).rejects.toMatchObject({
      stderr: expect.stringContaining('no-such-command'),
    });
  });
});
