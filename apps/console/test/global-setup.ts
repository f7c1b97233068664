/**
 * Makes sure Debian's chromium is there (installed with apt when missing, as root; the tests never
 * download a browser of their own) before the browser tests start.
 */
import { ensureAptPackages } from '@sked/testkit/apt';

export default async function setup(): Promise<void> {
  await ensureAptPackages({ name: 'chromium', packages: ['chromium'], paths: ['/usr/bin/chromium'] });
}
