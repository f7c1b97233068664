/**
 * Bundles a published package for the browser with esbuild, as a web app would: platform
 * `browser`, ESM, minified. A Node built-in anywhere in the graph fails the build.
 */
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** A built bundle and its sizes. */
export interface Bundle {
  readonly code: string;
  readonly minifiedBytes: number;
  readonly gzippedBytes: number;
  /** Every module that went into the bundle. */
  readonly inputs: string[];
}

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** The imports of a metafile that name a Node built-in (none for a browser-safe bundle). */
export function nodeImports(metafile: Metafile): string[] {
  const out = new Set<string>();
  for (const input of Object.values(metafile.inputs)) {
    for (const imported of input.imports) if (nodeBuiltins.has(imported.path)) out.add(imported.path);
  }
  return [...out].sort();
}

/**
 * Bundles `entry` (a file, or a package name resolved from `resolveDir`) for the browser.
 * @param format - `esm` for a library bundle, `iife` for a script a page runs.
 */
export async function bundleForBrowser(
  entry: { readonly contents: string; readonly resolveDir: string },
  format: 'esm' | 'iife' = 'esm',
): Promise<Bundle & { readonly nodeImports: string[] }> {
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    platform: 'browser',
    format,
    target: 'es2023',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  return {
    code,
    minifiedBytes: Buffer.byteLength(code),
    gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
    inputs: Object.keys(result.metafile.inputs),
    nodeImports: nodeImports(result.metafile),
  };
}

/**
 * Reads the browser bundle line of a README: `Browser bundle ... **N kB** min+gzip ... budget **B kB**`.
 * @returns The stated size and the budget in kB (1000 bytes), or undefined when the line is missing.
 */
export function readBudget(readme: string): { stated: number; budget: number } | undefined {
  const match =
    /Browser bundle[\s\S]{0,300}?\*\*([\d.]+) kB\*\*[\s\S]{0,200}?budget[\s\S]{0,100}?\*\*([\d.]+) kB\*\*/.exec(
      readme,
    );
  if (match === null) return undefined;
  return { stated: Number(match[1]), budget: Number(match[2]) };
}
