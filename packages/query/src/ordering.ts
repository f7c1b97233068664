/**
 * How an ordered collection sorts its items and how its page tokens map to positions.
 *
 * @remarks
 * Sort keys are strings compared by UTF-16 code units (the `<` operator), so any ordering can be
 * expressed by encoding its parts into one string (see {@link createIndexOrdering}, which pads the
 * index so that numeric and string order agree).
 *
 * @typeParam T - The item type.
 * @since 0.1.0
 */
export interface Ordering<T> {
  /** Identity of an item: two items with the same id are the same item (an upsert replaces it). */
  id(item: T): string;
  /** Sort key of an item; compared by UTF-16 code units. Must be unique per id. */
  key(item: T): string;
  /** The `next_token` clients see for an item (the token of the first item of the next page). */
  token(item: T): string;
  /**
   * Converts a `next_token` received from a client to the sort key to seek to.
   * A malformed token is returned as given, so it is compared as given: never an error.
   */
  seek(token: string): string;
}

/** Separator between the parts of a sort key; below every printable character. */
const SEP = '\u0000';
/** Escape character of a namespace's NUL and \u0001 in a sort key. */
const ESC = '\u0001';
/** Width of a zero-padded create index in a sort key (2^53 has 16 digits; 20 covers uint64). */
const INDEX_WIDTH = 20;

/**
 * Builds the sort key of an item of a {@link namespaceIdOrdering} collection.
 *
 * @param namespace - The item's namespace.
 * @param id - The item's ID.
 * @returns The sort key (also the item's identity in the collection).
 * @example
 * ```ts
 * const job = jobs.get(namespaceIdKey('default', 'example'));
 * ```
 * @since 0.1.0
 */
export function namespaceIdKey(namespace: string, id: string): string {
  return `${escapeKeyPart(namespace)}${SEP}${id}`;
}

/**
 * A namespace as it goes into a sort key: `\u0000` becomes `\u0001\u0001` and `\u0001` becomes
 * `\u0001\u0002`, so the escaped part holds no NUL (the first NUL of a key ends the namespace: two
 * distinct (namespace, ID) pairs never share a key) and sorts as the namespace does. A namespace
 * without these characters (every valid one) is unchanged.
 */
function escapeKeyPart(part: string): string {
  if (!part.includes(SEP) && !part.includes(ESC)) return part;
  let out = '';
  for (const c of part) out += c === SEP ? `${ESC}${ESC}` : c === ESC ? `${ESC}\u0002` : c;
  return out;
}

/**
 * The namespace part of a `<namespace>.<id>` page token: `%` becomes `%25` and `.` becomes `%2E`,
 * so that the token's first `.` ends the namespace whatever it holds. Valid namespace names
 * (letters, digits, `-`) are unchanged.
 */
function tokenNamespace(namespace: string): string {
  return /[%.]/.test(namespace) ? namespace.replace(/[%.]/g, (c) => (c === '%' ? '%25' : '%2E')) : namespace;
}

function untokenNamespace(part: string): string {
  return part.includes('%')
    ? part.replace(/%(25|2E)/gi, (_, hex: string) => (hex === '25' ? '%' : '.'))
    : part;
}

/**
 * Ordering by namespace then ID, with tokens `<namespace>.<id>` (jobs and volumes).
 *
 * @remarks
 * The identity of an item is its namespace and ID together ({@link namespaceIdKey}), because the same
 * ID may exist in two namespaces. A token is split at its first `.`: a namespace holding `.` or `%`
 * (never a valid name) has them written `%2E` and `%25`, so the split is unambiguous whatever the
 * names hold; a token without a `.` is compared as given.
 *
 * @typeParam T - An item with `Namespace` and `ID` fields.
 * @returns The ordering.
 * @example
 * ```ts
 * const jobs = createOrderedIndex(namespaceIdOrdering<Job>());
 * ```
 * @since 0.1.0
 */
export function namespaceIdOrdering<
  T extends {
    /** The item's namespace. */
    readonly Namespace: string;
    /** The item's ID. */
    readonly ID: string;
  },
>(): Ordering<T> {
  return {
    id: (item) => namespaceIdKey(item.Namespace, item.ID),
    key: (item) => namespaceIdKey(item.Namespace, item.ID),
    token: (item) => `${tokenNamespace(item.Namespace)}.${item.ID}`,
    seek: (token) => {
      const dot = token.indexOf('.');
      return dot < 0 ? token : namespaceIdKey(untokenNamespace(token.slice(0, dot)), token.slice(dot + 1));
    },
  };
}

/**
 * Builds the sort key of an item of a {@link createIndexOrdering} collection.
 *
 * @param createIndex - The item's `CreateIndex` (a non-negative integer).
 * @param id - The item's ID.
 * @returns The sort key: the index zero-padded to 20 digits, a NUL, the ID.
 * @since 0.1.0
 */
export function createIndexKey(createIndex: number, id: string): string {
  return `${String(createIndex).padStart(INDEX_WIDTH, '0')}${SEP}${id}`;
}

const CREATE_INDEX_TOKEN = /^(\d{1,20})(?:\.([\s\S]*))?$/;

/**
 * Ordering by `CreateIndex` then ID, with tokens `<CreateIndex>.<id>` (allocations, evaluations,
 * deployments listed without a prefix).
 *
 * @remarks
 * The identity of an item is its ID. A token whose part before the first `.` is not a decimal number
 * is compared as given (it then sorts after every key, since keys start with digits); a bare number
 * `N` seeks to the first item created at index `N`.
 *
 * @typeParam T - An item with `CreateIndex` and `ID` fields.
 * @returns The ordering.
 * @since 0.1.0
 */
export function createIndexOrdering<
  T extends {
    /** Index of the write that created the item. */
    readonly CreateIndex: number;
    /** The item's ID. */
    readonly ID: string;
  },
>(): Ordering<T> {
  return {
    id: (item) => item.ID,
    key: (item) => createIndexKey(item.CreateIndex, item.ID),
    token: (item) => `${item.CreateIndex}.${item.ID}`,
    seek: (token) => {
      const match = CREATE_INDEX_TOKEN.exec(token);
      if (match === null) return token;
      const digits = (match[1] ?? '').padStart(INDEX_WIDTH, '0');
      return match[2] === undefined ? digits : `${digits}${SEP}${match[2]}`;
    },
  };
}

/**
 * Ordering by ID alone, with tokens `<id>` (lists filtered by an ID `prefix`, nodes).
 *
 * @typeParam T - An item with an `ID` field.
 * @returns The ordering.
 * @since 0.1.0
 */
export function idOrdering<
  T extends {
    /** The item's ID. */
    readonly ID: string;
  },
>(): Ordering<T> {
  return {
    id: (item) => item.ID,
    key: (item) => item.ID,
    token: (item) => item.ID,
    seek: (token) => token,
  };
}
