// The examples a reader copies: every TSDoc @example of the published packages and every ```ts
// block of the site's front page and guides typecheck against the packages' published types; the
// front page and the guides then run, as programs, against a real sked-server.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentExamples, packageExamples, type Example } from './examples.ts';
import { run } from './run.ts';
import { secretsRootToken, startSkedServer } from './server.ts';
import { startSlapd } from '@sked/testkit/slapd';
import { publishedPackages, repoRoot } from './workspace.ts';

const work = join(repoRoot, 'tests/release/.tmp/examples');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/**
 * Names a TSDoc fragment may use without declaring them: the context its prose implies (a client,
 * a transport, a request body). Each is declared only for a fragment that uses it.
 */
const ambient: Readonly<Record<string, string>> = {
  client: "declare const client: import('@sked/scheduler-client').SchedulerClient;",
  transport: "declare const transport: import('@sked/http').Transport;",
  body: 'declare const body: unknown;',
  text: 'declare const text: string;',
  line: 'declare const line: string;',
  handle: 'declare function handle(line: string): void;',
  signal: 'declare const signal: AbortSignal;',
  alloc: "declare const alloc: import('@sked/model').Allocation;",
  Allocation: "type Allocation = import('@sked/model').Allocation;",
  Job: "type Job = import('@sked/model').Job;",
  jobs: "declare const jobs: import('@sked/query').OrderedIndex<import('@sked/model').Job>;",
  fetchPage:
    "declare const fetchPage: import('@sked/query').PageFetcher<{}, import('@sked/query').PageResponse<{ ID: string }>>;",
  Type: "import Type from 'typebox';",
  allocId: 'declare const allocId: string;',
  rootToken: 'declare const rootToken: string;',
  job: "declare const job: import('@sked/model').Job;",
  JobSchema: "declare const JobSchema: import('@sked/model').TSchema;",
};

function declaredNames(code: string): Set<string> {
  const names = [...code.matchAll(/\b(?:const|let|var|function|class|type|interface)\s+(\w+)/g)].map(
    (m) => m[1] ?? '',
  );
  for (const match of code.matchAll(/\b(?:const|let|var)\s*\{([^}]*)\}/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const local = part.split(':').at(-1)?.trim();
      if (local) names.push(local);
    }
  }
  for (const match of code.matchAll(/^import\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?/gm)) {
    if (match[1] !== undefined) names.push(match[1]);
    for (const part of (match[2] ?? '').split(',')) {
      const local = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      if (local) names.push(local);
    }
  }
  return new Set(names);
}

function usedNames(code: string): Set<string> {
  const withoutStrings = code.replace(
    /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\/\/.*$/gm,
    '',
  );
  return new Set([...withoutStrings.matchAll(/(?<![.\w])([A-Za-z_$][\w$]*)/g)].map((m) => m[1] ?? ''));
}

const fileName = (origin: string): string => `${origin.replace(/[^\w]+/g, '_')}.ts`;

let exportsByPackage: Map<string, string[]>;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  exportsByPackage = new Map();
  for (const pkg of publishedPackages()) {
    const entry = (pkg.manifest['exports'] as Record<string, { default?: string }> | undefined)?.['.']
      ?.default;
    if (entry === undefined) continue;
    const module = (await import(pathToFileURL(join(pkg.dir, entry)).href)) as object;
    exportsByPackage.set(pkg.name, Object.keys(module));
  }
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** The program for a TSDoc fragment: its package's exports it uses, the ambient context, the code. */
function fragmentProgram(example: Example & { packageName: string }): string {
  const declared = declaredNames(example.code);
  const used = usedNames(example.code);
  const imports = (exportsByPackage.get(example.packageName) ?? []).filter(
    (name) => used.has(name) && !declared.has(name),
  );
  const context = Object.entries(ambient)
    .filter(([name]) => used.has(name) && !declared.has(name) && !imports.includes(name))
    .map(([, declaration]) => declaration);
  const head = imports.length > 0 ? [`import { ${imports.join(', ')} } from '${example.packageName}';`] : [];
  return [...head, ...context, `// ${example.origin}`, example.code, 'export {};', ''].join('\n');
}

describe('the examples', () => {
  it('typecheck: every TSDoc @example and every ts block of the front page and the guides', async () => {
    const fragments = packageExamples();
    const documents = documentExamples();
    expect(fragments.length).toBeGreaterThan(30);
    expect(documents.length).toBeGreaterThanOrEqual(2);
    const files: string[] = [];
    for (const example of fragments) {
      const file = fileName(example.origin);
      writeFileSync(join(work, file), fragmentProgram(example));
      files.push(file);
    }
    for (const example of documents) {
      const file = fileName(example.origin);
      writeFileSync(join(work, file), `// ${example.origin}\n${example.code}\nexport {};\n`);
      files.push(file);
    }
    // the published types of each package (what a user gets), and typebox from the model
    const paths: Record<string, string[]> = {
      typebox: [join(repoRoot, 'packages/model/node_modules/typebox/build/index.d.mts')],
    };
    for (const pkg of publishedPackages()) {
      const types = (pkg.manifest['exports'] as Record<string, { types?: string }> | undefined)?.['.']?.types;
      if (types !== undefined) paths[pkg.name] = [join(pkg.dir, types)];
    }
    const config = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2023',
        lib: ['es2024', 'dom'],
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules/@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        paths,
      },
      files,
    };
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: work,
      timeoutMs: 180_000,
      allowFailure: true,
    });
    expect(result.stdout.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('run: the front page and each guide, as one program each, against sked-server (and OpenLDAP)', async () => {
    // what the documents expect to find: a server with every listener, a second one for peering
    // (datacenter dc2), and a directory with the users the LDAP guide names
    const slapd = await startSlapd();
    closers.push(() => slapd.stop());
    const ca = slapd.certificates.ca;
    const dc1 = await startSkedServer();
    closers.push(() => dc1.close());
    const dc2 = await startSkedServer(['--datacenter', 'dc2']);
    closers.push(() => dc2.close());
    const env = {
      ...process.env,
      NODE_NO_WARNINGS: '1',
      SKED_ADDR: dc1.urls['scheduler'],
      SKED_SECRETS_ADDR: dc1.urls['secrets'],
      SKED_SECRETS_TOKEN: secretsRootToken,
      SKED_MESH_ADDR: dc1.urls['mesh'],
      DC1_MESH_ADDR: dc1.urls['mesh'],
      DC2_MESH_ADDR: dc2.urls['mesh'],
      LDAP_URL: slapd.url,
      LDAP_CA: ca,
    };
    const cli = join(repoRoot, 'apps/cli/dist/main.js');
    for (const example of documentExamples()) {
      const file = join(work, fileName(example.origin));
      writeFileSync(file, `${example.code}\nexport {};\n`);
      const result = await run(process.execPath, [file], {
        cwd: join(repoRoot, 'tests/release'),
        env,
        timeoutMs: 150_000,
        allowFailure: true,
      });
      expect({ origin: example.origin, code: result.code, stderr: result.stderr }).toEqual({
        origin: example.origin,
        code: 0,
        stderr: '',
      });
      expect(result.stdout.length).toBeGreaterThan(0);
      for (const { line, exit } of example.cli ?? []) {
        const args = [...line.slice('sked '.length).matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
          (m) => m[1] ?? m[2] ?? m[3] ?? '',
        );
        const ran = await run(process.execPath, [cli, ...args], {
          cwd: repoRoot,
          env,
          timeoutMs: 60_000,
          allowFailure: true,
        });
        expect({ origin: example.origin, line, exit: ran.code }).toEqual({
          origin: example.origin,
          line,
          exit,
        });
      }
    }
  });
});
