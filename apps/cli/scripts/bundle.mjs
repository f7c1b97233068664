// Bundles the built CLI (dist/main.js and everything it imports, the sibling @sked/* clients and
// the third-party libraries included) into one file, dist/sked.js, which the `sked` bin runs:
// one file to read and compile instead of hundreds, at build (and so pack) time, never at install.
// @sked/hcl stays a dependency (its parser is a WebAssembly file it loads from its own directory).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../dist/main.js', import.meta.url).pathname],
  outfile: new URL('../dist/sked.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['@sked/hcl'],
  // CommonJS libraries inside an ES module bundle call require: give them Node's
  banner: {
    js: "import { createRequire as __skedCreateRequire } from 'node:module';\nconst require = __skedCreateRequire(import.meta.url);",
  },
  // smaller to read and parse; identifiers keep their names (error classes, stack traces)
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
