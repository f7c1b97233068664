/**
 * Debian's `chromium`, headless, driven by playwright-core (which never downloads a browser of its
 * own here: `executablePath` points at the system one).
 */
import { chromium, type Browser } from 'playwright-core';

/** Where Debian installs it (`tests/release/scripts/ensure-chromium.sh` installs it when missing). */
export const chromiumPath = '/usr/bin/chromium';

/** A launched browser (playwright gives it a fresh temporary profile, removed on close). */
export interface HeadlessChromium {
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Launches headless Chromium with the flags TOOLCHAIN.md lists for root on this machine. */
export async function launchChromium(): Promise<HeadlessChromium> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}
