/**
 * The web console's part of the server: its built files and page on the scheduling listener, and
 * the way from there to the secrets and mesh listeners. Imports only `http/` (see the layering).
 */
import type { FastifyInstance } from 'fastify';
import { defaultConsoleDir, loadConsoleAssets } from './assets.js';
import { registerConsoleProxy, type ConsoleUpstreams } from './proxy.js';
import { registerConsoleRoutes } from './routes.js';

export type { ConsoleAsset, ConsoleAssets } from './assets.js';
export type { ConsoleUpstreams } from './proxy.js';
export { CONSOLE_CSP, CONSOLE_VIEWS, settlePage, type ConsolePageSettings } from './routes.js';

/** Options of {@link registerConsole}. */
export interface ConsoleOptions {
  /** The other listeners the console reaches through this one. */
  readonly upstreams: ConsoleUpstreams;
  /** Whether the server checks ACL tokens (the page then asks for one first). @defaultValue false */
  readonly acl?: boolean | undefined;
  /** The folder of the built console. @defaultValue the package's `ui/` */
  readonly dir?: string | undefined;
}

/**
 * Serves the web console on a listener (`/`, `/ui/…`, `/ui/api/{secrets,mesh}/…`).
 * @param app - The scheduling listener's app, before it listens.
 * @param options - The other listeners and the folder of the built console.
 * @throws when the folder holds more or larger files than a console has.
 */
export function registerConsole(app: FastifyInstance, options: ConsoleOptions): void {
  registerConsoleRoutes(app, loadConsoleAssets(options.dir ?? defaultConsoleDir()), {
    acl: options.acl ?? false,
  });
  registerConsoleProxy(app, options.upstreams);
}
