/**
 * Path lookup: how a selector finds its value in the datum (FILTER.md section 3), bindings of
 * `any`/`all`, and typed mode's reading of null maps and lists.
 * @internal
 * @packageDocumentation
 */
import type { SelectorNode } from './ast.js';
import { FilterEvaluationErrorCode } from './errors.js';
import { goParseInt } from './internal/go-strconv.js';
import type { NullAs, Shape } from './schema.js';
import { readerFor } from './readers.js';
import { resolveTyped, type TypedSelector } from './typed.js';
import {
  article,
  fail,
  hasOwn,
  IntValue,
  isObject,
  kindOf,
  MISSING,
  NULL_LIST,
  NULL_MAP,
  pointer,
  type Site,
} from './values.js';

/**
 * An element or value bound by `as`: an alias for its path (the collection's path and the key),
 * with the value itself so that reading through it does not walk from the root again. Reused from
 * one element to the next: the path is only built when an error or a nested collection needs it.
 */
export interface AliasBound {
  base: readonly string[] | undefined;
  key: string | number;
  value: unknown;
}
/** A value bound by `as`: an alias, or a plain index/key. */
export type Bound = AliasBound | { plain: number | string };

/** The absolute path of an alias. */
export function aliasPath(b: AliasBound): readonly string[] {
  const seg = String(b.key);
  return b.base === undefined ? [seg] : [...b.base, seg];
}
/** One collection level's bindings at run time. */
export interface Frame {
  first: Bound | undefined;
  second: Bound | undefined;
}
export type Env = readonly Frame[];
export type Pred = (root: unknown, env: Env) => boolean;

export interface ScopeName {
  readonly level: number;
  readonly slot: 'first' | 'second';
  /** Typed mode, element/value bindings: shapes along the binding's absolute path. */
  readonly chain?: readonly Shape[] | undefined;
}

export interface Scope {
  readonly names: ReadonlyMap<string, ScopeName>;
  readonly level: number;
}

export const EMPTY_SCOPE: Scope = { names: new Map(), level: 0 };

export interface Context {
  readonly source: string | undefined;
  readonly unknownSet: boolean;
  readonly unknownValue: unknown;
  /** Typed mode: the schema of the items, and its shape. */
  readonly schema: { readonly root: unknown; readonly shape: Shape } | undefined;
}

/** Typed mode: resolves a selector against the schema (throws `unknown-field`); undefined when untyped. */
export function typedSelector(selector: SelectorNode, scope: Scope, ctx: Context): TypedSelector | undefined {
  if (ctx.schema === undefined) return undefined;
  const bound = scope.names.get(selector.path[0] as string);
  if (bound === undefined) return resolveTyped(selector, [ctx.schema.shape], 0, ctx.schema.root, ctx.source);
  // An index or key binding holds a plain value: nothing to check (selecting through it fails when run).
  if (bound.chain === undefined) return undefined;
  return resolveTyped(selector, bound.chain, 1, ctx.schema.root, ctx.source);
}

export function nullRead(kind: NullAs, cur: unknown): unknown {
  return kind === 'map' ? NULL_MAP : kind === 'list' ? NULL_LIST : cur;
}

export type Getter = (root: unknown, env: Env) => unknown;

/** Follows `path` from `root` (section 3 of the design: lookup, defaults, errors). */
export function walkPath(
  root: unknown,
  path: readonly string[],
  ctx: Context,
  site: Site,
  typedNulls?: readonly NullAs[],
): unknown {
  let cur = root;
  const n = path.length;
  // Typed mode: `nulls[i]` says how a null after i segments reads (only when the path has the expected length).
  const nulls = typedNulls !== undefined && typedNulls.length === n + 1 ? typedNulls : undefined;
  for (let i = 0; i < n; i++) {
    const seg = path[i] as string;
    if (cur === null && nulls !== undefined) cur = nullRead(nulls[i], cur);
    if (Array.isArray(cur)) {
      const parsed = goParseInt(seg === '' ? '0' : seg);
      if (!parsed.ok) {
        fail(
          site,
          FilterEvaluationErrorCode.InvalidIndex,
          'array',
          `The selector ${site.selector} uses ${JSON.stringify(seg)} as an index into the array at ${pointer(path.slice(0, i))}, but it is not an integer.`,
        );
      }
      const idx = parsed.value;
      if (idx < 0n || idx >= BigInt(cur.length)) {
        fail(
          site,
          FilterEvaluationErrorCode.IndexOutOfRange,
          'array',
          `The selector ${site.selector} uses index ${idx} at ${pointer(path.slice(0, i))}, out of range for an array of length ${cur.length}.`,
        );
      }
      const next: unknown = cur[Number(idx)];
      cur = next === undefined ? null : next;
    } else if (isObject(cur)) {
      const next = cur[seg];
      if (next !== undefined && hasOwn.call(cur, seg)) {
        cur = next;
        continue;
      }
      if (ctx.unknownSet) return ctx.unknownValue;
      if (n >= 2 && i === n - 1) return MISSING;
      fail(
        site,
        FilterEvaluationErrorCode.MissingKey,
        'missing',
        `The selector ${site.selector} does not resolve: there is no key ${JSON.stringify(seg)} at ${pointer(path.slice(0, i)) === '/' ? 'the top level' : pointer(path.slice(0, i))}.`,
      );
    } else {
      const kind = kindOf(cur);
      fail(
        site,
        FilterEvaluationErrorCode.NotAContainer,
        kind,
        `The selector ${site.selector} goes through ${article(kind)} at ${i === 0 ? 'the top level' : pointer(path.slice(0, i))}, which has no fields or elements.`,
      );
    }
  }
  return cur === null && nulls !== undefined ? nullRead(nulls[n], cur) : cur;
}

export function compileGetter(
  selector: SelectorNode,
  scope: Scope,
  ctx: Context,
  site: Site,
  typed?: TypedSelector,
): Getter {
  const path = selector.path;
  const head = path[0] as string;
  const bound = scope.names.get(head);
  const nulls = typed?.nulls;
  if (bound !== undefined) {
    const rest = path.slice(1);
    const { level, slot } = bound;
    const next = rest[0] as string;
    // Reads through the bound value directly when that is what walking from the root would give.
    const direct = !ctx.unknownSet && rest.length <= 1;
    const read = rest.length === 1 ? readerFor(next) : undefined;
    return (root, env) => {
      const b = (env[level] as Frame)[slot] as Bound;
      if ('value' in b) {
        const value = b.value;
        if (direct && value !== null && value !== undefined) {
          if (read === undefined) return value; // no segment after the binding
          if (typeof value === 'object' && !Array.isArray(value) && !(value instanceof IntValue)) {
            const v = read(value as Record<string, unknown>, next);
            if (v === undefined) return MISSING; // a missing last key under an object (path of 2+ segments)
            if (v !== null || nulls === undefined) return v;
          }
        }
        const alias = aliasPath(b);
        return walkPath(root, rest.length === 0 ? alias : [...alias, ...rest], ctx, site, nulls);
      }
      if (rest.length > 0) {
        fail(
          site,
          FilterEvaluationErrorCode.BoundValuePath,
          typeof b.plain === 'number' ? 'integer' : 'string',
          `The selector ${site.selector} goes through "${head}", which holds ${typeof b.plain === 'number' ? 'an integer index' : 'a string key'}, not a path.`,
        );
      }
      return typeof b.plain === 'number' ? new IntValue(b.plain) : b.plain;
    };
  }
  if (ctx.unknownSet || path.length > 2) return (root) => walkPath(root, path, ctx, site, nulls);
  // Fast paths for one and two segments. In typed mode a null goes through walkPath, which reads it as
  // the schema says (an empty map or list, or null).
  const typedNulls = nulls !== undefined;
  const readHead = readerFor(head);
  if (path.length === 1) {
    return (root) => {
      if (typeof root === 'object' && root !== null && !Array.isArray(root)) {
        const v = readHead(root as Record<string, unknown>, head);
        if (v !== undefined && (v !== null || !typedNulls)) return v;
      }
      return walkPath(root, path, ctx, site, nulls);
    };
  }
  const second = path[1] as string;
  const readSecond = readerFor(second);
  return (root) => {
    if (typeof root === 'object' && root !== null && !Array.isArray(root)) {
      const mid = readHead(root as Record<string, unknown>, head);
      if (typeof mid === 'object' && mid !== null && !Array.isArray(mid)) {
        const v = readSecond(mid as Record<string, unknown>, second);
        if (v !== undefined && (v !== null || !typedNulls)) return v;
      }
    }
    return walkPath(root, path, ctx, site, nulls);
  };
}

/** Whether a selector can be read directly (one or two segments, unbound). */
export function peekable(selector: SelectorNode, scope: Scope, ctx: Context): boolean {
  const path = selector.path;
  return path.length <= 2 && !ctx.unknownSet && !scope.names.has(path[0] as string);
}

/**
 * A quick read of a one- or two-segment unbound selector on plain objects: the value, MISSING for a
 * missing last key under an object, or undefined for "use the full lookup".
 */
export function compilePeek(
  selector: SelectorNode,
  scope: Scope,
  ctx: Context,
): ((root: unknown) => unknown) | undefined {
  const path = selector.path;
  if (!peekable(selector, scope, ctx)) return undefined;
  const head = path[0] as string;
  const readHead = readerFor(head);
  if (path.length === 1) {
    return (root) =>
      typeof root === 'object' && root !== null && !Array.isArray(root)
        ? readHead(root as Record<string, unknown>, head)
        : undefined;
  }
  const second = path[1] as string;
  const readSecond = readerFor(second);
  return (root) => {
    if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
    const mid = readHead(root as Record<string, unknown>, head);
    if (typeof mid !== 'object' || mid === null || Array.isArray(mid)) return undefined;
    const v = readSecond(mid as Record<string, unknown>, second);
    return v === undefined ? MISSING : v; // a missing last key under an object
  };
}

/** The absolute path a selector denotes, given the aliases in scope (for bindings). */
export function compileAbsolutePath(
  selector: SelectorNode,
  scope: Scope,
): (env: Env) => readonly string[] | undefined {
  const path = selector.path;
  const bound = scope.names.get(path[0] as string);
  if (bound === undefined) return () => path;
  const rest = path.slice(1);
  return (env) => {
    const b = (env[bound.level] as Frame)[bound.slot] as Bound;
    return 'value' in b ? [...aliasPath(b), ...rest] : undefined;
  };
}
