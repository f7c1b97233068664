/**
 * Debian's Chromium for browser tests (`@sked/testkit/chromium`): where it is, the flags it needs
 * headless as root on these machines, and the apt requirement that installs it. The tests drive
 * it with playwright-core through `executablePath`; nothing downloads a browser of its own.
 *
 * @packageDocumentation
 */
import type { AptRequirement } from './apt.js';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for headless Chromium as root: no sandbox (root), no GPU, and none of the background
 * connections (updates, sync, component downloads) that this machine's closed network refuses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The apt requirement (for `ensureAptPackages` of `@sked/testkit/apt`): Debian's `chromium` package. */
export const CHROMIUM_APT: AptRequirement = {
  name: 'chromium',
  packages: ['chromium'],
  paths: [CHROMIUM_PATH],
};
