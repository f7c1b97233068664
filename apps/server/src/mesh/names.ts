import { badRequest } from '../http/errors.js';

/** The only partition this server has. */
export const DEFAULT_PARTITION = 'default';

const PEER_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether a name is a valid peer name: a lowercase DNS label of 1-63 characters (letters, digits
 * and hyphens, no hyphen at either end).
 * @param name - Any value.
 * @returns True for a valid name.
 */
export function isPeerName(name: unknown): name is string {
  return typeof name === 'string' && PEER_NAME.test(name);
}

/**
 * Checks a peer name.
 * @param name - The name as sent.
 * @param where - Where it came from, for the message (`PeerName`, `the path`).
 * @returns The name.
 * @throws 400 naming what is wrong.
 */
export function checkPeerName(name: unknown, where: string): string {
  if (isPeerName(name)) return name;
  const shown =
    typeof name === 'string'
      ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
      : String(name);
  throw badRequest(
    `${where} ${shown} is not a valid peer name: use a lowercase DNS label of 1 to 63 characters (a-z, 0-9 and "-", no "-" at either end)`,
  );
}

/**
 * Checks a partition (body field or query parameter): `""`, absent or `default`.
 * @param partition - The value as sent.
 * @param where - Where it came from, for the message.
 * @returns `default`.
 * @throws 400 for any other partition.
 */
export function checkPartition(partition: unknown, where: string): string {
  if (partition === undefined || partition === null || partition === '' || partition === DEFAULT_PARTITION) {
    return DEFAULT_PARTITION;
  }
  const shown = typeof partition === 'string' ? JSON.stringify(partition.slice(0, 80)) : typeof partition;
  throw badRequest(`${where} ${shown} is not served: this server has only the "default" partition`);
}
