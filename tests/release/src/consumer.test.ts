// Installs the packed tarballs into a fresh project outside the workspace (dependencies from the
// tarballs and the registry, no workspace link), then uses them as a user would: plain Node ESM,
// TypeScript with moduleResolution nodenext and bundler, and one real call of each client
// against a running sked-server.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientCalls } from './client-calls.ts';
import { run } from './run.ts';
import { secretsRootToken, startSkedServer, type SkedServer } from './server.ts';
import { localRanges } from './tarball.ts';
import { clientPackages, publishedPackages, repoRoot, type Manifest } from './workspace.ts';

const packed = inject('packed');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const typesNode = rootManifest['devDependencies'] as Record<string, string>;
const importName = (name: string): string => name.replace(/^@sked\//, '').replace(/\W/g, '_');

let project = '';
let server: SkedServer;

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'sked-consumer-')));
  if (project.startsWith(repoRoot)) throw new Error(`${project} is inside the workspace`);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'sked-consumer', private: true, type: 'module' }, null, 2),
  );
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...packed.map((p) => p.tarball),
      `@types/node@${typesNode['@types/node'] ?? 'latest'}`,
    ],
    { cwd: project, timeoutMs: 240_000 },
  );
  server = await startSkedServer();
});

afterAll(async () => {
  await server?.close();
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('the packed packages installed outside the workspace', () => {
  it('resolve from the tarballs, with no workspace link left', () => {
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string; link?: boolean }>;
    };
    const seen = packed.map(({ name, tarball }) => {
      const entry = lock.packages[`node_modules/${name}`];
      const installed = JSON.parse(
        readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'),
      ) as Manifest;
      return {
        name,
        version: entry?.version,
        link: entry?.link ?? false,
        fromTarball: (entry?.resolved ?? '').endsWith(tarball.split('/').at(-1) ?? '.tgz'),
        localRanges: localRanges(installed),
        // one copy of each: a dependency on a sibling resolved to its tarball, not the registry
        nestedCopies: Object.keys(lock.packages).filter((key) => key.endsWith(`/node_modules/${name}`)),
      };
    });
    expect(seen).toEqual(
      packed.map(({ name, version }) => ({
        name,
        version,
        link: false,
        fromTarball: true,
        localRanges: [],
        nestedCopies: [],
      })),
    );
  });

  it('import from plain Node ESM with the same exports as the workspace build', async () => {
    const lines = publishedPackages()
      .filter((pkg) => pkg.manifest['exports'] !== undefined)
      .map(
        (pkg) =>
          `out[${JSON.stringify(pkg.name)}] = Object.keys(await import(${JSON.stringify(pkg.name)})).sort();`,
      );
    writeFileSync(
      join(project, 'exports.mjs'),
      `const out = {};\n${lines.join('\n')}\nconsole.log(JSON.stringify(out));\n`,
    );
    const result = await run(process.execPath, ['exports.mjs'], { cwd: project, timeoutMs: 60_000 });
    const installed = JSON.parse(result.stdout) as Record<string, string[]>;
    expect(Object.keys(installed).length).toBeGreaterThanOrEqual(5);
    const workspace: Record<string, string[]> = {};
    for (const pkg of publishedPackages()) {
      const exportsMap = pkg.manifest['exports'] as Record<string, { default?: string }> | undefined;
      const entry = exportsMap?.['.']?.default;
      if (entry === undefined) continue;
      const module = (await import(pathToFileURL(join(pkg.dir, entry)).href)) as object;
      workspace[pkg.name] = Object.keys(module).sort();
    }
    expect(installed).toEqual(workspace);
    expect(Object.values(installed).every((keys) => keys.length > 0)).toBe(true);
  });

  it('has one real call for every API client, and each works from Node ESM against sked-server', async () => {
    const clients = clientPackages().map((pkg) => pkg.name);
    expect(clients).toContain('@sked/scheduler-client');
    expect(clients.filter((name) => clientCalls[name] === undefined)).toEqual([]);
    for (const name of clients) {
      const call = clientCalls[name];
      if (call === undefined) continue;
      const url = server.urls[call.service];
      if (url === undefined) throw new Error(`${name} needs the ${call.service} listener of sked-server`);
      const file = `call-${importName(name)}.mjs`;
      writeFileSync(join(project, file), call.source);
      const result = await run(process.execPath, [file], {
        cwd: project,
        env: { ...process.env, SKED_TEST_URL: url, SKED_TEST_TOKEN: secretsRootToken },
        timeoutMs: 60_000,
      });
      call.check(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? 'null'));
    }
  });

  it.each([
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('typecheck from TypeScript with moduleResolution %s (lib checks on)', async (label, options) => {
    const dir = join(project, `ts-${label}`);
    rmSync(dir, { recursive: true, force: true });
    const imports = publishedPackages()
      .filter((pkg) => pkg.manifest['exports'] !== undefined)
      .map((pkg) => `import * as ${importName(pkg.name)} from '${pkg.name}';`);
    const uses = publishedPackages()
      .filter((pkg) => pkg.manifest['exports'] !== undefined)
      .map((pkg) => `void ${importName(pkg.name)};`);
    const files = ['index.ts'];
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.ts'), `${imports.join('\n')}\n${uses.join('\n')}\nexport {};\n`);
    for (const name of clientPackages().map((pkg) => pkg.name)) {
      const call = clientCalls[name];
      if (call === undefined) continue;
      const file = `call-${importName(name)}.ts`;
      writeFileSync(join(dir, file), call.source);
      files.push(file);
    }
    // the checker really checks: a wrong type in the same run must be reported (an expect-error
    // directive that is not used is itself an error)
    writeFileSync(
      join(dir, 'wrong.ts'),
      `import { compileFilter } from '@sked/filter';\n// @ts-expect-error a predicate is not a number\nconst n: number = compileFilter('a == 1');\nexport { n };\n`,
    );
    files.push('wrong.ts');
    const config = {
      compilerOptions: {
        ...options,
        target: 'es2023',
        lib: ['es2024'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFiles'], {
      cwd: dir,
      timeoutMs: 180_000,
    });
    // the types came from the installed tarballs (of each package with something to import)
    const typed = new Set(
      publishedPackages()
        .filter((pkg) => pkg.manifest['exports'] !== undefined)
        .map((pkg) => pkg.name),
    );
    expect(typed.size).toBeGreaterThanOrEqual(5);
    for (const pkg of packed.filter((p) => typed.has(p.name))) {
      expect(result.stdout).toContain(`${dir.replace(/\/ts-\w+$/, '')}/node_modules/${pkg.name}/`);
    }
  });
});
