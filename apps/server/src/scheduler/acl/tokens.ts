import { readFileSync } from 'node:fs';

import { formatProblems, nullRecord, validate } from '@sked/model';
import { Type, type Static } from 'typebox';

/**
 * Namespace capabilities a token file may grant (the spec's names without the `namespace:`
 * prefix, plus the other capabilities of the real service so existing policies carry over).
 */
export const NAMESPACE_CAPABILITIES = [
  'deny',
  'list-jobs',
  'parse-job',
  'read-job',
  'submit-job',
  'dispatch-job',
  'policy-override',
  'read-logs',
  'read-fs',
  'alloc-exec',
  'alloc-node-exec',
  'alloc-lifecycle',
  'csi-register-plugin',
  'csi-write-volume',
  'csi-read-volume',
  'csi-list-volume',
  'csi-mount-volume',
  'list-scaling-policies',
  'read-scaling-policy',
  'read-job-scaling',
  'scale-job',
  'submit-recommendation',
  'sentinel-override',
] as const;

/** One namespace capability. */
export type NamespaceCapability = (typeof NAMESPACE_CAPABILITIES)[number];

/** Node access level of a token. */
export type NodeAccess = 'read' | 'write';

/** Peering access level of a token (`write` includes `read`). */
export type PeeringAccess = 'read' | 'write';

/** One token of the ACL file, validated. */
export interface AclTokenConfig {
  /** Display name (printed at start for the management token). */
  readonly name: string;
  /** The secret a client sends in `X-Svc-Token` or `Authorization: Bearer`. */
  readonly secret: string;
  /** A management token may do everything. */
  readonly management: boolean;
  /** Namespace name or glob (`*` matches any run of characters) to capabilities. */
  readonly namespaces: Readonly<Record<string, readonly NamespaceCapability[]>>;
  /** Node access, when granted. */
  readonly node?: NodeAccess;
  /**
   * Mesh service peering access, when granted: peering name or glob to `read` or `write` (the
   * file's `"peering": "read"` is stored as `{"*": "read"}`).
   */
  readonly peering?: Readonly<Record<string, PeeringAccess>>;
}

/** The validated content of an ACL token file. */
export interface AclConfig {
  /** Every token, in file order. */
  readonly tokens: readonly AclTokenConfig[];
}

const aclConfigErrorBrand = Symbol.for('@sked/server/AclConfigError');

/** An ACL token file that cannot be used; the message says why, never quoting a secret. */
export class AclConfigError extends Error {
  /** Literal class name. */
  override readonly name = 'AclConfigError' as const;
  /** The file the configuration came from, when it came from a file. */
  readonly file: string | undefined;
  readonly [aclConfigErrorBrand] = true;

  /**
   * @param message - Why the configuration is invalid.
   * @param file - The file it was read from.
   * @param options - Standard error options (`cause`).
   */
  constructor(message: string, file?: string, options?: ErrorOptions) {
    super(
      file === undefined ? message : `invalid ACL token file ${JSON.stringify(file)}: ${message}`,
      options,
    );
    this.file = file;
  }

  /**
   * Whether a value is an {@link AclConfigError}.
   * @param value - Anything.
   * @returns True for an {@link AclConfigError}.
   */
  static is(value: unknown): value is AclConfigError {
    return typeof value === 'object' && value !== null && aclConfigErrorBrand in value;
  }
}

const Access = Type.Union([Type.Literal('read'), Type.Literal('write')]);

/** The token file's schema: unknown keys are refused, so a typo cannot silently grant nothing. */
const AclFileSchema = Type.Object(
  {
    tokens: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1 }),
          secret: Type.String({ minLength: 1 }),
          management: Type.Optional(Type.Boolean()),
          namespaces: Type.Optional(
            Type.Record(
              Type.String(),
              Type.Array(Type.Union(NAMESPACE_CAPABILITIES.map((c) => Type.Literal(c)))),
            ),
          ),
          node: Type.Optional(Access),
          peering: Type.Optional(Type.Union([Access, Type.Record(Type.String(), Access)])),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
type AclFile = Static<typeof AclFileSchema>;

/** Most problems named in one message. */
const MAX_PROBLEMS = 5;

/**
 * Validates the parsed JSON of an ACL token file.
 *
 * Shape: `{"tokens": [{"name", "secret", "management"?, "namespaces"?, "node"?, "peering"?}]}`
 * (checked by a TypeBox schema, the problems named with `@sked/model`'s `formatProblems`). Names and
 * secrets are non-empty strings and unique; capabilities are those of {@link NAMESPACE_CAPABILITIES};
 * `node` is `read` or `write`; `peering` is `read` or `write`, or an object of peering name (or glob)
 * to `read` or `write`; unknown keys are rejected so a typo cannot silently grant nothing. A message
 * names where the problem is (`tokens[0].namespaces.default[1]: ...`) and never quotes a secret.
 *
 * @param value - The parsed JSON.
 * @param file - The file name, for messages.
 * @returns The validated configuration.
 * @throws {@link AclConfigError} naming the problems.
 */
export function parseAclConfig(value: unknown, file?: string): AclConfig {
  const checked = validate(AclFileSchema, value, { maxProblems: MAX_PROBLEMS });
  if (!checked.ok) {
    const problems = checked.problems.map((problem) =>
      /^\/tokens\/\d+\/secret$/.test(problem.path)
        ? { ...problem, message: 'must be a non-empty string' }
        : problem,
    );
    throw new AclConfigError(formatProblems(problems).replaceAll('\n', '; '), file);
  }
  const names = new Set<string>();
  const secrets = new Set<string>();
  const tokens = checked.value.tokens.map((token, i) => {
    const label = `tokens[${i}] (${JSON.stringify(token.name)})`;
    if (names.has(token.name)) throw new AclConfigError(`${label}: the name is used by another token`, file);
    if (secrets.has(token.secret))
      throw new AclConfigError(`${label}: the secret is used by another token`, file);
    names.add(token.name);
    secrets.add(token.secret);
    return tokenConfig(token, label, file);
  });
  return { tokens };
}

/** One validated token as the ACL keeps it: names from input as own keys of null-prototype records. */
function tokenConfig(
  token: AclFile['tokens'][number],
  label: string,
  file: string | undefined,
): AclTokenConfig {
  const namespaces = nullRecord<NamespaceCapability[]>();
  for (const [ns, caps] of Object.entries(token.namespaces ?? {})) {
    if (ns === '') throw new AclConfigError(`${label}.namespaces has an empty namespace name`, file);
    namespaces[ns] = [...caps];
  }
  let peering: Record<string, PeeringAccess> | undefined;
  if (typeof token.peering === 'string') peering = nullRecord([['*', token.peering]]);
  else if (token.peering !== undefined) {
    peering = nullRecord<PeeringAccess>();
    for (const [pattern, access] of Object.entries(token.peering)) {
      if (pattern === '') throw new AclConfigError(`${label}.peering has an empty peering name`, file);
      peering[pattern] = access;
    }
  }
  return {
    name: token.name,
    secret: token.secret,
    management: token.management ?? false,
    namespaces,
    ...(token.node === undefined ? {} : { node: token.node }),
    ...(peering === undefined ? {} : { peering }),
  };
}

/**
 * Reads and validates an ACL token file.
 * @param file - Path of the JSON file.
 * @returns The validated configuration.
 * @throws {@link AclConfigError} when the file cannot be read, is not JSON or is invalid.
 */
export function loadAclFile(file: string): AclConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new AclConfigError(`cannot read the file (${code})`, file, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (error) {
    // JSON.parse messages may quote the input; quote only the position, never file content.
    const message = error instanceof Error ? error.message : '';
    const position = /position (\d+)/.exec(message)?.[1];
    throw new AclConfigError(
      `the file is not valid JSON${position === undefined ? '' : ` (at position ${position})`}`,
      file,
    );
  }
  return parseAclConfig(json, file);
}
