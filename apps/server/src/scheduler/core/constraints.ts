import { ownValue } from '@sked/model';
import type { Constraint, Node } from './types.js';

/** A parsed version: numeric segments, pre-release identifiers. */
export interface Version {
  readonly segments: readonly number[];
  readonly prerelease: readonly string[];
}

const VERSION =
  /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/**
 * Parses a version such as `1.2.3`, `v1.2`, `1.2.3-beta.1+build` (`strict` demands exactly three
 * segments, as `semver` does).
 * @returns the version, or undefined when the text is not one.
 */
export function parseVersion(text: string, strict = false): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  const segments = (m[1] ?? '').split('.').map(Number);
  if (segments.some((n) => !Number.isSafeInteger(n))) return undefined;
  if (strict && segments.length !== 3) return undefined;
  return { segments, prerelease: m[2] ? m[2].split('.') : [] };
}

/** Compares two versions: negative, zero or positive (semver precedence; build metadata ignored). */
export function compareVersions(a: Version, b: Version): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const d = (a.segments[i] ?? 0) - (b.segments[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  const ap = a.prerelease;
  const bp = b.prerelease;
  if (ap.length === 0 || bp.length === 0) return ap.length === bp.length ? 0 : ap.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(ap.length, bp.length); i++) {
    const x = ap[i];
    const y = bp[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return d < 0 ? -1 : 1;
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Checks a version against a constraint list such as `>= 1.2, < 2.0` or `~> 1.4.2`.
 * @returns whether it matches; false when either side does not parse.
 */
export function versionMatches(value: string, constraint: string, strict = false): boolean {
  const v = parseVersion(value, strict);
  if (!v) return false;
  const parts = constraint.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) return false;
  for (const part of parts) {
    const m = /^(=|!=|>=|<=|>|<|~>)?\s*(.+)$/.exec(part);
    if (!m) return false;
    const op = m[1] ?? '=';
    const c = parseVersion(m[2] ?? '', false);
    if (!c) return false;
    // Pre-releases only match constraints that name a pre-release of the same version.
    if (v.prerelease.length > 0 && c.prerelease.length === 0 && op !== '!=') return false;
    const d = compareVersions(v, c);
    let ok: boolean;
    switch (op) {
      case '=':
        ok = d === 0;
        break;
      case '!=':
        ok = d !== 0;
        break;
      case '>':
        ok = d > 0;
        break;
      case '<':
        ok = d < 0;
        break;
      case '>=':
        ok = d >= 0;
        break;
      case '<=':
        ok = d <= 0;
        break;
      default: {
        // ~> x.y.z: >= x.y.z and < x.(y+1); ~> x.y: >= x.y and < (x+1)
        if (d < 0) return false;
        const segs = c.segments;
        const upperSegs = segs.length <= 1 ? [(segs[0] ?? 0) + 1] : segs.slice(0, -1);
        if (segs.length > 1) upperSegs[upperSegs.length - 1] = (upperSegs[upperSegs.length - 1] ?? 0) + 1;
        ok =
          compareVersions(
            { segments: v.segments.slice(0, upperSegs.length), prerelease: [] },
            {
              segments: upperSegs,
              prerelease: [],
            },
          ) < 0;
      }
    }
    if (!ok) return false;
  }
  return true;
}

/**
 * Resolves a constraint target against a node: `${attr.X}`, `${meta.X}`, `${node.unique.id}`,
 * `${node.unique.name}`, `${node.datacenter}`, `${node.class}`, `${node.pool}`; anything else is a
 * literal.
 * @returns the value, or undefined when the node has no such attribute.
 */
export function resolveTarget(target: string, node: Node): string | undefined {
  const m = /^\$\{([^}]+)\}$/.exec(target.trim());
  if (!m) return target;
  const path = (m[1] ?? '').trim();
  // Own keys only: `${meta.constructor}` on a node without that key is unset, not a function.
  if (path.startsWith('attr.')) return ownValue(node.Attributes, path.slice(5));
  if (path.startsWith('meta.')) return ownValue(node.Meta, path.slice(5));
  switch (path) {
    case 'node.unique.id':
      return node.ID;
    case 'node.unique.name':
      return node.Name;
    case 'node.datacenter':
      return node.Datacenter;
    case 'node.class':
      return node.NodeClass;
    case 'node.pool':
      return node.NodePool;
    default:
      return undefined;
  }
}

function checkOrder(op: string, l: string, r: string): boolean {
  const ln = Number(l);
  const rn = Number(r);
  let d: number;
  if (l.trim() !== '' && r.trim() !== '' && Number.isFinite(ln) && Number.isFinite(rn)) d = ln - rn;
  else d = l < r ? -1 : l > r ? 1 : 0;
  switch (op) {
    case '>':
      return d > 0;
    case '>=':
      return d >= 0;
    case '<':
      return d < 0;
    default:
      return d <= 0;
  }
}

const regexCache = new Map<string, RegExp | null>();
function regex(source: string): RegExp | null {
  let r = regexCache.get(source);
  if (r === undefined) {
    try {
      r = new RegExp(source);
    } catch {
      r = null;
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(source, r);
  }
  return r;
}

const set = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/**
 * Checks one node-level constraint (every operand but distinct_hosts and distinct_property, which
 * depend on other allocations and are checked by the scheduler).
 */
export function checkConstraint(c: Constraint, node: Node): boolean {
  const l = resolveTarget(c.LTarget, node);
  const r = resolveTarget(c.RTarget, node);
  switch (c.Operand) {
    case 'is_set':
      return l !== undefined;
    case 'is_not_set':
      return l === undefined;
    case 'distinct_hosts':
    case 'distinct_property':
      return true;
  }
  if (l === undefined || r === undefined) return c.Operand === '!=' || c.Operand === 'not' ? l !== r : false;
  switch (c.Operand) {
    case '=':
    case '==':
    case 'is':
      return l === r;
    case '!=':
    case 'not':
      return l !== r;
    case '>':
    case '>=':
    case '<':
    case '<=':
      return checkOrder(c.Operand, l, r);
    case 'regexp':
      return regex(r)?.test(l) ?? false;
    case 'version':
      return versionMatches(l, r, false);
    case 'semver':
      return versionMatches(l, r, true);
    case 'set_contains':
    case 'set_contains_all': {
      const have = new Set(set(l));
      return set(r).every((x) => have.has(x));
    }
    case 'set_contains_any': {
      const have = new Set(set(l));
      return set(r).some((x) => have.has(x));
    }
    default:
      return false;
  }
}

/** How a failed constraint is named in metrics (ConstraintFiltered keys). */
export function describeConstraint(c: Constraint): string {
  return [c.LTarget, c.Operand, c.RTarget].filter((s) => s !== '').join(' ');
}
