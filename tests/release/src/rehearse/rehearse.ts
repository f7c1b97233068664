/**
 * A release, rehearsed end to end against a throwaway registry: `changeset version` and
 * `changeset publish` in a scratch copy of the workspace, then the published packages installed
 * from the registry into a fresh project and imported, and the changelogs changesets wrote read
 * back (in the copy and inside the published tarballs).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../run.ts';
import { publishedPackages, repoRoot, type Manifest } from '../workspace.ts';
import { copyWorkspace, linkWorkspaceDependencies, withoutProvenance } from './copy.ts';
import { startRegistry } from './verdaccio.ts';

/** What one published package became. */
export interface ReleasedPackage {
  readonly name: string;
  readonly before: string;
  readonly after: string;
  /** The registry's versions of it after publishing. */
  readonly registryVersions: string[];
  /** The CHANGELOG.md changesets wrote (empty when the package had no change). */
  readonly changelog: string;
  /** Whether the published tarball holds the CHANGELOG.md. */
  readonly changelogPublished: boolean;
}

/** The rehearsal's findings. */
export interface RehearsalReport {
  readonly registry: string;
  readonly packages: ReleasedPackage[];
  /** The summaries of the changesets that were consumed. */
  readonly changesets: { readonly file: string; readonly summary: string; readonly packages: string[] }[];
  /** Export names of each package imported from the registry install. */
  readonly installed: Record<string, string[]>;
  /** Packages whose `publishConfig.provenance` was dropped for the rehearsal. */
  readonly provenanceDropped: string[];
  readonly log: string;
}

/** Parses a changeset file: the packages of its front matter and its summary. */
export function parseChangeset(text: string): { packages: string[]; summary: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (match === null) return { packages: [], summary: '' };
  const packages = [...(match[1] ?? '').matchAll(/^['"]?([^'":]+)['"]?\s*:\s*(major|minor|patch)\s*$/gm)].map(
    (m) => m[1] ?? '',
  );
  return { packages, summary: (match[2] ?? '').trim() };
}

/** Options of {@link rehearseRelease}. */
export interface RehearseOptions {
  /** The registry verdaccio proxies everything but `@sked/*` from. */
  readonly uplink?: string;
  /** Keep the scratch directory (for a person to look at). */
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

/** Runs the rehearsal and reports what it saw. Throws with the tool's output when a step fails. */
export async function rehearseRelease(
  options: RehearseOptions = {},
): Promise<RehearsalReport & { dir: string }> {
  const say = options.log ?? (() => {});
  const uplink =
    options.uplink ?? execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'sked-release-'));
  const work = join(dir, 'workspace');
  const consumer = join(dir, 'consumer');
  const registry = await startRegistry(join(dir, 'registry'), uplink);
  const lines: string[] = [];
  const note = (line: string): void => {
    lines.push(line);
    say(line);
  };
  try {
    note(`registry: verdaccio on ${registry.url} (uplink ${uplink})`);
    copyWorkspace(work);
    linkWorkspaceDependencies(work);
    const provenanceDropped = withoutProvenance(work);
    const before = new Map(publishedPackages(work).map((pkg) => [pkg.name, pkg.manifest.version]));
    const changesetFiles = readdirSync(join(work, '.changeset')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    const changesets = changesetFiles.map((file) => ({
      file,
      ...parseChangeset(readFileSync(join(work, '.changeset', file), 'utf8')),
    }));
    const env = {
      ...process.env,
      npm_config_registry: registry.url,
      npm_config_userconfig: join(dir, 'npmrc'),
      npm_config_provenance: 'false',
      GIT_AUTHOR_NAME: 'release rehearsal',
      GIT_AUTHOR_EMAIL: 'rehearsal@example.invalid',
      GIT_COMMITTER_NAME: 'release rehearsal',
      GIT_COMMITTER_EMAIL: 'rehearsal@example.invalid',
    };
    const host = registry.url.replace(/^http:/, '');
    writeFileSync(join(dir, 'npmrc'), `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
    writeFileSync(join(work, '.npmrc'), `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
    const git = (args: string[]): Promise<unknown> => run('git', args, { cwd: work, env, timeoutMs: 60_000 });
    writeFileSync(join(work, '.gitignore'), 'node_modules/\n');
    await git(['init', '-q', '-b', 'main']);
    await git(['add', '-A']);
    await git(['commit', '-q', '-m', 'release rehearsal: before version']);
    const changeset = join(repoRoot, 'node_modules/@changesets/cli/bin.js');
    const version = await run(process.execPath, [changeset, 'version'], {
      cwd: work,
      env,
      timeoutMs: 120_000,
    });
    note(`changeset version:\n${version.stdout}${version.stderr}`.trim());
    await git(['add', '-A']);
    await git(['commit', '-q', '-m', 'release rehearsal: version packages']);
    const publish = await run(process.execPath, [changeset, 'publish'], {
      cwd: work,
      env,
      timeoutMs: 300_000,
    });
    note(`changeset publish:\n${publish.stdout}${publish.stderr}`.trim());

    const packages: ReleasedPackage[] = [];
    for (const pkg of publishedPackages(work)) {
      const response = await fetch(`${registry.url}${pkg.name.replace('/', '%2f')}`);
      const meta = response.ok
        ? ((await response.json()) as { versions?: Record<string, { dist?: { tarball?: string } }> })
        : {};
      const changelogFile = join(pkg.dir, 'CHANGELOG.md');
      const changelog = existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : '';
      let changelogPublished = false;
      const tarball = await fetch(
        `${registry.url}${pkg.name}/-/${pkg.name.split('/')[1]}-${pkg.manifest.version}.tgz`,
      );
      if (tarball.ok) {
        const file = join(dir, `${pkg.name.replace(/\W/g, '_')}.tgz`);
        writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
        changelogPublished = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).includes(
          'package/CHANGELOG.md',
        );
      }
      packages.push({
        name: pkg.name,
        before: before.get(pkg.name) ?? '',
        after: pkg.manifest.version,
        registryVersions: Object.keys(meta.versions ?? {}),
        changelog,
        changelogPublished,
      });
    }

    // a fresh project installs every published package from the registry and imports (or runs) each
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'rehearsal-consumer', private: true, type: 'module' }),
    );
    const specs = packages.map((p) => `${p.name}@${p.after}`);
    // the registry proxies every other dependency from the upstream registry, and an upstream
    // request that fails once is answered 404: try the install again before giving up
    for (let attempt = 1; ; attempt += 1) {
      try {
        await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
          cwd: consumer,
          env,
          timeoutMs: 300_000,
        });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const importer = packages
      .filter(
        (p) =>
          (
            JSON.parse(
              readFileSync(join(consumer, 'node_modules', p.name, 'package.json'), 'utf8'),
            ) as Manifest
          )['exports'] !== undefined,
      )
      .map((p) => `out[${JSON.stringify(p.name)}] = Object.keys(await import(${JSON.stringify(p.name)}));`);
    writeFileSync(
      join(consumer, 'check.mjs'),
      `const out = {};\n${importer.join('\n')}\nconsole.log(JSON.stringify(out));\n`,
    );
    const imported = await run(process.execPath, ['check.mjs'], { cwd: consumer, env, timeoutMs: 60_000 });
    const installed = JSON.parse(imported.stdout) as Record<string, string[]>;
    // a bin-only package (nothing to import) is run instead: each of its bins with --version
    for (const p of packages) {
      const manifest = JSON.parse(
        readFileSync(join(consumer, 'node_modules', p.name, 'package.json'), 'utf8'),
      ) as Manifest;
      if (manifest['exports'] !== undefined || typeof manifest.bin !== 'object') continue;
      const versions: string[] = [];
      for (const [bin, path] of Object.entries(manifest.bin)) {
        const file = join(consumer, 'node_modules', p.name, path);
        const result = await run(process.execPath, [file, '--version'], {
          cwd: consumer,
          env,
          timeoutMs: 60_000,
        });
        versions.push(`${bin} ${result.stdout.trim()}`);
      }
      installed[p.name] = versions;
    }
    note(`installed from the registry: ${specs.join(' ')}`);
    return {
      registry: registry.url,
      packages,
      changesets,
      installed,
      provenanceDropped,
      log: lines.join('\n'),
      dir,
    };
  } finally {
    await registry.close();
    if (options.keep !== true) rmSync(dir, { recursive: true, force: true });
  }
}
