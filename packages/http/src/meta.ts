/**
 * Metadata of an answer, read from its `X-Svc-*` headers (the scheduling service) or `X-Mesh-*`
 * headers (the mesh service).
 *
 * @remarks
 * Indexes are uint64 on the wire. They are returned as numbers only while exact: an
 * `X-Svc-Index` above `Number.MAX_SAFE_INTEGER` (2^53-1) or not a decimal integer makes the request
 * fail with an {@link ApiError} rather than return a rounded index (on error answers such a header
 * is left out of `meta` instead, so the server's message is kept).
 * @since 0.1.0
 */
export interface QueryMeta {
  /** `X-Svc-Index` or `X-Mesh-Index`: the index of what was read, for blocking queries. */
  readonly index?: number;
  /** `X-Svc-LastContact` or `X-Mesh-LastContact`: milliseconds since the server last heard from the leader. */
  readonly lastContact?: number;
  /** `X-Svc-KnownLeader` or `X-Mesh-KnownLeader`: whether the server knows a leader. */
  readonly knownLeader?: boolean;
  /** `X-Svc-NextToken`: token of the next page; absent on the last page. */
  readonly nextToken?: string;
  /** `X-Mesh-`, `X-Svc-` or `X-Secrets-Results-Filtered-By-ACLs`: the list leaves out items the token may not read. */
  readonly filteredByAcls?: boolean;
}

const DECIMAL = /^\d+$/;

/**
 * Reads {@link QueryMeta} from headers.
 * @param headers - The answer's headers.
 * @param strict - Throw on a bad index instead of leaving it out.
 * @returns The metadata, or a sentence describing a bad index (when `strict`).
 * @internal
 */
export function readMeta(headers: Headers, strict: boolean): QueryMeta | { readonly problem: string } {
  const meta: { -readonly [K in keyof QueryMeta]: QueryMeta[K] } = {};
  const prefix = headers.has('x-svc-index') || !headers.has('x-mesh-index') ? 'Svc' : 'Mesh';
  const read = (name: string): string | null => headers.get(`x-${prefix.toLowerCase()}-${name}`);
  const index = read('index');
  if (index !== null) {
    const value = Number(index);
    if (DECIMAL.test(index) && Number.isSafeInteger(value)) meta.index = value;
    else if (strict) {
      return {
        problem: DECIMAL.test(index)
          ? `The server answered X-${prefix}-Index ${JSON.stringify(index)}, beyond Number.MAX_SAFE_INTEGER (2^53-1), so it cannot be represented exactly.`
          : `The server answered X-${prefix}-Index ${JSON.stringify(index)}, which is not a decimal integer.`,
      };
    }
  }
  const lastContact = read('lastcontact');
  if (lastContact !== null && DECIMAL.test(lastContact) && Number.isSafeInteger(Number(lastContact))) {
    meta.lastContact = Number(lastContact);
  }
  const knownLeader = read('knownleader');
  if (knownLeader === 'true' || knownLeader === 'false') meta.knownLeader = knownLeader === 'true';
  const nextToken = headers.get('x-svc-nexttoken');
  if (nextToken !== null && nextToken !== '') meta.nextToken = nextToken;
  const filtered =
    headers.get('x-mesh-results-filtered-by-acls') ??
    headers.get('x-svc-results-filtered-by-acls') ??
    headers.get('x-secrets-results-filtered-by-acls');
  if (filtered !== null) meta.filteredByAcls = filtered === 'true';
  return meta;
}
