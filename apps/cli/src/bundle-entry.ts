// The entry of the `sked.js` bundle (scripts/bundle.mjs), which the `sked` bin imports once it has
// checked the Node version, answered `--version` and turned the compile cache on (bin/launch.js).
// Its import is static, so the modules every command needs are at the bundle's top level rather
// than behind esbuild's lazy-module wrappers.
import { run } from './run.js';

await run(process.argv.slice(2));
