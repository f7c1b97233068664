// Bundles the built CLI (dist/bundle-entry.js and everything it imports, the sibling @sked/* clients
// and the third-party libraries included) into dist/sked.js, which the `sked` bin runs, and the
// dist/sked-chunk-*.js files it loads on demand: a few files to read and compile instead of
// hundreds, at build (and so pack) time, never at install.
// @sked/hcl stays a dependency (its parser is a WebAssembly file it loads from its own directory).
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const DIST = new URL('../dist/', import.meta.url).pathname;
// chunks of an earlier build (their names carry a hash) must not be packed
for (const file of readdirSync(DIST)) if (file.startsWith('sked-chunk-')) rmSync(DIST + file);

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

/**
 * The scheduling client needs only `printFilter` of `@sked/filter` (a filter built in code, sent
 * as text); importing the package's index would build its parser (chevrotain's grammar, re2js) at
 * every start. Its import gets the printer's module alone; the parser stays with `sked filter`'s
 * dynamic import. A build that fails here ("No matching export") means the client imports more.
 */
const filterPrinterOnly = {
  name: 'filter-printer-only',
  setup(build) {
    build.onResolve({ filter: /^@sked\/filter$/ }, async (args) => {
      if (args.kind !== 'import-statement' || !args.importer.includes('/scheduler-client/')) return undefined;
      const index = await build.resolve('@sked/filter', {
        kind: 'import-statement',
        resolveDir: args.resolveDir,
      });
      if (index.errors.length > 0 || !index.path.endsWith('/dist/index.js')) return undefined;
      return { path: index.path.replace(/index\.js$/, 'print.js') };
    });
  },
};

await build({
  entryPoints: [new URL('../dist/bundle-entry.js', import.meta.url).pathname],
  outdir: DIST,
  // what only some commands need (the filter parser, the HCL bridge, undici for TLS, a password
  // prompt, progress output) goes to chunks loaded by their dynamic imports, so the file every
  // command reads and compiles is small; modules shared by both stay plain ES modules, not
  // esbuild's lazy wrappers (whose bodies V8 compiles anew at every start)
  splitting: true,
  entryNames: 'sked',
  chunkNames: 'sked-chunk-[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['@sked/hcl'],
  plugins: [lazyWs, filterPrinterOnly],
  // CommonJS libraries inside an ES module bundle call require: give them Node's
  banner: {
    js: "import { createRequire as __skedCreateRequire } from 'node:module';\nconst require = __skedCreateRequire(import.meta.url);",
  },
  // smaller to read and parse; identifiers keep their names (error classes, stack traces)
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
