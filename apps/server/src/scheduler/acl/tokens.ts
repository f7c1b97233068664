import { nullRecord } from '@sked/model';
import { readFileSync } from 'node:fs';
import { isRecord } from '../../http/guards.js';

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

const TOKEN_KEYS = new Set(['name', 'secret', 'management', 'namespaces', 'node', 'peering']);
const capabilitySet: ReadonlySet<string> = new Set(NAMESPACE_CAPABILITIES);

/**
 * Validates the parsed JSON of an ACL token file.
 *
 * Shape: `{"tokens": [{"name", "secret", "management"?, "namespaces"?, "node"?, "peering"?}]}`. Names and
 * secrets are non-empty strings and unique; capabilities are those of
 * {@link NAMESPACE_CAPABILITIES}; `node` is `read` or `write`; `peering` is `read` or `write`, or
 * an object of peering name (or glob) to `read` or `write`; unknown keys are rejected so a typo
 * cannot silently grant nothing.
 *
 * @param value - The parsed JSON.
 * @param file - The file name, for messages.
 * @returns The validated configuration.
 * @throws {@link AclConfigError} naming the first problem.
 */
export function parseAclConfig(value: unknown, file?: string): AclConfig {
  const fail = (message: string): never => {
    throw new AclConfigError(message, file);
  };
  if (!isRecord(value)) return fail('expected a JSON object with a "tokens" array');
  for (const key of Object.keys(value)) {
    if (key !== 'tokens') fail(`unknown key ${JSON.stringify(key)} at the top level`);
  }
  const tokens = value['tokens'];
  if (!Array.isArray(tokens)) return fail('"tokens" must be an array');
  const names = new Set<string>();
  const secrets = new Set<string>();
  const result: AclTokenConfig[] = [];
  tokens.forEach((raw: unknown, i) => {
    const at = `tokens[${i}]`;
    if (!isRecord(raw)) fail(`${at} must be an object`);
    const token = raw as Record<string, unknown>;
    for (const key of Object.keys(token)) {
      if (!TOKEN_KEYS.has(key)) fail(`${at} has an unknown key ${JSON.stringify(key)}`);
    }
    const name = token['name'];
    if (typeof name !== 'string' || name === '') fail(`${at}.name must be a non-empty string`);
    const label = `${at} (${JSON.stringify(name)})`;
    if (names.has(name as string)) fail(`${label}: the name is used by another token`);
    names.add(name as string);
    const secret = token['secret'];
    if (typeof secret !== 'string' || secret === '') fail(`${label}.secret must be a non-empty string`);
    if (secrets.has(secret as string)) fail(`${label}: the secret is used by another token`);
    secrets.add(secret as string);
    const management = token['management'] ?? false;
    if (typeof management !== 'boolean') fail(`${label}.management must be true or false`);
    const namespaces = nullRecord<NamespaceCapability[]>();
    const rawNamespaces = token['namespaces'] ?? {};
    if (!isRecord(rawNamespaces)) fail(`${label}.namespaces must be an object of namespace to capabilities`);
    for (const [ns, caps] of Object.entries(rawNamespaces as Record<string, unknown>)) {
      if (ns === '') fail(`${label}.namespaces has an empty namespace name`);
      if (!Array.isArray(caps))
        fail(`${label}.namespaces[${JSON.stringify(ns)}] must be an array of capabilities`);
      const list: NamespaceCapability[] = [];
      for (const cap of caps as unknown[]) {
        if (typeof cap !== 'string' || !capabilitySet.has(cap)) {
          fail(
            `${label}.namespaces[${JSON.stringify(ns)}] names an unknown capability ${JSON.stringify(cap)}; known capabilities: ${NAMESPACE_CAPABILITIES.join(', ')}`,
          );
        }
        list.push(cap as NamespaceCapability);
      }
      namespaces[ns] = list;
    }
    const node = token['node'];
    if (node !== undefined && node !== 'read' && node !== 'write') {
      fail(`${label}.node must be "read" or "write", not ${JSON.stringify(node)}`);
    }
    const peering = parsePeeringAccess(token['peering'], label, fail);
    result.push({
      name: name as string,
      secret: secret as string,
      management: management as boolean,
      namespaces,
      ...(node === undefined ? {} : { node: node as NodeAccess }),
      ...(peering === undefined ? {} : { peering }),
    });
  });
  return { tokens: result };
}

function isPeeringAccess(value: unknown): value is PeeringAccess {
  return value === 'read' || value === 'write';
}

function parsePeeringAccess(
  value: unknown,
  label: string,
  fail: (message: string) => never,
): Record<string, PeeringAccess> | undefined {
  if (value === undefined) return undefined;
  if (isPeeringAccess(value)) return { '*': value };
  if (!isRecord(value)) {
    return fail(
      `${label}.peering must be "read", "write" or an object of peering name to "read" or "write", not ${JSON.stringify(value)}`,
    );
  }
  const rules = nullRecord<PeeringAccess>();
  for (const [pattern, access] of Object.entries(value)) {
    if (pattern === '') fail(`${label}.peering has an empty peering name`);
    if (!isPeeringAccess(access)) {
      fail(
        `${label}.peering[${JSON.stringify(pattern)}] must be "read" or "write", not ${JSON.stringify(access)}`,
      );
    }
    rules[pattern] = access as PeeringAccess;
  }
  return rules;
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
