/**
 * The filter templates of the LDAP configuration (`userfilter`, `groupfilter`): `{{.Name}}`
 * placeholders (spaces inside the braces allowed) replaced by escaped values. Only the variables
 * the spec names exist; anything else between `{{` and `}}` is refused when the template is
 * written, so a login never meets an unknown variable.
 */
import { ownValue } from '@sked/model';
import { escapeFilterValue } from './escape.js';

const PLACEHOLDER = /\{\{\s*\.([A-Za-z]+)\s*\}\}/g;

/**
 * Checks a template: balanced parentheses, only known variables, no stray `{{`/`}}`.
 * @param template - The template text.
 * @param variables - Names it may use (`UserAttr`, `Username`, `UserDN`).
 * @returns A sentence saying what is wrong, or undefined when it is fine.
 */
export function templateProblem(template: string, variables: readonly string[]): string | undefined {
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!variables.includes(name)) {
      return `unknown variable {{.${name}}}; the template may use ${variables.map((v) => `{{.${v}}}`).join(', ')}`;
    }
  }
  const rest = template.replace(PLACEHOLDER, 'x');
  if (rest.includes('{{') || rest.includes('}}'))
    return 'a "{{" or "}}" that is not a {{.Variable}} placeholder';
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '\\') i += 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'unbalanced parentheses';
  }
  if (depth !== 0) return 'unbalanced parentheses';
  if (rest.trim() !== '' && !rest.trim().startsWith('(')) return 'a filter must start with "("';
  return undefined;
}

/**
 * Renders a template, escaping every value for a filter (RFC 4515).
 * @param template - A template that passed {@link templateProblem}.
 * @param values - Raw (unescaped) values by variable name.
 * @param raw - Variables whose values are already filter-safe (none by default).
 * @returns The filter.
 */
export function renderFilter(
  template: string,
  values: Readonly<Record<string, string>>,
  raw: readonly string[] = [],
): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = ownValue(values, name) ?? '';
    return raw.includes(name) ? value : escapeFilterValue(value);
  });
}
