/**
 * The console's routes: a path under `/ui/` is a view, its query the view's state (namespace,
 * filter, topics), so every view can be shared by its address. History API, no library.
 */
import { useEffect, useState } from 'preact/hooks';

/** The views of the console. */
export type View = 'jobs' | 'job' | 'events' | 'secrets' | 'mesh' | 'not-found';

/** A location read as a view. */
export interface Route {
  readonly view: View;
  /** The job of the `job` view. */
  readonly jobId?: string;
  /** The query of the address. */
  readonly params: URLSearchParams;
}

/**
 * Reads a path and query as a route: `/ui/` and `/ui/jobs` the jobs, `/ui/jobs/<ID>` a job (the ID
 * encoded as one segment; `/ui/jobs?job=<ID>` for an ID a path cannot hold, see {@link jobHref}),
 * `/ui/events`, `/ui/secrets`, `/ui/mesh`.
 * @param pathname - The path, `/ui/...`.
 * @param search - The query, with or without `?`.
 * @returns The route.
 */
export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const rest = pathname.replace(/^\/ui\/?/, '').replace(/\/$/, '');
  const [first = '', ...more] = rest.split('/');
  const queried = params.get('job');
  if (first === 'jobs' && more.length === 0 && queried !== null && queried !== '') {
    return { view: 'job', jobId: queried, params };
  }
  if (first === '' || (first === 'jobs' && more.length === 0)) return { view: 'jobs', params };
  if (first === 'jobs' && more.length === 1) {
    try {
      return { view: 'job', jobId: decodeURIComponent(more[0] ?? ''), params };
    } catch {
      return { view: 'not-found', params };
    }
  }
  if ((first === 'events' || first === 'secrets' || first === 'mesh') && more.length === 0) {
    return { view: first, params };
  }
  return { view: 'not-found', params };
}

/**
 * The address of a view with its query (empty values left out).
 * @param path - `/ui/...`.
 * @param query - Parameters; arrays repeat the name.
 * @returns The address.
 */
export function href(
  path: string,
  query: Record<string, string | readonly string[] | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of typeof value === 'string' ? [value] : (value ?? [])) {
      if (one !== '') params.append(name, one);
    }
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * The address of a job's page. An ID of dots alone (`.`, `..`) is no path segment: a URL drops or
 * climbs it, encoded or not (`%2E` is a dot to the URL standard), so it goes in the query instead.
 * @param id - The job ID (may hold `/`, as a dispatched job's does).
 * @param namespace - Its namespace.
 * @returns `/ui/jobs/<ID>?namespace=<ns>`, or `/ui/jobs?job=<ID>&namespace=<ns>`.
 */
export function jobHref(id: string, namespace: string): string {
  if (id === '.' || id === '..') return href('/ui/jobs', { job: id, namespace });
  return href(`/ui/jobs/${encodeURIComponent(id)}`, { namespace });
}

const NAVIGATED = 'sked:navigate';

/**
 * Goes to an address of the console without loading the page again.
 * @param to - The address.
 * @param replace - Replace the current history entry (a view's state changing) instead of adding one.
 */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  dispatchEvent(new Event(NAVIGATED));
}

/** The current route, updated on every navigation (links, back and forward). */
export function useRoute(): Route {
  const read = (): Route => parseRoute(location.pathname, location.search);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = (): void => setRoute(read());
    addEventListener('popstate', update);
    addEventListener(NAVIGATED, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(NAVIGATED, update);
    };
  }, []);
  return route;
}

/**
 * A click handler for links of the console: a plain left click navigates in place, a click with a
 * modifier (new tab, new window) is the browser's.
 * @param event - The click.
 */
export function followLink(event: MouseEvent): void {
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? undefined;
  if (anchor === undefined || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(anchor.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/ui/')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}
