import { FilterConflictMessage, namespaceNameProblem, parseGoBool } from '@sked/model';

import { badRequest } from './errors.js';

/** A parsed query string, as fastify gives it. */
export type Query = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The last value of a query parameter (a repeated parameter counts by its last occurrence).
 * @param query - The parsed query string.
 * @param name - Parameter name.
 * @returns The value, or undefined when absent.
 */
export function queryString(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) return value.at(-1);
  return value;
}

/**
 * Reads a boolean query parameter the way the service does (Go's `strconv.ParseBool`, `parseGoBool`
 * of `@sked/model`: `true`/`false`, `1`/`0`, `t`/`f`, `TRUE`, `True`, ...); an empty value counts as
 * `true` (a bare `?purge`).
 * @param query - The parsed query string.
 * @param name - Parameter name.
 * @param fallback - Value when absent.
 * @returns The boolean.
 * @throws 400 `Failed to parse value of "<name>" ("<value>") as a bool` otherwise.
 */
export function queryBool(query: Query, name: string, fallback: boolean): boolean {
  const value = queryString(query, name);
  if (value === undefined) return fallback;
  const parsed = value === '' ? true : parseGoBool(value);
  if (parsed === undefined) {
    throw badRequest(`Failed to parse value of ${JSON.stringify(name)} (${JSON.stringify(value)}) as a bool`);
  }
  return parsed;
}

/**
 * Reads a non-negative integer query parameter.
 * @param query - The parsed query string.
 * @param name - Parameter name.
 * @param fallback - Value when absent or empty.
 * @returns The integer.
 * @throws 400 `Failed to parse value of "<name>" ("<value>") as an integer` otherwise.
 */
export function queryUint(query: Query, name: string, fallback: number): number {
  const value = queryString(query, name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,15}$/.test(value)) {
    throw badRequest(
      `Failed to parse value of ${JSON.stringify(name)} (${JSON.stringify(value)}) as an integer`,
    );
  }
  return Number(value);
}

/**
 * The target namespace: `namespace`, `default` when absent or empty.
 * @param query - The parsed query string.
 * @returns The namespace (may be `*`).
 * @throws 400 `Invalid namespace name "<name>": must match regex ...` for a name the service would
 *   never create (letters, digits and `-`, 1-128 characters), so no NUL or dot reaches a key.
 */
export function readNamespace(query: Query): string {
  const value = queryString(query, 'namespace');
  if (value === undefined || value === '') return 'default';
  return checkNamespaceName(value, { wildcard: true });
}

/**
 * Checks a namespace name as the service does (letters, digits and `-`, 1-128 characters).
 * @param name - The name, from a query parameter or a body.
 * @param options - `wildcard`: `*` (every namespace, for reads) is accepted too.
 * @returns The name.
 * @throws 400 with the service's message when it is not a valid name.
 */
export function checkNamespaceName(name: string, options: { wildcard: boolean }): string {
  if (options.wildcard && name === '*') return name;
  const problem = namespaceNameProblem(name);
  if (problem !== undefined) throw badRequest(problem.replace(/\.$/, ''));
  return name;
}

/**
 * Checks the `region` parameter against the server's region.
 * @param query - The parsed query string.
 * @param region - The server's region.
 * @throws 400 `No path to region "<name>"` for another region.
 */
export function checkRegion(query: Query, region: string): void {
  const value = queryString(query, 'region');
  if (value !== undefined && value !== '' && value !== region) {
    throw badRequest(`No path to region ${JSON.stringify(value)}`);
  }
}

/**
 * Reads `index` (blocking queries).
 * @param query - The parsed query string.
 * @returns The index; 0 when absent (never blocks).
 * @throws 400 `Invalid index` when it is not a non-negative integer.
 */
export function readIndex(query: Query): number {
  const value = queryString(query, 'index');
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) throw badRequest('Invalid index');
  return Number(value);
}

/**
 * Reads `per_page`.
 * @param query - The parsed query string.
 * @returns The page size; 0 (no paging) when absent.
 * @throws 400 ``Expect a number for `per_page` query string parameter`` otherwise.
 */
export function readPerPage(query: Query): number {
  const value = queryString(query, 'per_page');
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,9}$/.test(value)) throw badRequest('Expect a number for `per_page` query string parameter');
  return Number(value);
}

/**
 * Reads `reverse` (`true` reverses; anything else does not, as the service does).
 * @param query - The parsed query string.
 * @returns Whether to reverse.
 */
export function readReverse(query: Query): boolean {
  const value = queryString(query, 'reverse');
  return value !== undefined && (value === '' || value.toLowerCase() === 'true' || value === '1');
}

/** Options of {@link readPrefix}. */
export interface PrefixOptions {
  /**
   * Whether the prefix is of hex IDs (decoded to bytes: 0-9a-f, even length).
   * @defaultValue false
   */
  readonly hex?: boolean;
  /** Parameter name. @defaultValue `prefix` */
  readonly name?: string;
}

/**
 * Reads an ID prefix parameter.
 * @param query - The parsed query string.
 * @param options - Hex rules and parameter name.
 * @returns The prefix, or `''` when absent.
 * @throws 400 when a hex prefix has an odd length or a character outside 0-9a-f.
 */
export function readPrefix(query: Query, options: PrefixOptions = {}): string {
  const name = options.name ?? 'prefix';
  const value = queryString(query, name) ?? '';
  if (options.hex === true && value !== '') {
    if (!/^[0-9a-fA-F-]*$/.test(value)) {
      throw badRequest(
        `Invalid ${name} ${JSON.stringify(value)}: a hex prefix may hold only the characters 0-9 and a-f`,
      );
    }
    if (value.replace(/-/g, '').length % 2 !== 0) {
      throw badRequest(
        `Invalid ${name} ${JSON.stringify(value)}: a hex prefix must have an even number of characters`,
      );
    }
  }
  return value;
}

/**
 * Reads `filter`, refusing it together with other filtering parameters.
 * @param query - The parsed query string.
 * @param others - The other filtering parameters of the endpoint (e.g. `prefix`).
 * @returns The expression, or undefined when absent or empty.
 * @throws 400 {@link FilterConflictMessage} (`@sked/model`).
 */
export function readFilter(query: Query, others: readonly string[] = ['prefix']): string | undefined {
  const value = queryString(query, 'filter');
  if (value === undefined || value === '') return undefined;
  for (const other of others) {
    const otherValue = queryString(query, other);
    if (otherValue !== undefined && otherValue !== '') {
      throw badRequest(FilterConflictMessage);
    }
  }
  return value;
}

/** The UUID shape of allocation IDs (lower- or upper-case hex, 8-4-4-4-12). */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Checks that a path ID is a full UUID (short IDs are rejected as identifiers).
 * @param kind - What the ID names, e.g. `allocation`.
 * @param id - The path parameter.
 * @returns The ID.
 * @throws 400 `<kind> ID must be a full UUID, not "<id>"`.
 */
export function requireUuid(kind: string, id: string): string {
  if (!UUID.test(id)) {
    throw badRequest(`${kind} ID must be a full UUID (36 characters), not ${JSON.stringify(id)}`);
  }
  return id;
}
