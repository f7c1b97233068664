// The release, rehearsed (what `pnpm release:rehearse` does), in npm test: changeset version and
// changeset publish into a throwaway verdaccio on a free loopback port, every published package
// installed back from it into a fresh project, and the changelogs changesets wrote checked. Bounded:
// one run, each step with its own time limit, the scratch directory removed afterwards.
import { describe, expect, it } from 'vitest';
import { parseChangeset, rehearseRelease } from './rehearse/rehearse.ts';
import { publishedPackages } from './workspace.ts';

describe('parseChangeset', () => {
  it('reads the packages of the front matter and the summary', () => {
    expect(
      parseChangeset('---\n\'@sked/model\': minor\n"@sked/http": patch\n---\n\n**model**: a change.\n'),
    ).toEqual({
      packages: ['@sked/model', '@sked/http'],
      summary: '**model**: a change.',
    });
    expect(parseChangeset('no front matter')).toEqual({ packages: [], summary: '' });
  });
});

describe('a rehearsed release', () => {
  it('versions, publishes to a throwaway registry, installs from it, and writes the changelogs', async () => {
    const report = await rehearseRelease();
    const names = publishedPackages().map((pkg) => pkg.name);
    expect(report.packages.map((p) => p.name)).toEqual(names);
    expect(report.registry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    for (const pkg of report.packages) {
      // every published package is on the registry at the version changesets gave it
      expect({ name: pkg.name, published: pkg.registryVersions.includes(pkg.after) }).toEqual({
        name: pkg.name,
        published: true,
      });
      // and a fresh project imported it from there
      expect({ name: pkg.name, imports: (report.installed[pkg.name]?.length ?? 0) > 0 }).toEqual({
        name: pkg.name,
        imports: true,
      });
      // a bin-only package's bins print the version it was published at
      const bins = report.installed[pkg.name]?.filter((line) => /^[\w-]+ \d/.test(line)) ?? [];
      expect(bins.filter((line) => !line.endsWith(` ${pkg.after}`))).toEqual([]);
    }
    // each package with a pending changeset moved up and got a changelog with that changeset's text
    const changed = new Set(report.changesets.flatMap((c) => c.packages));
    expect(changed.size).toBeGreaterThan(0);
    for (const pkg of report.packages.filter((p) => changed.has(p.name))) {
      expect({ name: pkg.name, bumped: pkg.after !== pkg.before }).toEqual({ name: pkg.name, bumped: true });
      expect(pkg.changelog).toContain(`## ${pkg.after}`);
      expect(pkg.changelogPublished).toBe(true);
      for (const changeset of report.changesets.filter((c) => c.packages.includes(pkg.name))) {
        const firstLine = changeset.summary.split('\n')[0] ?? '';
        expect(pkg.changelog).toContain(firstLine.slice(0, 60));
      }
    }
    // a package that depends on a bumped sibling moved too (updateInternalDependencies)
    const client = report.packages.find((p) => p.name === '@sked/scheduler-client');
    expect(client?.after).not.toBe(client?.before);
  });
});
