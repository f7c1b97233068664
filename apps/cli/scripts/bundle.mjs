// Bundles the built CLI (dist/main.js and everything it imports, the sibling @sked/* clients and
// the third-party libraries included) into one file, dist/sked.js, which the `sked` bin runs:
// one file to read and compile instead of hundreds, at build (and so pack) time, never at install.
// @sked/hcl stays a dependency (its parser is a WebAssembly file it loads from its own directory).
import { build } from 'esbuild';

const LAZY_WS = new URL('./lazy-ws.mjs', import.meta.url).pathname;

/**
 * `import WebSocket from 'ws'` (the exec session's) gets scripts/lazy-ws.mjs, which loads ws on
 * first use; its `require('ws')` is resolved from the directory of the module that imported ws.
 */
const lazyWs = {
  name: 'lazy-ws',
  setup(build) {
    let wsDir;
    build.onResolve({ filter: /^ws$/ }, (args) => {
      if (args.importer === LAZY_WS)
        return build.resolve('ws', { kind: 'require-call', resolveDir: wsDir ?? args.resolveDir });
      if (args.kind !== 'import-statement') return undefined;
      wsDir = args.resolveDir;
      return { path: LAZY_WS };
    });
  },
};

await build({
  entryPoints: [new URL('../dist/bundle-entry.js', import.meta.url).pathname],
  outfile: new URL('../dist/sked.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['@sked/hcl'],
  plugins: [lazyWs],
  // CommonJS libraries inside an ES module bundle call require: give them Node's
  banner: {
    js: "import { createRequire as __skedCreateRequire } from 'node:module';\nconst require = __skedCreateRequire(import.meta.url);",
  },
  // smaller to read and parse; identifiers keep their names (error classes, stack traces)
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
