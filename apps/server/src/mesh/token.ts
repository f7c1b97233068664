import { badRequest } from '../http/errors.js';
import { isRecord } from '../http/guards.js';

/** What a peering token carries (base64 of this JSON). */
export interface PeeringTokenContent {
  /** CA certificates of the generating servers; `null`: plain HTTP between the sample servers. */
  readonly CA: null;
  /** Addresses to dial, `{host or IP}:port`. */
  readonly ServerAddresses: readonly string[];
  /** Server name of the generating cluster. */
  readonly ServerName: string;
  /** ID of the peering in the generating cluster. */
  readonly PeerID: string;
  /** One-time secret that proves the holder may establish the peering. */
  readonly EstablishmentSecret: string;
  /** Where the generating cluster lives. */
  readonly Remote: { readonly Partition: string; readonly Datacenter: string };
}

/** Most addresses a token (or `ServerExternalAddresses`) may name. */
export const MAX_ADDRESSES = 16;
/** Longest token accepted, in characters. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks a `{host or IP}:port` address (an IPv6 host in brackets).
 * @param address - Any value.
 * @returns The reason it is not an address, or undefined when it is one.
 */
export function addressProblem(address: unknown): string | undefined {
  if (typeof address !== 'string') return `expected a "host:port" string, got ${typeof address}`;
  const cut = address.lastIndexOf(':');
  const host = address.slice(0, cut);
  const port = address.slice(cut + 1);
  if (cut <= 0 || !HOST.test(host)) {
    return `${JSON.stringify(address.slice(0, 100))} is not of the form host:port`;
  }
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    return `${JSON.stringify(address.slice(0, 100))} has no port between 1 and 65535`;
  }
  return undefined;
}

/**
 * Encodes a token.
 * @param content - What the token carries.
 * @returns Base64 of its JSON.
 */
export function encodeToken(content: PeeringTokenContent): string {
  return Buffer.from(JSON.stringify(content), 'utf8').toString('base64');
}

/**
 * Decodes and checks a token received in an establish request.
 * @param token - The `PeeringToken` field as sent.
 * @returns The content.
 * @throws 400 naming what is wrong: not base64, not JSON, a missing or malformed field.
 */
export function decodeToken(token: string): PeeringTokenContent {
  const text = token.trim();
  if (text.length > MAX_TOKEN_LENGTH) {
    throw badRequest(`PeeringToken is longer than ${MAX_TOKEN_LENGTH} characters`);
  }
  if (text === '' || text.length % 4 !== 0 || !BASE64.test(text)) {
    throw badRequest('PeeringToken is not valid base64: copy the whole token the peer cluster generated');
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as unknown;
  } catch {
    throw badRequest('PeeringToken is base64 but does not decode to JSON: it is not a peering token');
  }
  const fail = (message: string): never => {
    throw badRequest(`PeeringToken is not a valid peering token: ${message}`);
  };
  if (!isRecord(json)) return fail('expected a JSON object');
  const addresses = json['ServerAddresses'];
  if (!Array.isArray(addresses) || addresses.length === 0) {
    return fail('ServerAddresses must be a non-empty array of "host:port" strings');
  }
  if (addresses.length > MAX_ADDRESSES) fail(`ServerAddresses names more than ${MAX_ADDRESSES} addresses`);
  addresses.forEach((address: unknown, i) => {
    const problem = addressProblem(address);
    if (problem !== undefined) fail(`ServerAddresses[${i}]: ${problem}`);
  });
  const serverName = json['ServerName'];
  if (typeof serverName !== 'string' || serverName === '' || serverName.length > 255) {
    fail('ServerName must be a non-empty string of at most 255 characters');
  }
  const peerId = json['PeerID'];
  if (typeof peerId !== 'string' || !UUID.test(peerId)) fail('PeerID must be a UUID');
  const secret = json['EstablishmentSecret'];
  if (typeof secret !== 'string' || secret === '' || secret.length > 256) {
    fail('EstablishmentSecret must be a non-empty string');
  }
  const remote = json['Remote'];
  if (!isRecord(remote)) return fail('Remote must be an object with Partition and Datacenter');
  const partition = remote['Partition'];
  const datacenter = remote['Datacenter'];
  if (typeof partition !== 'string' || partition.length > 128) fail('Remote.Partition must be a string');
  if (typeof datacenter !== 'string' || datacenter === '' || datacenter.length > 128) {
    fail('Remote.Datacenter must be a non-empty string');
  }
  return {
    CA: null,
    ServerAddresses: addresses as string[],
    ServerName: serverName as string,
    PeerID: peerId as string,
    EstablishmentSecret: secret as string,
    Remote: { Partition: (partition as string) || 'default', Datacenter: datacenter as string },
  };
}

/**
 * Whether a value is a lower-case UUID as this server generates them.
 * @param value - Any value.
 * @returns True for a UUID.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
