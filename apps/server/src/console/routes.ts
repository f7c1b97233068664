/**
 * The web console on the scheduling listener: `GET /` redirects to `/ui/`, `/ui/` and the console's
 * views answer its page, `/ui/<file>` its built files (from memory, see ./assets.ts), with content
 * types, caching headers and a content security policy that lets the page talk to its own origin
 * only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptsGzip } from '../http/app.js';
import { HttpError } from '../http/errors.js';
import { withAsset, type ConsoleAsset, type ConsoleAssets } from './assets.js';

/** The first path segments of the console's own views (`/ui/jobs/web`): each answers the page. */
export const CONSOLE_VIEWS: readonly string[] = ['jobs', 'events', 'secrets', 'mesh'];

/**
 * The page's policy: scripts, styles, images and requests from its own origin only (the API it
 * calls is the listener that served it), no framing, no plugins, no `<base>`.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NOT_BUILT =
  'The web console is not part of this build of sked-server: build apps/console, then the server (turbo run build)';

/** The path of a request, without its query, as it arrived (nothing decoded). */
function rawPath(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function send(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset): FastifyReply {
  void reply
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('etag', asset.etag)
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('vary', 'accept-encoding');
  if (asset.type.startsWith('text/html')) {
    void reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-opener-policy', 'same-origin');
  }
  const match = request.headers['if-none-match'];
  if (match !== undefined && match.split(',').some((tag) => tag.trim() === asset.etag)) {
    return reply.code(304).send();
  }
  void reply.code(200).type(asset.type);
  if (asset.gzip !== undefined && acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}

/** What the page is told of the server (a `<meta>` of its head), so that it asks before it fails. */
export interface ConsolePageSettings {
  /** Whether the server checks ACL tokens: the page asks for one before its first request. */
  readonly acl: boolean;
}

/**
 * The page with the server's settings in its head: `<meta name="sked-acl" content="on|off">`.
 * @param page - The built `index.html`.
 * @param settings - The settings.
 * @returns The page to serve.
 */
export function settlePage(page: string, settings: ConsolePageSettings): string {
  const meta = `<meta name="sked-acl" content="${settings.acl ? 'on' : 'off'}" />`;
  return page.replace(/<\/head>/i, `  ${meta}\n  </head>`);
}

/**
 * Registers the console's routes on a listener.
 * @param app - The scheduling listener's app, before it listens.
 * @param built - The built console, or undefined when this build has none (its paths answer 404
 *   saying so).
 * @param settings - What the page is told of the server.
 */
export function registerConsoleRoutes(
  app: FastifyInstance,
  built: ConsoleAssets | undefined,
  settings: ConsolePageSettings,
): void {
  const index = built?.get('index.html');
  const assets =
    built === undefined || index === undefined
      ? built
      : withAsset(built, 'index.html', Buffer.from(settlePage(index.body.toString('utf8'), settings)));
  app.get('/', async (_request, reply) => {
    if (assets === undefined) throw new HttpError(404, NOT_BUILT);
    return reply.code(307).header('location', '/ui/').type('text/plain; charset=utf-8').send('/ui/');
  });
  // `/ui` and `/ui/` (the listener ignores a trailing slash in routing; the raw path tells them apart)
  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (assets === undefined) throw new HttpError(404, NOT_BUILT);
    const path = rawPath(request);
    if (path === '/ui') {
      return reply.code(307).header('location', '/ui/').type('text/plain; charset=utf-8').send('/ui/');
    }
    const name = path.slice('/ui/'.length);
    const page = assets.get('index.html');
    // a file by its exact name, as the build wrote it: no decoding, no normalising, no file system
    const file = name === '' ? page : assets.get(name);
    if (file !== undefined) return send(request, reply, file);
    // a view of the single-page console (the rest of the path is the page's to read)
    const view = name.split('/')[0] ?? '';
    if (page !== undefined && CONSOLE_VIEWS.includes(view)) return send(request, reply, page);
    throw new HttpError(404, 'resource not found');
  };
  app.get('/ui', serve);
  app.get('/ui/*', serve);
}
