/**
 * Typed mode at compile time: checks each selector against the schema and works out, for every
 * position of the path it reads, whether a `null` there is an empty map or list, and whether the
 * field it ends on is a Go integer.
 */
import type { SelectorNode, Span } from './ast.js';
import { type FilterDiagnostic, FilterSyntaxError, FilterSyntaxErrorCode, lineColumn } from './errors.js';
import { printSelector } from './print.js';
import {
  childShape,
  closest,
  describeShape,
  isIntegerShape,
  type NullAs,
  nullAs,
  propertyNames,
  type Shape,
} from './schema.js';

/** What typed mode knows about one selector. */
export interface TypedSelector {
  /** Shapes along the absolute path read at run time (index 0 is the root, or the binding's root). */
  readonly chain: readonly Shape[];
  /** `nulls[i]`: how a `null` after `i` segments of the absolute path reads; `undefined` if never special. */
  readonly nulls: readonly NullAs[] | undefined;
  /** The field the selector ends on holds Go integers. */
  readonly int: boolean;
  /** The field is an array whose elements are Go integers. */
  readonly intItems: boolean;
  /** Shape of the value the selector reaches. */
  readonly leaf: Shape;
}

/**
 * Resolves `selector` against the schema.
 *
 * @param start - Shapes along the absolute path of the binding the selector starts from (or `[root]`).
 * @param skip - How many leading segments of the selector `start` already covers (1 for a bound name).
 * @throws FilterSyntaxError (`unknown-field`) when the schema allows no value at some segment.
 */
export function resolveTyped(
  selector: SelectorNode,
  start: readonly Shape[],
  skip: number,
  root: unknown,
  source: string | undefined,
): TypedSelector {
  const chain = [...start];
  const path = selector.path;
  for (let i = skip; i < path.length; i++) {
    const here = chain.at(-1) as Shape;
    const seg = path[i] as string;
    const next = childShape(here, seg, root);
    if (next === undefined) throw unknownField(selector, i, here, source);
    chain.push(next);
  }
  const leaf = chain.at(-1) as Shape;
  const nulls = chain.map(nullAs);
  let itemsInt = false;
  if (leaf.lists.length > 0 && !leaf.any) {
    const items = childShape(leaf, '0', root);
    itemsInt =
      items !== undefined && isIntegerShape(items) && leaf.maps.length === 0 && leaf.structs.length === 0;
  }
  return {
    chain,
    nulls: nulls.some((n) => n !== undefined) ? nulls : undefined,
    int: isIntegerShape(leaf),
    intItems: itemsInt,
    leaf,
  };
}

function printed(path: readonly string[]): string {
  try {
    return printSelector(path);
  } catch {
    return JSON.stringify(path.join('.'));
  }
}

function unknownField(
  selector: SelectorNode,
  index: number,
  here: Shape,
  source: string | undefined,
): FilterSyntaxError {
  const path = selector.path;
  const seg = path[index] as string;
  const where = index === 0 ? 'An item' : printed(path.slice(0, index));
  const names = propertyNames(here);
  let message: string;
  if (names.length > 0 || (here.maps.length === 0 && here.lists.length === 0 && here.scalars.size === 0)) {
    const suggestion = closest(seg, names);
    const hint =
      suggestion !== undefined
        ? `; did you mean ${JSON.stringify(suggestion)}?`
        : names.length > 0 && names.length <= 12
          ? ` (fields: ${names.join(', ')}).`
          : '.';
    message = `${where} has no field ${JSON.stringify(seg)}${hint}`;
  } else if (here.lists.length > 0) {
    message = `${where} is an array, so ${JSON.stringify(seg)} is not a valid index; to test its elements use "any ${printed(path.slice(0, index))} as e { ... }".`;
  } else {
    message = `${where} is ${describeShape(here)}, so it has no field ${JSON.stringify(seg)}.`;
  }
  const span = segmentSpan(selector, index, source);
  const pos = source === undefined ? { line: 1, column: span.start + 1 } : lineColumn(source, span.start);
  const diag: FilterDiagnostic = {
    kind: 'schema',
    code: FilterSyntaxErrorCode.UnknownField,
    message,
    offset: span.start,
    length: span.end - span.start,
    line: pos.line,
    column: pos.column,
    expected: names,
  };
  return new FilterSyntaxError(source ?? printed(path), [diag]);
}

/** Where segment `index` of a selector was written (the whole selector when it cannot be told). */
function segmentSpan(selector: SelectorNode, index: number, source: string | undefined): Span {
  const { span, path } = selector;
  if (source === undefined) {
    // Without the text, offsets refer to the printed selector.
    const before = printed(path.slice(0, index));
    const start = index === 0 ? 0 : before.length + 1;
    return { start, end: start + (path[index] as string).length };
  }
  let cursor = span.start;
  for (let i = 0; i <= index; i++) {
    const seg = path[i] as string;
    const at = seg === '' ? -1 : source.indexOf(seg, cursor);
    if (at === -1 || at + seg.length > span.end) return span;
    if (i === index) return { start: at, end: at + seg.length };
    cursor = at + seg.length;
  }
  return span;
}
