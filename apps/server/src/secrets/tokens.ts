/**
 * Issuing and checking tokens: secrets from `crypto.randomBytes`, stored by SHA-256, compared in
 * constant time, with TTL, period, explicit max TTL, use counts and bound CIDR blocks. The root
 * token is compared the same way. No secret is ever logged or returned except by the login that
 * issues it.
 */
import { BlockList, isIP } from 'node:net';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LdapSettings } from './config.js';
import type { TokenRecord, TokenTable } from './store.js';

/** Default and maximum TTL of issued tokens when the configuration sets none: 768 h. */
export const SYSTEM_DEFAULT_TTL = 768 * 3600;

/**
 * SHA-256 of a token secret, hex.
 * @param secret - The token.
 * @returns The key under which it is stored.
 */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A new random token secret (24 random bytes, base64url, with the prefix `sks.` for service
 * tokens and `skb.` for batch tokens).
 * @param type - The token type.
 * @returns The secret.
 */
export function newTokenSecret(type: 'service' | 'batch' = 'service'): string {
  return `${type === 'batch' ? 'skb' : 'sks'}.${randomBytes(24).toString('base64url')}`;
}

/**
 * Whether two secrets are equal, in time that depends only on their digests' length.
 * @param presented - What the caller sent.
 * @param expectedHash - SHA-256 hex of the real secret.
 * @returns True when they match.
 */
export function secretMatches(presented: string, expectedHash: string): boolean {
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Normalises an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) to IPv4. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Whether an address lies in one of the CIDR blocks (an empty list allows every address).
 * @param cidrs - Blocks such as `10.0.0.0/8` or bare addresses.
 * @param address - The remote address of a request.
 * @returns True when allowed.
 */
export function addressAllowed(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  if (address === undefined) return false;
  const ip = plainAddress(address);
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net = '', bits] = cidr.split('/');
    const netFamily = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(net, netFamily);
    else list.addSubnet(net, Number(bits), netFamily);
  }
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/** What a login puts on its token. */
export interface TokenGrant {
  /** Policies, sorted and unique. */
  readonly policies: readonly string[];
  /** The username logged in with. */
  readonly username: string;
  /** The mount's path, `auth/ldap`. */
  readonly mountPath: string;
}

/** The token fields of the configuration. */
type TokenSettings = Pick<
  LdapSettings,
  | 'token_ttl'
  | 'token_max_ttl'
  | 'token_explicit_max_ttl'
  | 'token_period'
  | 'token_num_uses'
  | 'token_bound_cidrs'
  | 'token_type'
>;

/**
 * The lifetime of a new token in seconds: the period for a periodic token, else `token_ttl` (or
 * the system default) capped by `token_max_ttl` (or the system maximum); then capped by
 * `token_explicit_max_ttl` when set.
 * @param settings - The token settings.
 * @returns Seconds.
 */
export function tokenLifetime(settings: TokenSettings): number {
  let ttl: number;
  if (settings.token_period > 0) {
    ttl = settings.token_period;
  } else {
    const max = settings.token_max_ttl > 0 ? settings.token_max_ttl : SYSTEM_DEFAULT_TTL;
    ttl = Math.min(settings.token_ttl > 0 ? settings.token_ttl : SYSTEM_DEFAULT_TTL, max);
  }
  if (settings.token_explicit_max_ttl > 0) ttl = Math.min(ttl, settings.token_explicit_max_ttl);
  return ttl;
}

/**
 * Issues a token and stores it.
 * @param table - Where tokens live.
 * @param settings - The configuration (token fields).
 * @param grant - Policies and username.
 * @param nowMs - The current time.
 * @returns The secret (to return once) and the record.
 */
export function issueToken(
  table: TokenTable,
  settings: TokenSettings,
  grant: TokenGrant,
  nowMs: number,
): { secret: string; record: TokenRecord } {
  const type =
    settings.token_type === 'batch' || settings.token_type === 'default-batch' ? 'batch' : 'service';
  const secret = newTokenSecret(type);
  const ttl = tokenLifetime(settings);
  const record: TokenRecord = {
    hash: hashToken(secret),
    policies: grant.policies,
    meta: { username: grant.username },
    displayName: `ldap-${grant.username}`,
    path: `${grant.mountPath}/login/${grant.username}`,
    createdMs: nowMs,
    expiresMs: nowMs + ttl * 1000,
    creationTtl: ttl,
    explicitMaxTtl: settings.token_explicit_max_ttl,
    period: settings.token_period,
    numUses: settings.token_num_uses,
    boundCidrs: [...settings.token_bound_cidrs],
    type,
    renewable: type === 'service',
  };
  table.put(record);
  return { secret, record };
}

/**
 * Uses a token: finds it, refuses it when expired, exhausted or used from outside its CIDR blocks,
 * and counts the use (a token on its last use is removed after this one).
 * @param table - Where tokens live.
 * @param secret - The presented secret.
 * @param address - The request's remote address.
 * @param nowMs - The current time.
 * @returns The record as of this use (with the uses left), or undefined when refused.
 */
export function useToken(
  table: TokenTable,
  secret: string,
  address: string | undefined,
  nowMs: number,
): TokenRecord | undefined {
  const hash = hashToken(secret);
  const record = table.get(hash);
  if (record === undefined || !secretMatches(secret, record.hash)) return undefined;
  if (record.expiresMs <= nowMs) {
    table.delete(hash);
    return undefined;
  }
  if (!addressAllowed(record.boundCidrs, address)) return undefined;
  if (record.numUses === 0) return record;
  const left = record.numUses - 1;
  if (left === 0) {
    table.delete(hash);
    return { ...record, numUses: 0 };
  }
  const updated = { ...record, numUses: left };
  table.put(updated);
  return updated;
}

/**
 * The `data` of `GET /v1/auth/token/lookup-self` for a token.
 * @param record - The token as of this use.
 * @param nowMs - The current time.
 * @returns The lookup answer's data (no secret in it).
 */
export function lookupView(record: TokenRecord, nowMs: number): Record<string, unknown> {
  return {
    policies: [...record.policies],
    meta: { ...record.meta },
    display_name: record.displayName,
    path: record.path,
    ttl: Math.max(0, Math.floor((record.expiresMs - nowMs) / 1000)),
    creation_ttl: record.creationTtl,
    expire_time: new Date(record.expiresMs).toISOString(),
    creation_time: Math.floor(record.createdMs / 1000),
    explicit_max_ttl: record.explicitMaxTtl,
    period: record.period,
    num_uses: record.numUses,
    bound_cidrs: [...record.boundCidrs],
    renewable: record.renewable,
    type: record.type,
    orphan: true,
  };
}

/** What the secrets service says of a token another service was handed (a job's `SecretsToken`). */
export type TokenLookup =
  | { readonly status: 'valid'; readonly policies: readonly string[] }
  | { readonly status: 'expired' }
  | { readonly status: 'unknown' };

/**
 * Looks a token up for another service without using it: no use is counted and its CIDR blocks
 * are not applied (the caller is the scheduling service, not the token's holder). The root token
 * carries the `root` policy, which allows every policy.
 * @param table - Where tokens live.
 * @param rootTokenHash - SHA-256 hex of the root token.
 * @param secret - The token as handed over.
 * @param nowMs - The current time.
 * @returns Its policies, or why it is refused.
 */
export function lookupToken(
  table: TokenTable,
  rootTokenHash: string,
  secret: string,
  nowMs: number,
): TokenLookup {
  if (secretMatches(secret, rootTokenHash)) return { status: 'valid', policies: ['root'] };
  const record = table.get(hashToken(secret));
  if (record === undefined || !secretMatches(secret, record.hash)) return { status: 'unknown' };
  if (record.expiresMs <= nowMs) return { status: 'expired' };
  return { status: 'valid', policies: record.policies };
}
