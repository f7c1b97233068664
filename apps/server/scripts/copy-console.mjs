// Copies the built web console (apps/console/dist) into this package's ui/ folder, which the
// published tarball ships (`files`) and the server serves at /ui/ (src/console/). turbo builds the
// console first (turbo.json: @sked/server#build depends on @sked/console#build).
import { cpSync, existsSync, rmSync } from 'node:fs';

const from = new URL('../../console/dist/', import.meta.url);
const to = new URL('../ui/', import.meta.url);
if (!existsSync(new URL('index.html', from))) {
  console.error(
    'sked-server build: the web console is not built (apps/console/dist/index.html is missing): run turbo run build --filter=@sked/server...',
  );
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
