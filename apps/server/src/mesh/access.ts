/**
 * What the mesh service needs of the server's ACL: the server's ACL (the scheduling service's
 * token file) has this shape and the root wiring hands it over, so the mesh never imports the
 * scheduler.
 */

/** Read or write access to peerings. */
export type PeeringAccess = 'read' | 'write';

/** A resolved token, as far as peerings go. */
export interface PeeringPrincipal {
  /** Whether the token is a management token (sees every peering). */
  readonly management: boolean;
  /**
   * Whether the token has peering access of at least this level to a peering.
   * @param name - Peering name, or `*` (in at least one peering).
   * @param access - `read` or `write`.
   */
  allowPeering(name: string, access: PeeringAccess): boolean;
}

/** The server's ACL, as far as peerings go. */
export interface PeeringAcl {
  /**
   * The principal of a secret (everything allowed when tokens are not checked).
   * @param secret - The request's secret, if any.
   * @returns The principal, or undefined for a missing or unknown secret.
   */
  resolve(secret: string | undefined): PeeringPrincipal | undefined;
}
