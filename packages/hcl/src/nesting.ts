/** Deepest nesting accepted: the WebAssembly parser overflows the stack (and dies) on thousands of levels. */
export const MAX_HCL_NESTING = 100;

/**
 * The deepest nesting of brackets, braces and interpolations in HCL text (strings and comments
 * skipped, `${` inside strings counted), with its line.
 */
export function hclNesting(text: string): {
  /** The deepest nesting, in levels. */
  depth: number;
  /** The 1-based line where that depth is first reached. */
  line: number;
} {
  let depth = 0;
  let max = 0;
  let line = 1;
  let maxLine = 1;
  let inString = false;
  let interp = 0;
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString && interp === 0) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      else if (c === '$' && text[i + 1] === '{') {
        i++;
        interp++;
        stack.push(interp);
        depth++;
      }
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      line++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop - 1;
    } else if (c === '"') {
      if (interp > 0) {
        // a string inside an interpolation: skip it simply
        i++;
        while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      } else inString = true;
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
      stack.push(0);
    } else if (c === ')' || c === ']' || c === '}') {
      const top = stack.pop();
      depth = Math.max(0, depth - 1);
      if (top !== undefined && top > 0) {
        interp--;
      }
    }
    if (depth > max) {
      max = depth;
      maxLine = line;
    }
  }
  return { depth: max, line: maxLine };
}
