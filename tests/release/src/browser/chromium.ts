/**
 * Debian's `chromium`, headless, driven by playwright-core (which never downloads a browser of its
 * own here: `executablePath` points at the system one).
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@sked/testkit/chromium';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian installs it (the global set-up installs it when missing). */
export const chromiumPath = CHROMIUM_PATH;

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
    args: [...CHROMIUM_ARGS],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}
