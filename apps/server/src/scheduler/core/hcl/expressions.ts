import { badRequest } from '../errors.js';
import { isObj, type Json, type Obj } from './json.js';

/** The values expressions may name: variables (`var.x`) and locals (`local.x`). */
export interface Scope {
  vars: Obj;
  locals: Obj;
}

/** A tiny evaluator for the expressions hcl2json leaves as `${...}` text. */
function evalExpr(src: string, scope: Scope, where: string): Json {
  const tokens = src.match(/\s*(\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|[A-Za-z_][\w.-]*|\*\*|[-+*/%()])\s*/gy);
  const joined = (tokens ?? []).join('');
  if (tokens === null || joined.length !== src.length) throw new UnsupportedExpression(src);
  let i = 0;
  let depth = 0;
  const toks = tokens.map((t) => t.trim());
  const peek = (): string | undefined => toks[i];
  const primary = (): Json => {
    const t = toks[i++];
    if (t === undefined) throw new UnsupportedExpression(src);
    if (t === '(') {
      if (++depth > 64) throw badRequest(`Expression at ${where} is nested more than 64 levels deep.`);
      const v = sum();
      depth--;
      if (toks[i++] !== ')') throw new UnsupportedExpression(src);
      return v;
    }
    if (t === '-') {
      if (++depth > 64) throw badRequest(`Expression at ${where} is nested more than 64 levels deep.`);
      const v = -(primary() as number);
      depth--;
      return v;
    }
    if (/^\d/.test(t)) return Number(t);
    if (t.startsWith('"')) return JSON.parse(t) as string;
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (t.startsWith('var.')) {
      const name = t.slice(4);
      if (!Object.hasOwn(scope.vars, name))
        throw badRequest(
          `Unknown variable "${name}" referenced at ${where}: declare it with a variable block.`,
        );
      return scope.vars[name];
    }
    if (t.startsWith('local.')) {
      const name = t.slice(6);
      if (!Object.hasOwn(scope.locals, name))
        throw badRequest(`Unknown local value "${name}" referenced at ${where}.`);
      return scope.locals[name];
    }
    throw new UnsupportedExpression(src);
  };
  const product = (): Json => {
    let v = primary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = toks[i++];
      const r = primary() as number;
      v = op === '*' ? (v as number) * r : op === '/' ? (v as number) / r : (v as number) % r;
    }
    return v;
  };
  const sum = (): Json => {
    let v = product();
    while (peek() === '+' || peek() === '-') {
      const op = toks[i++];
      const r = product() as number;
      v = op === '+' ? (v as number) + r : (v as number) - r;
    }
    return v;
  };
  const v = sum();
  if (i !== toks.length) throw new UnsupportedExpression(src);
  return v;
}

class UnsupportedExpression extends Error {}

/** Runtime interpolations the job parser leaves for the client (`${attr.x}`, `${node.x}`, `${meta.x}`, `${SKED_*}`-style env). */
const RUNTIME = /^\s*(attr|node|meta|env|device|unique|SKED_)/;

function interpolate(value: string, scope: Scope, where: string): Json {
  const whole = /^\$\{([^{}]*)\}$/.exec(value);
  if (whole) {
    const inner = whole[1] ?? '';
    if (RUNTIME.test(inner)) return value;
    try {
      return evalExpr(inner, scope, where);
    } catch (error) {
      if (error instanceof UnsupportedExpression)
        throw badRequest(
          `Unsupported expression "${inner.trim()}" at ${where}: only variables (var.x), locals (local.x), literals and arithmetic are evaluated; functions are not supported.`,
        );
      throw error;
    }
  }
  let out = '';
  let rest = value;
  for (;;) {
    const at = rest.indexOf('${');
    if (at < 0) break;
    if (at > 0 && rest[at - 1] === '$') {
      out += rest.slice(0, at - 1) + '${';
      rest = rest.slice(at + 2);
      continue;
    }
    const end = rest.indexOf('}', at);
    if (end < 0) break;
    const inner = rest.slice(at + 2, end);
    out += rest.slice(0, at);
    if (RUNTIME.test(inner)) out += `\${${inner}}`;
    else {
      let v: Json;
      try {
        v = evalExpr(inner, scope, where);
      } catch (error) {
        if (error instanceof UnsupportedExpression)
          throw badRequest(
            `Unsupported expression "${inner.trim()}" at ${where}: only variables (var.x), locals (local.x), literals and arithmetic are evaluated; functions are not supported.`,
          );
        throw error;
      }
      out += typeof v === 'string' ? v : JSON.stringify(v);
    }
    rest = rest.slice(end + 1);
  }
  return out + rest;
}

/** Resolves every `${...}` in a value (strings, arrays, objects), naming `where` in errors. */
export function resolve(v: Json, scope: Scope, where: string): Json {
  if (typeof v === 'string') return v.includes('${') ? interpolate(v, scope, where) : v;
  if (Array.isArray(v)) return v.map((x, i) => resolve(x, scope, `${where}[${i}]`));
  if (isObj(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, scope, `${where}.${k}`)]));
  return v;
}
