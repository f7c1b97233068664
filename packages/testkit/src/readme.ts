/**
 * README examples that run in tests (`@sked/testkit/readme`): the code of a README's example block,
 * and the check that a test file holds every line of it in order, so the README and what runs
 * cannot drift apart.
 *
 * @packageDocumentation
 */

/**
 * The code lines of the first ```ts block under a heading of a Markdown text: each trimmed, blank
 * lines and `import` lines dropped.
 * @param markdown - The README's text.
 * @param heading - The heading's text, without its `#`s (any level).
 * @returns The lines, in order.
 * @throws Error naming the heading when the text has no such heading or no ```ts block after it.
 */
export function readmeCodeLines(markdown: string, heading: string): string[] {
  const at = markdown
    .split('\n')
    .findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '') === heading);
  if (at < 0) throw new Error(`The README has no heading "${heading}".`);
  const section = markdown
    .split('\n')
    .slice(at + 1)
    .join('\n');
  const block = /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (block === undefined) throw new Error(`The README has no \`\`\`ts block under "${heading}".`);
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('import '));
}

/**
 * The lines that do not stand in `source` in the given order, each compared trimmed with a whole
 * line of `source`: `[]` when the source holds all of them in order (other lines may come between).
 * @param lines - The expected lines (for example from {@link readmeCodeLines}).
 * @param source - The text that should hold them (for example the test file's own source).
 * @returns The lines missing or out of order, in the order given.
 */
export function linesMissingInOrder(lines: readonly string[], source: string): string[] {
  const here = source.split('\n').map((line) => line.trim());
  const missing: string[] = [];
  let at = 0;
  for (const line of lines) {
    const found = here.indexOf(line.trim(), at);
    if (found < 0) missing.push(line);
    else at = found + 1;
  }
  return missing;
}
