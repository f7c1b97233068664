/**
 * Finds broken links in a built static site: every `href`/`src` of every HTML page that points
 * inside the site must name a file that exists, and a `#fragment` must name an element id of
 * that page.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Every `.html` file under `root`, relative to it. */
export function htmlPages(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...htmlPages(root, path));
    else if (name.endsWith('.html')) out.push(relative(root, path));
  }
  return out.sort();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** The ids defined in an HTML text (`id` and `name` attributes). */
export function idsOf(html: string): Set<string> {
  return new Set(
    [...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((match) => decodeEntities(match[1] ?? '')),
  );
}

/** What the crawl found. */
export interface LinkReport {
  readonly pages: number;
  readonly internalLinks: number;
  /** `page -> target (reason)` for every broken link. */
  readonly broken: string[];
  /** Links that leave the site (not fetched: the machine has no network beyond the registries). */
  readonly external: string[];
}

/** Checks every link of every page under `root`. */
export function checkLinks(root: string): LinkReport {
  const pages = htmlPages(root);
  const ids = new Map<string, Set<string>>();
  const idsFor = (page: string): Set<string> => {
    let set = ids.get(page);
    if (set === undefined) {
      set = idsOf(readFileSync(join(root, page), 'utf8'));
      ids.set(page, set);
    }
    return set;
  };
  const broken: string[] = [];
  const external = new Set<string>();
  let internalLinks = 0;
  for (const page of pages) {
    const html = readFileSync(join(root, page), 'utf8');
    for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const raw = decodeEntities(match[1] ?? '');
      if (/^(mailto:|javascript:|data:)/i.test(raw)) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) {
        external.add(raw);
        continue;
      }
      internalLinks += 1;
      const [pathPart = '', fragment] = raw.split('#', 2);
      const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
      const target = path === '' ? page : relative(root, join(root, dirname(page), path));
      if (target.startsWith('..')) {
        broken.push(`${page} -> ${raw} (outside the site)`);
        continue;
      }
      const file = join(root, target);
      if (!existsSync(file)) {
        broken.push(`${page} -> ${raw} (no such file)`);
        continue;
      }
      if (
        fragment !== undefined &&
        fragment !== '' &&
        target.endsWith('.html') &&
        !idsFor(target).has(decodeURIComponent(fragment))
      ) {
        broken.push(`${page} -> ${raw} (no element #${fragment})`);
      }
    }
  }
  return { pages: pages.length, internalLinks, broken, external: [...external].sort() };
}
