import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ensureAptPackages, missingPaths, type AptRequirement } from './apt.js';

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
});
