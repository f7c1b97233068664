/**
 * Deepest nesting accepted: the reference parser recurses once per level and overflows the stack
 * (a parser failure) on a few thousand levels of any form.
 */
export const MAX_HCL_NESTING = 100;

/**
 * One open level of the scan: code inside brackets, braces, parentheses or `${` / `%{`, a quoted
 * template (`"..."`) or a heredoc template. `weight` is what it added to the depth on opening (its
 * own level plus the unary operators applied to it); `cond` counts the conditionals (`? :`) open
 * in its current expression, `dirs` the `%{ if }` / `%{ for }` directives open in a template.
 */
interface Level {
  readonly kind: '(' | '[' | '{' | '${' | '%{' | '"' | '<<';
  readonly weight: number;
  readonly marker?: string;
  cond: number;
  dirs: number;
}

const identStart = /[A-Za-z_]/;
const identPart = /[A-Za-z0-9_-]/;
const heredocStart = /^<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/;
const directiveWord = /^~?[ \t]*([a-z]+)/;

/**
 * The deepest nesting in HCL text, with its line: every form the parser recurses on counts a level
 * (brackets, braces, parentheses, each unary `-` / `!` applied to an operand, each conditional open
 * in one expression, each `${` / `%{` and each `%{ if }` / `%{ for }` directive open in a template,
 * quoted or heredoc). Comments and literal text are skipped. An over-estimate, never an
 * under-estimate: one pass, linear in the text.
 */
export function hclNesting(text: string): {
  /** The deepest nesting, in levels. */
  depth: number;
  /** The 1-based line where that depth is first reached. */
  line: number;
} {
  const root: Level = { kind: '{', weight: 0, cond: 0, dirs: 0 };
  const stack: Level[] = [root];
  let depth = 0;
  let max = 0;
  let line = 1;
  let maxLine = 1;
  let run = 0; // unary operators waiting for their operand
  let inIdent = false;
  const top = (): Level => stack[stack.length - 1] ?? root;
  const note = (extra = 0): void => {
    if (depth + extra > max) {
      max = depth + extra;
      maxLine = line;
    }
  };
  const open = (kind: Level['kind'], marker?: string): void => {
    const weight = 1 + run;
    run = 0;
    stack.push(
      marker === undefined ? { kind, weight, cond: 0, dirs: 0 } : { kind, weight, marker, cond: 0, dirs: 0 },
    );
    depth += weight;
    note();
  };
  const close = (): void => {
    const level = stack.length > 1 ? stack.pop() : undefined;
    if (level !== undefined) depth -= level.weight + level.cond + level.dirs;
    run = 0;
  };
  const endExpression = (level: Level): void => {
    depth -= level.cond;
    level.cond = 0;
    run = 0;
  };
  /** In a template at `i` (`${` or `%{` unescaped): opens the interpolation or directive; the index to go on from. */
  const templateOpen = (i: number, template: Level): number => {
    if (text[i] === '%') {
      const word = directiveWord.exec(text.slice(i + 2, i + 40))?.[1];
      if (word === 'if' || word === 'for') {
        template.dirs++;
        depth++;
      } else if ((word === 'endif' || word === 'endfor') && template.dirs > 0) {
        template.dirs--;
        depth--;
      }
    }
    open(text[i] === '$' ? '${' : '%{');
    return i + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const level = top();
    if (level.kind === '"' || level.kind === '<<') {
      // template text: literal but for escapes, interpolations and directives
      if (c === '\n') {
        line++;
        if (level.kind === '<<') {
          const end = text.indexOf('\n', i + 1);
          if (text.slice(i + 1, end < 0 ? text.length : end).trim() === level.marker) {
            close();
            i = (end < 0 ? text.length : end) - 1;
          }
        }
      } else if (level.kind === '"' && c === '\\') i++;
      else if (level.kind === '"' && c === '"') close();
      else if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') i += 2;
      else if ((c === '$' || c === '%') && text[i + 1] === '{') i = templateOpen(i, level);
      continue;
    }
    // code
    if (c === ' ' || c === '\t' || c === '\r') {
      inIdent = false;
      continue;
    }
    if (inIdent && identPart.test(c)) continue;
    inIdent = false;
    if (c === '\n') {
      line++;
      if (level.kind === '{') endExpression(level);
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop - 1;
    } else if (c === '-' || (c === '!' && text[i + 1] !== '=')) run++;
    else if (c === '?') {
      level.cond++;
      depth++;
      note(run);
      run = 0;
    } else if (c === ',') endExpression(level);
    else if (c === '"') open('"');
    else if (c === '<' && text[i + 1] === '<' && heredocStart.test(text.slice(i, i + 200))) {
      const match = heredocStart.exec(text.slice(i, i + 200));
      open('<<', match?.[2]);
      i += (match?.[0].length ?? 1) - 2; // stop before the newline, which the template counts
    } else if (c === '(' || c === '[' || c === '{') open(c);
    else if (c === ')' || c === ']' || c === '}') close();
    else {
      note(run);
      run = 0;
      inIdent = identStart.test(c);
    }
  }
  return { depth: max, line: maxLine };
}
