/**
 * What the transport needs of Node.js alone: reading the TLS files, and undici's `Agent` and `fetch`
 * to carry TLS settings. A browser build gets `platform-browser.ts` instead (the package's
 * `#platform` import, `browser` condition), which has none of Node's modules in its graph.
 */
import { readFileSync } from 'node:fs';

import { Agent, fetch as undiciFetch } from 'undici';

import type { FetchLike } from './config.js';

/**
 * Reads a text file (a PEM file named by a TLS option).
 * @param file - Path of the file.
 * @returns Its text (UTF-8).
 * @throws the file system's error (with its `code`) when it cannot be read.
 * @internal
 */
export function readTextFile(file: string): string {
  return readFileSync(file, 'utf8');
}

/**
 * Creates the undici dispatcher that carries a transport's TLS settings.
 * @param connect - undici's `connect` options (`ca`, `cert`, `key`, `rejectUnauthorized`).
 * @returns The dispatcher.
 * @internal
 */
export function createTlsDispatcher(connect: Readonly<Record<string, unknown>>): Agent {
  return new Agent({ connect });
}

/** The fetch that honours a dispatcher (undici's own). @internal */
export const dispatcherFetch: FetchLike = undiciFetch as unknown as FetchLike;
