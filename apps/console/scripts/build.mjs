// Builds the console into dist/: index.html, favicon.svg, and assets/app-<hash>.js and .css (one
// bundle: esbuild, platform browser, minified; Preact's JSX). The names carry a hash of their
// content, so the server can let browsers keep them for a year. `--metafile PATH` also writes
// esbuild's metafile (what went into the bundle) for a look with `esbuild --analyze` or a viewer.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
rmSync(dist, { recursive: true, force: true });
mkdirSync(new URL('assets/', dist), { recursive: true });

const result = await build({
  entryPoints: {
    app: new URL('src/main.tsx', root).pathname,
    style: new URL('src/styles.css', root).pathname,
  },
  outdir: new URL('assets/', dist).pathname,
  entryNames: '[name]-[hash]',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  // browsers of the last two years (fetch streams, <dialog>, AbortSignal.any, Object.groupBy)
  target: ['chrome120', 'firefox121', 'safari17.4'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  metafile: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const js = outputs.find((name) => name.endsWith('.js'));
const css = outputs.find((name) => name.endsWith('.css'));
if (js === undefined || css === undefined)
  throw new Error(`console build: no script or style in ${outputs.join(', ')}`);
const page = readFileSync(new URL('src/index.html', root), 'utf8')
  .replace('%APP_JS%', `/ui/assets/${js}`)
  .replace('%APP_CSS%', `/ui/assets/${css}`);
writeFileSync(new URL('index.html', dist), page);
copyFileSync(new URL('src/favicon.svg', root), new URL('favicon.svg', dist));

const metafile = process.argv.indexOf('--metafile');
if (metafile >= 0) writeFileSync(process.argv[metafile + 1], JSON.stringify(result.metafile));
