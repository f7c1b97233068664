import { ensureAptPackages } from '@sked/testkit/apt';

/** The shells whose completion the tests drive, by absolute path. */
export const SHELLS = {
  bash: '/bin/bash',
  zsh: '/usr/bin/zsh',
  fish: '/usr/bin/fish',
} as const;

/** Debian's bash-completion, which the bash script needs (as cobra's do). */
export const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/**
 * Makes sure bash (with Debian's bash-completion), zsh and fish are installed, with apt when
 * missing (`apt-get -o DPkg::Lock::Timeout=300 install --no-install-recommends`, once across
 * test processes); nothing to do when they are there.
 */
export function ensureShells(): Promise<void> {
  return ensureAptPackages({
    name: 'shells',
    packages: ['bash', 'bash-completion', 'zsh', 'fish'],
    paths: [...Object.values(SHELLS), BASH_COMPLETION],
  });
}
