/**
 * Makes sure Debian's chromium is there (installed with apt when missing, as root; the tests never
 * download a browser of their own) before the browser tests start.
 */
import { ensureAptPackages } from '@sked/testkit/apt';
import { CHROMIUM_APT } from '@sked/testkit/chromium';

export default async function setup(): Promise<void> {
  await ensureAptPackages(CHROMIUM_APT);
}
