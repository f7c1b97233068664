// publint and @arethetypeswrong/cli over the tarball of every published package: what npm users
// would install, checked by the two tools the ecosystem uses for packaging mistakes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';
import { run } from './run.ts';
import { localRanges, tarballFiles, tarballManifest } from './tarball.ts';
import { publishedPackages, repoRoot } from './workspace.ts';

const packed = inject('packed');
/** A package with a bin and nothing to import (the CLI): no types for attw to resolve. */
const binOnly = (tarball: string): boolean => tarballManifest(tarball)['exports'] === undefined;
const attw = join(repoRoot, 'tests/release/node_modules/.bin/attw');

describe('the published packages', () => {
  it('are every non-private workspace package, each packed once', () => {
    const names = publishedPackages().map((pkg) => pkg.name);
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(packed.map((p) => p.name)).toEqual(names);
    expect(names).not.toContain('@sked/testkit');
  });

  describe.each(packed)('$name', ({ name, tarball }) => {
    it('has no workspace-only dependency range left and ships its build, README and no tests', () => {
      const manifest = tarballManifest(tarball);
      expect(manifest.name).toBe(name);
      expect(localRanges(manifest)).toEqual([]);
      const files = tarballFiles(tarball);
      expect(files).toContain('README.md');
      expect(files.some((file) => file.startsWith('dist/') && file.endsWith('.js'))).toBe(true);
      expect(files.filter((file) => /\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
    });

    it('passes publint (strict, suggestions included)', async () => {
      const buffer = readFileSync(tarball);
      const tarballData = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
      const result = await publint({ pack: { tarball: tarballData }, level: 'suggestion', strict: true });
      const messages = result.messages.map(
        (message) =>
          `${message.type}: ${formatMessage(message, result.pkg, { color: false }) ?? message.code}`,
      );
      expect(messages).toEqual([]);
    });
  });

  describe.each(packed.filter(({ tarball }) => !binOnly(tarball)))('$name', ({ tarball }) => {
    it('passes @arethetypeswrong/cli for ESM-only packages (node16 and bundler resolution)', async () => {
      const result = await run(attw, [tarball, '--profile', 'esm-only', '--format', 'json', '--no-color'], {
        cwd: repoRoot,
        allowFailure: true,
        timeoutMs: 120_000,
      });
      // the JSON lists every problem; the esm-only profile (what exit code 0 means) leaves out the
      // node10 and require() resolutions, which an ESM-only package cannot serve
      const report = JSON.parse(result.stdout) as {
        analysis?: { problems?: { kind: string; resolutionKind?: string }[] };
      };
      const ignored = new Set(['node10', 'node16-cjs']);
      const problems = (report.analysis?.problems ?? [{ kind: 'no analysis' }]).filter(
        (problem) => problem.resolutionKind === undefined || !ignored.has(problem.resolutionKind),
      );
      expect(problems).toEqual([]);
      expect(result.code).toBe(0);
    });
  });

  it.each(packed.filter(({ tarball }) => binOnly(tarball)))(
    '$name is bin-only: neither entry point nor types, a bin instead',
    ({ tarball }) => {
      const manifest = tarballManifest(tarball);
      expect([manifest['main'], manifest['types'], manifest['module']]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(Object.keys(manifest.bin ?? {}).length).toBeGreaterThan(0);
    },
  );
});
