import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';
import { serverImports, show, SRC, type Import } from '../test/imports.js';

/**
 * The layering of the server's parts (see the README, Architecture), checked on the source:
 *
 * - `defaults.ts` imports nothing; `http/` (the shared plumbing) imports nothing but itself and
 *   `defaults.ts`;
 * - a service (`scheduler/`, `secrets/`, `mesh/`) imports none of the others, nor the data dir
 *   adapter (`durable/`) nor the root; what one needs of another (the mesh: the ACL; the scheduler:
 *   the secrets token lookup) is an interface of its own that the root hands over;
 * - the web console's part (`console/`: its files and the way to the other listeners) imports only
 *   `http/`, `defaults.ts` and itself; the root registers it on the scheduling listener;
 * - only the root (`wiring/`, and the entry points `main.ts` and `index.ts`) imports `durable/`
 *   and `wiring/`, and imports more than one service (`durable/`, the data dir behind the three
 *   services' stores, reads their store modules; the root alone opens it).
 *
 * A new import that breaks a rule fails here with the file and the import named.
 */
const all = serverImports();
const part = (path: string): string => {
  const first = path.split('/')[0] ?? '';
  return first.endsWith('.ts') ? first.slice(0, -3) : first;
};
const SERVICES = ['scheduler', 'secrets', 'mesh'];
const ROOT = ['wiring', 'main', 'index'];
const crossing = (i: Import): boolean => part(i.from) !== part(i.to);

describe('the server import layering', () => {
  it('finds the imports it checks', () => {
    expect(all.filter((i) => part(i.from) === 'wiring' && crossing(i)).length).toBeGreaterThan(5);
    expect(all.filter((i) => part(i.from) === 'http').length).toBeGreaterThan(5);
    expect(SERVICES.every((s) => all.some((i) => part(i.from) === s && part(i.to) === 'http'))).toBe(true);
  });

  it('defaults.ts is a leaf', () => {
    expect(show(all.filter((i) => i.from === 'defaults.ts'))).toEqual([]);
  });

  it('http/ imports no service, no root, nothing but itself and defaults.ts', () => {
    const bad = all.filter((i) => part(i.from) === 'http' && !['http', 'defaults'].includes(part(i.to)));
    expect(show(bad)).toEqual([]);
  });

  it('a service imports no other service, not even a type', () => {
    const bad = all.filter(
      (i) => SERVICES.includes(part(i.from)) && SERVICES.includes(part(i.to)) && crossing(i),
    );
    expect(show(bad)).toEqual([]);
  });

  it('a service imports only http/, defaults.ts and itself', () => {
    const bad = all.filter(
      (i) => SERVICES.includes(part(i.from)) && ![part(i.from), 'http', 'defaults'].includes(part(i.to)),
    );
    expect(show(bad)).toEqual([]);
  });

  it('console/ imports only http/, defaults.ts and itself, and only the root imports it', () => {
    expect(all.some((i) => part(i.from) === 'console' && part(i.to) === 'http')).toBe(true);
    const bad = all.filter(
      (i) =>
        (part(i.from) === 'console' && !['console', 'http', 'defaults'].includes(part(i.to))) ||
        (part(i.to) === 'console' && crossing(i) && !ROOT.includes(part(i.from))),
    );
    expect(show(bad)).toEqual([]);
  });

  it('only the root imports durable/ and wiring/', () => {
    const bad = all.filter(
      (i) => ['durable', 'wiring'].includes(part(i.to)) && crossing(i) && !ROOT.includes(part(i.from)),
    );
    expect(show(bad)).toEqual([]);
  });

  it('only the root imports more than one service', () => {
    const services = new Map<string, Set<string>>();
    for (const i of all) {
      if (!SERVICES.includes(part(i.to))) continue;
      const seen = services.get(i.from) ?? new Set<string>();
      seen.add(part(i.to));
      services.set(i.from, seen);
    }
    const bad = [...services]
      .filter(([from, seen]) => seen.size > 1 && !ROOT.includes(part(from)) && part(from) !== 'durable')
      .map(([from, seen]) => `${from} -> ${[...seen].join(', ')}`);
    expect(bad).toEqual([]);
  });
});

/**
 * ARCHITECTURE.md at the repository root is the map a newcomer reads: it stays true. Every path it
 * names exists, and every package and every source folder of the repository is named in it.
 */
describe('ARCHITECTURE.md', () => {
  const repo = resolve(SRC, '../../..');
  const text = readFileSync(join(repo, 'ARCHITECTURE.md'), 'utf8');
  const TOP = ['packages', 'apps', 'tests'];
  const named = [...text.matchAll(/(?<![\w/.-])((?:packages|apps|tests|docs|scripts)\/[\w./-]*)/g)]
    .map((m) => m[1] ?? '')
    .map((path) => path.replace(/[.,]+$/, ''));
  const sourceDirs = (dir: string): string[] =>
    readdirSync(join(repo, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !['node_modules', 'fixtures', 'dist'].includes(e.name))
      .flatMap((e) => [`${dir}/${e.name}/`, ...sourceDirs(`${dir}/${e.name}`)]);
  const packages = TOP.flatMap((top) =>
    readdirSync(join(repo, top), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(repo, top, e.name, 'package.json')))
      .map((e) => `${top}/${e.name}/`),
  );

  it('names paths, and every one it names exists', () => {
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((path) => !existsSync(join(repo, path)))).toEqual([]);
  });

  it('names every package of the workspace', () => {
    expect(packages.length).toBeGreaterThan(10);
    expect(packages.filter((dir) => !named.includes(dir))).toEqual([]);
  });

  it('names every source folder', () => {
    const dirs = packages.flatMap((dir) =>
      existsSync(join(repo, dir, 'src')) ? [`${dir}src/`, ...sourceDirs(`${dir}src`)] : [],
    );
    expect(dirs.length).toBeGreaterThan(40);
    expect(dirs.filter((dir) => !named.includes(dir))).toEqual([]);
  });
});
