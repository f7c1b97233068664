import type { AclConfig, AclTokenConfig, NamespaceCapability, NodeAccess, PeeringAccess } from './tokens.js';
import { sameSecret } from '../../http/guards.js';

/** What a resolved token may do. */
export interface Principal {
  /** Token name (never the secret). */
  readonly name: string;
  /** Whether the token is a management token. */
  readonly management: boolean;
  /**
   * Whether the token has a capability in a namespace (`*` asks: in at least one namespace).
   * @param namespace - Namespace name, or `*`.
   * @param capability - Capability without the `namespace:` prefix.
   */
  allowNamespace(namespace: string, capability: NamespaceCapability): boolean;
  /**
   * Whether the token has node access of at least this level.
   * @param access - `read` or `write`.
   */
  allowNode(access: NodeAccess): boolean;
  /**
   * Whether the token has mesh peering access of at least this level on a peering (`write`
   * includes `read`); `*` asks: on at least one peering name.
   * @param name - Peering name, or `*`.
   * @param access - `read` or `write`.
   */
  allowPeering(name: string, access: PeeringAccess): boolean;
}

/** The ACL of a running server. */
export interface Acl {
  /** Whether tokens are checked at all. */
  readonly enabled: boolean;
  /**
   * Resolves a secret to its principal.
   * @param secret - The secret as sent, or undefined when none was sent.
   * @returns The principal, or undefined for a missing or unknown secret.
   */
  resolve(secret: string | undefined): Principal | undefined;
  /** The first management token's name, for the start-up line. */
  readonly managementName: string | undefined;
}

/** A principal allowed everything: the one used when ACL is off. */
export const ANONYMOUS_ALL: Principal = {
  name: 'anonymous',
  management: true,
  allowNamespace: () => true,
  allowNode: () => true,
  allowPeering: () => true,
};

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

interface NamespaceRule {
  readonly pattern: string;
  readonly regexp: RegExp;
  readonly literal: boolean;
  readonly capabilities: ReadonlySet<NamespaceCapability>;
}

/**
 * Finds the rule for a namespace: an exact name wins; otherwise the matching glob with the most
 * literal characters (the most specific one).
 */
function ruleFor<R extends { pattern: string; regexp: RegExp; literal: boolean }>(
  rules: readonly R[],
  namespace: string,
): R | undefined {
  let best: R | undefined;
  let bestScore = -1;
  for (const rule of rules) {
    if (rule.literal) {
      if (rule.pattern === namespace) return rule;
      continue;
    }
    if (!rule.regexp.test(namespace)) continue;
    const score = rule.pattern.replace(/\*/g, '').length;
    if (score > bestScore) {
      best = rule;
      bestScore = score;
    }
  }
  return best;
}

function principalOf(token: AclTokenConfig): Principal {
  if (token.management) {
    return {
      name: token.name,
      management: true,
      allowNamespace: () => true,
      allowNode: () => true,
      allowPeering: () => true,
    };
  }
  const rules: NamespaceRule[] = Object.entries(token.namespaces).map(([pattern, caps]) => ({
    pattern,
    regexp: globToRegExp(pattern),
    literal: !pattern.includes('*'),
    capabilities: new Set(caps),
  }));
  const peeringRules = Object.entries(token.peering ?? {}).map(([pattern, access]) => ({
    pattern,
    regexp: globToRegExp(pattern),
    literal: !pattern.includes('*'),
    access,
  }));
  const peeringAllows = (access: PeeringAccess | undefined, wanted: PeeringAccess): boolean =>
    access === 'write' || (access === 'read' && wanted === 'read');
  const allows = (rule: NamespaceRule | undefined, capability: NamespaceCapability): boolean =>
    rule !== undefined && !rule.capabilities.has('deny') && rule.capabilities.has(capability);
  return {
    name: token.name,
    management: false,
    allowNamespace(namespace, capability) {
      if (namespace === '*') return rules.some((rule) => allows(rule, capability));
      return allows(ruleFor(rules, namespace), capability);
    },
    allowNode(access) {
      if (token.node === undefined) return false;
      return access === 'read' || token.node === 'write';
    },
    allowPeering(name, access) {
      if (name === '*') return peeringRules.some((rule) => peeringAllows(rule.access, access));
      return peeringAllows(ruleFor(peeringRules, name)?.access, access);
    },
  };
}

/**
 * Builds the ACL of a server.
 * @param config - The validated token file, or undefined for ACL off (everything allowed).
 * @returns The ACL.
 */
export function createAcl(config: AclConfig | undefined): Acl {
  if (config === undefined) {
    return { enabled: false, resolve: () => ANONYMOUS_ALL, managementName: undefined };
  }
  const entries = config.tokens.map((token) => ({ secret: token.secret, principal: principalOf(token) }));
  return {
    enabled: true,
    managementName: config.tokens.find((token) => token.management)?.name,
    resolve(secret) {
      if (secret === undefined || secret === '') return undefined;
      return entries.find((entry) => sameSecret(entry.secret, secret))?.principal;
    },
  };
}
