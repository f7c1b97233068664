/**
 * `pnpm release:rehearse`: cuts a release of every published package into a throwaway verdaccio
 * registry (changeset version + changeset publish in a scratch copy), installs the result from it
 * into a fresh project, and prints what each package became and its changelog. Nothing in the
 * checkout changes and nothing leaves the machine but the proxied downloads of dependencies.
 * Pass `--keep` to keep the scratch directory.
 */
import { rehearseRelease } from './rehearse.ts';

const keep = process.argv.includes('--keep');
const report = await rehearseRelease({ keep, log: (line) => console.log(line) });
for (const pkg of report.packages) {
  const published = pkg.registryVersions.includes(pkg.after) ? 'published' : 'NOT PUBLISHED';
  console.log(
    `\n${pkg.name}: ${pkg.before} -> ${pkg.after} (${published}; CHANGELOG.md ${pkg.changelogPublished ? 'in the tarball' : 'missing from the tarball'})`,
  );
  console.log(pkg.changelog.trim().split('\n').slice(0, 12).join('\n'));
}
if (report.provenanceDropped.length > 0) {
  console.log(
    `\nprovenance dropped for the rehearsal (it needs a CI identity): ${report.provenanceDropped.join(', ')}`,
  );
}
if (keep) console.log(`\nscratch directory kept: ${report.dir}`);
const failed = report.packages.filter((p) => !p.registryVersions.includes(p.after));
process.exit(failed.length === 0 ? 0 : 1);
