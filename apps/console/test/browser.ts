/**
 * Headless Chromium (Debian's, driven by playwright-core through `executablePath`: no browser is
 * downloaded) and a page that records what would show a broken view: console errors, uncaught
 * exceptions, failed requests and answers of 400 or more.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@sked/testkit/chromium';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Screenshots of each view, kept as test artifacts (not committed). */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Launches headless Chromium with the flags this machine needs as root, without network chatter. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 60_000,
    args: [...CHROMIUM_ARGS],
  });
}

/** A request the page made. */
export interface Sent {
  readonly method: string;
  readonly url: string;
}

/** A page and what went wrong on it since the last {@link WatchedPage.reset}. */
export interface WatchedPage {
  readonly page: Page;
  /** Every request, in order (never reset). */
  readonly sent: Sent[];
  /** Console errors, page errors, failed requests and 4xx/5xx answers since the last reset. */
  problems(): string[];
  reset(): void;
  /** Saves a screenshot of the page as `artifacts/<name>.png`. */
  screenshot(name: string): Promise<void>;
}

/**
 * Opens a page (a tab of its own: its own session storage) that records its problems. A request
 * the page itself cancels (`net::ERR_ABORTED`: a blocking query or a read of a view it leaves, a
 * read made stale by newer data) is not a failure; every other failure is.
 * @param browser - The browser.
 */
export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const sent: Sent[] = [];
  let problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => sent.push({ method: request.method(), url: request.url() }));
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    sent,
    problems: () => [...problems],
    reset: () => {
      problems = [];
    },
    screenshot: async (name) => {
      await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
    },
  };
}
