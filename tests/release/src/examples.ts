/**
 * Collects the TypeScript examples a reader sees: the ```ts blocks of the site's front page and
 * guides (each document one program, its blocks in order; a block importing vitest is a test file,
 * run by tests/e2e instead), and every `@example` block of the
 * published packages' TSDoc (each one a fragment that uses its package's exports by name).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { publishedPackages, repoRoot } from './workspace.ts';

/** One example program. */
export interface Example {
  /** Where it comes from, e.g. `docs/guides/scheduling.md` or `packages/filter/src/compile.ts#2`. */
  readonly origin: string;
  /** The program text. */
  readonly code: string;
  /** A document's program runs against sked-server; a TSDoc fragment only typechecks. */
  readonly runnable: boolean;
  /** The document's `sked` command lines (run with the repository's CLI). */
  readonly cli?: readonly { readonly line: string; readonly exit: number }[];
}

/** The `sked ...` command lines of the ```sh blocks of a Markdown text, with the exit code each expects. */
export function cliLines(markdown: string): { readonly line: string; readonly exit: number }[] {
  const out: { line: string; exit: number }[] = [];
  for (const block of markdown.matchAll(/^```(?:sh|bash|shell)\s*\n([\s\S]*?)^```\s*$/gm)) {
    for (const raw of (block[1] ?? '').split('\n')) {
      if (!raw.startsWith('sked ')) continue;
      const comment = raw.indexOf(' #');
      const line = (comment === -1 ? raw : raw.slice(0, comment)).trim();
      const exit = /#\s*exit (\d+)/.exec(raw)?.[1];
      out.push({ line, exit: exit === undefined ? 0 : Number(exit) });
    }
  }
  return out;
}

/** The fenced ```ts / ```typescript blocks of a Markdown text, in order. */
export function markdownBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\s*\n([\s\S]*?)^```\s*$/gm)].map(
    (match) => match[1] ?? '',
  );
}

/** The fenced blocks inside the `@example` tags of TSDoc comments in a source text. */
export function tsdocExamples(source: string): string[] {
  const out: string[] = [];
  for (const comment of source.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const text = (comment[1] ?? '').replace(/^[ \t]*\* ?/gm, '');
    for (const example of text.matchAll(/@example\s*\n([\s\S]*?)(?=\n@\w|$)/g)) {
      out.push(...markdownBlocks(example[1] ?? ''));
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** The front page and guides, one program each. */
export function documentExamples(root = repoRoot): Example[] {
  const docs = join(root, 'docs');
  const files = [join(docs, 'index.md')];
  const guides = join(docs, 'guides');
  if (existsSync(guides)) {
    files.push(
      ...readdirSync(guides)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => join(guides, name)),
    );
  }
  return files.map((file) => {
    const text = readFileSync(file, 'utf8');
    return {
      origin: relative(root, file),
      // a block that imports vitest is a test file (the testing guide's), run by vitest in
      // tests/e2e (src/guide-testing.test.ts holds it line by line), not part of the program
      code: markdownBlocks(text)
        .filter((block) => !/^import .* from 'vitest';$/m.test(block))
        .join('\n'),
      runnable: true,
      cli: cliLines(text),
    };
  });
}

/** Every `@example` of every published package, with its package's name. */
export function packageExamples(root = repoRoot): (Example & { readonly packageName: string })[] {
  const out: (Example & { readonly packageName: string })[] = [];
  for (const pkg of publishedPackages(root)) {
    const src = join(pkg.dir, 'src');
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      tsdocExamples(readFileSync(file, 'utf8')).forEach((code, index) => {
        out.push({
          origin: `${relative(root, file)}#${index + 1}`,
          code,
          runnable: false,
          packageName: pkg.name,
        });
      });
    }
  }
  return out;
}
