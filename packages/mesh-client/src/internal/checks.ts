/** The names, addresses, Meta and tokens of the mesh service's peering endpoints. */
import { quote } from '@sked/http';

import { InvalidRequestError } from '../errors.js';

const PEER_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Checks a peer name: a lowercase DNS label of 1 to 63 characters. */
export function requirePeerName(value: unknown, parameter: string): string {
  if (typeof value === 'string' && PEER_NAME.test(value)) return value;
  throw new InvalidRequestError(
    `${parameter} ${quote(value)} is not a valid peer name: use a lowercase DNS label of 1 to 63 characters (a-z, 0-9 and "-", no "-" at either end).`,
    parameter,
    value,
  );
}

/** Checks an optional partition: a non-empty string. */
export function optionalPartition(value: unknown, parameter: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '' && value.length <= 128 && !/[\s/?#]/.test(value))
    return value;
  throw new InvalidRequestError(
    `${parameter} ${quote(value)} is not a partition name: use a non-empty name without spaces, "/", "?" or "#".`,
    parameter,
    value,
  );
}

/** Checks a `{host or IP}:port` list of at most 16 addresses. */
export function optionalAddresses(value: unknown, parameter: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 16) {
    throw new InvalidRequestError(
      `${parameter} must be an array of at most 16 "host:port" strings, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  value.forEach((address: unknown, i) => {
    const text = typeof address === 'string' ? address : '';
    const cut = text.lastIndexOf(':');
    const port = Number(text.slice(cut + 1));
    if (
      cut <= 0 ||
      !HOST.test(text.slice(0, cut)) ||
      !/^\d{1,5}$/.test(text.slice(cut + 1)) ||
      port < 1 ||
      port > 65535
    ) {
      throw new InvalidRequestError(
        `${parameter}[${i}] ${quote(address)} is not an address of the form host:port (port 1 to 65535).`,
        parameter,
        value,
      );
    }
  });
  return value as string[];
}

/** Checks an optional `Meta`: an object of string values. */
export function optionalMeta(
  value: unknown,
  parameter: string,
): Readonly<Record<string, string>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRequestError(
      `${parameter} must be an object of string values, but got ${quote(value)}.`,
      parameter,
      value,
    );
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      throw new InvalidRequestError(
        `${parameter}.${key} must be a string, but got ${quote(item)}.`,
        parameter,
        value,
      );
    }
  }
  return value as Record<string, string>;
}

/**
 * Checks a peering token without sending it anywhere: base64 of a JSON object. The token is a
 * credential, so the error carries its length, never the token.
 */
export function requirePeeringToken(value: unknown, parameter: string): string {
  const refuse = (why: string): never => {
    throw new InvalidRequestError(
      `${parameter} ${why}: pass the whole PeeringToken that the peer cluster's generateToken returned.`,
      parameter,
      typeof value === 'string' ? `<${value.length} characters>` : typeof value,
    );
  };
  if (typeof value !== 'string' || value.trim() === '') return refuse('must be a non-empty string');
  const text = value.trim();
  if (text.length % 4 !== 0 || !BASE64.test(text)) return refuse('is not valid base64');
  let json: unknown;
  try {
    // atob and TextDecoder: the same in Node and in browsers (Buffer is Node's alone)
    const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
    json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return refuse('is base64 but not of JSON, so it is not a peering token');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return refuse('does not hold a JSON object');
  return text;
}
