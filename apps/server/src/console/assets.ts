/**
 * The web console's built files, read into memory once when the listener starts (each compressed
 * on its first request): a request names an asset by its exact relative path and gets it from this
 * map, so no path from a request ever reaches the file system (nothing to escape from, whatever
 * `..`, `%2e%2e` or encoded slash it holds).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file of the console, ready to send. */
export interface ConsoleAsset {
  /** `Content-Type` of the answer. */
  readonly type: string;
  /** The bytes. */
  readonly body: Buffer;
  /** The bytes gzipped (level 9, on first read), when that is smaller. */
  readonly gzip: Buffer | undefined;
  /** A strong `ETag` (a hash of the bytes). */
  readonly etag: string;
  /** Whether the name carries a content hash (`assets/…`): cached for a year, never revalidated. */
  readonly immutable: boolean;
}

/** The console's files by relative path (`index.html`, `assets/app-3F2A….js`). */
export type ConsoleAssets = ReadonlyMap<string, ConsoleAsset>;

/** Content types by file extension; a file of any other extension is not served. */
const TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.txt', 'text/plain; charset=utf-8'],
]);

/** Limits of what is read: the console is a handful of small files. */
const MAX_FILES = 200;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_DEPTH = 4;

/** Where the server package keeps the built console: `<package>/ui/` (from `src/console/` or `dist/console/`). */
export function defaultConsoleDir(): string {
  return fileURLToPath(new URL('../../ui/', import.meta.url));
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * Reads the console's files: regular files (no symbolic links) of a known extension, at most
 * {@link MAX_DEPTH} folders deep, {@link MAX_FILES} files of {@link MAX_FILE_BYTES} each.
 * @param dir - The folder of the built console.
 * @returns The files by relative path (`/`-separated), or undefined when the folder has no `index.html`.
 * @throws when the folder holds more or larger files than the limits (a wrong folder).
 */
export function loadConsoleAssets(dir: string): ConsoleAssets | undefined {
  const assets = new Map<string, ConsoleAsset>();
  const walk = (folder: string, prefix: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const name = prefix + entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, `${name}/`, depth + 1);
        continue;
      }
      const type = TYPES.get(extensionOf(entry.name));
      if (!entry.isFile() || type === undefined || !lstatSync(path).isFile()) continue;
      if (assets.size >= MAX_FILES)
        throw new Error(`the console folder ${dir} holds more than ${MAX_FILES} files`);
      if (lstatSync(path).size > MAX_FILE_BYTES) {
        throw new Error(`the console file ${path} is larger than ${MAX_FILE_BYTES} bytes`);
      }
      assets.set(name, describe(readFileSync(path), type, name.startsWith('assets/')));
    }
  };
  walk(dir, '', 0);
  return assets.has('index.html') ? assets : undefined;
}

/**
 * The console with one file's bytes replaced (its type and caching kept, its ETag and gzip made anew).
 * @param assets - The console.
 * @param name - The file's relative path.
 * @param body - The new bytes.
 * @returns A new map; `assets` is unchanged.
 */
export function withAsset(assets: ConsoleAssets, name: string, body: Buffer): ConsoleAssets {
  const old = assets.get(name);
  if (old === undefined) return assets;
  return new Map([...assets, [name, describe(body, old.type, old.immutable)]]);
}

function describe(body: Buffer, type: string, immutable: boolean): ConsoleAsset {
  const compressible = type.startsWith('text/') || type === 'image/svg+xml';
  // compressed on first use, not when the server starts (level 9 over the bundle costs ~40 ms)
  let gzip: Buffer | undefined | null = compressible ? null : undefined;
  return {
    type,
    body,
    get gzip() {
      if (gzip === null) {
        const gzipped = gzipSync(body, { level: 9 });
        gzip = gzipped.byteLength < body.byteLength ? gzipped : undefined;
      }
      return gzip;
    },
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    immutable,
  };
}
