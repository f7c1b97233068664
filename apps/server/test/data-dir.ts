import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../src/wiring/server.js';

/** Throwaway data directories and servers started on them (see {@link dataDirServers}). */
export interface DataDirServers {
  /** A new empty directory under the system's temporary directory. */
  readonly freshDir: () => string;
  /** Starts a server with the file's options on `dataDir`. */
  readonly start: (dataDir: string) => Promise<RunningServer>;
}

/**
 * The `--data-dir` tests' fixture: directories named `<prefix>XXXXXX` and servers started with
 * `options` on them; after the test file every server is closed and every directory removed.
 * @param prefix - Name prefix of the directories.
 * @param options - Options of every server (the data directory is added).
 */
export function dataDirServers(prefix: string, options: StartServerOptions): DataDirServers {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    freshDir: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    start: async (dataDir) => {
      const server = await startServer({ ...options, dataDir });
      servers.push(server);
      return server;
    },
  };
}
