/**
 * The server's defaults, written once: the root wiring, the services and the `sked-server` flags
 * read them from here. A leaf: it imports nothing.
 */
export const DEFAULTS = {
  /** Address every listener binds. */
  bind: '127.0.0.1',
  /** Region the server serves. */
  region: 'global',
  /** Datacenter of the simulated nodes and of the mesh service. */
  datacenter: 'dc1',
  /** Number of simulated client nodes. */
  nodes: 3,
  /** Largest accepted request body in bytes (10 MiB). */
  maxBody: 10 * 1024 * 1024,
  /** Heartbeat interval of event streams, exec sessions and peering streams, in milliseconds. */
  heartbeatMs: 10_000,
  /** How long a deleted peering stays readable, in milliseconds. */
  meshCleanupMs: 10_000,
  /** Port of the scheduling service API. */
  schedulerPort: 4646,
  /** Port of the secrets service API. */
  secretsPort: 8200,
  /** Port of the mesh service API. */
  meshPort: 8500,
  /** Mount of the LDAP auth method under `auth/`. */
  ldapMount: 'ldap',
} as const;
