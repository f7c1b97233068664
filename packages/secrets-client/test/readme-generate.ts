// Turns the README's `ts` blocks into a module whose functions run them (test/readme.generated.ts).

/** What the README's blocks take from their surroundings. */
export interface ReadmeContext {
  /** The secrets listener of sked-server. */
  readonly address: string;
  /** Its root token. */
  readonly rootToken: string;
  /** The OpenLDAP: URL and CA (PEM). */
  readonly directory: { readonly url: string; readonly ca: string };
}

const SECTIONS: Record<string, string> = { 'Quick example': 'quickExample', 'Walk-through': 'walkthrough' };

function blocks(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 4);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

/**
 * The generated module's text.
 * @param readme - README.md.
 * @returns TypeScript source.
 */
export function generateReadmeModule(readme: string): string {
  const imports = new Map<string, Set<string>>();
  const functions: string[] = [];
  for (const [heading, name] of Object.entries(SECTIONS)) {
    const body: string[] = [];
    const consts: string[] = [];
    for (const block of blocks(readme, heading)) {
      for (const line of block.split('\n')) {
        const imported = /^import \{([^}]*)\} from '([^']+)';/.exec(line);
        if (imported !== null) {
          const module = imported[2] === '@sked/secrets-client' ? '../src/index.js' : (imported[2] ?? '');
          const names = imports.get(module) ?? new Set<string>();
          for (const n of (imported[1] ?? '').split(',')) if (n.trim() !== '') names.add(n.trim());
          imports.set(module, names);
          continue;
        }
        const declared = /^const (\w+)\b/.exec(line);
        if (declared?.[1] !== undefined) consts.push(declared[1]);
        body.push(line === '' ? '' : `  ${line}`);
      }
    }
    functions.push(
      [
        `export async function ${name}(context: ReadmeContext) {`,
        '  const { address, rootToken, directory } = context;',
        '  void address;',
        '  void rootToken;',
        '  void directory;',
        ...body,
        `  return { ${consts.join(', ')} };`,
        '}',
      ].join('\n'),
    );
  }
  const head = [...imports]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([module, names]) =>
        `import { ${[...names].sort((a, b) => a.localeCompare(b)).join(', ')} } from '${module}';`,
    );
  return [
    '// Generated from README.md by src/readme-examples.test.ts; do not edit.',
    '// Regenerate: SKED_UPDATE_README=1 pnpm --filter @sked/secrets-client test',
    ...head,
    "import type { ReadmeContext } from './readme-generate.js';",
    '',
    functions.join('\n\n'),
    '',
  ].join('\n');
}
