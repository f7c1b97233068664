/**
 * The one place the CLI resolves each service's configuration. The clients resolve flags (passed
 * as options) over their environment variables over their default addresses; the CLI adds only
 * what the clients do not know: the secrets login saved by `sked login ldap --save`, which ranks
 * below the environment. Addresses and variable names come from the clients, never written here.
 */
import { createMeshClient, MESH_DEFAULT_ADDRESS, MESH_ENV_PREFIX } from '@sked/mesh-client';
import {
  createSchedulerClient,
  SCHEDULER_DEFAULT_ADDRESS,
  SCHEDULER_ENV_PREFIX,
} from '@sked/scheduler-client';
import { createSecretsClient, SECRETS_DEFAULT_ADDRESS, SECRETS_ENV_PREFIX } from '@sked/secrets-client';

import type { ErrorContext } from './errors.js';
import type { UserConfig } from './user-config.js';

/** The services the CLI talks to. */
export type Service = 'scheduler' | 'secrets' | 'mesh';

/** What the CLI knows of a service: its name and the client's prefix and default address. */
export const SERVICES: Readonly<
  Record<Service, { readonly name: string; readonly prefix: string; readonly defaultAddress: string }>
> = {
  scheduler: {
    name: 'scheduling service',
    prefix: SCHEDULER_ENV_PREFIX,
    defaultAddress: SCHEDULER_DEFAULT_ADDRESS,
  },
  secrets: { name: 'secrets service', prefix: SECRETS_ENV_PREFIX, defaultAddress: SECRETS_DEFAULT_ADDRESS },
  mesh: { name: 'mesh service', prefix: MESH_ENV_PREFIX, defaultAddress: MESH_DEFAULT_ADDRESS },
};

/** Connection flags of one run (`--address`, `--token`, `--timeout` in milliseconds). */
export interface ConnectionFlags {
  readonly address?: string | undefined;
  readonly token?: string | undefined;
  readonly timeout?: number | undefined;
}

/** The connection options of a client: only the flags given; the client resolves the rest. */
export interface ConnectionOptions {
  address?: string;
  token?: string;
  timeout?: number;
}

function variable(service: Service, name: string): string | undefined {
  const value = process.env[SERVICES[service].prefix + name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The options to create a service's client with: the flags; for the secrets service, the saved
 * login where neither a flag nor the environment gives an address or token.
 * @param service - The service.
 * @param flags - The flags of the run.
 * @param saved - The user config (secrets service only).
 * @param withToken - `false` sends no token at all (a login).
 * @returns The options.
 */
export function connectionOptions(
  service: Service,
  flags: ConnectionFlags,
  saved: UserConfig = {},
  withToken = true,
): ConnectionOptions {
  const kept = service === 'secrets' ? (saved.secrets ?? {}) : {};
  const options: ConnectionOptions = {};
  const address = flags.address ?? (variable(service, 'ADDR') === undefined ? kept.address : undefined);
  if (address !== undefined) options.address = address;
  if (withToken) {
    const token = flags.token ?? (variable(service, 'TOKEN') === undefined ? kept.token : undefined);
    if (token !== undefined) options.token = token;
  }
  if (flags.timeout !== undefined) options.timeout = flags.timeout;
  return options;
}

/**
 * The words of a service's errors: its name, its variables, and the address its client resolved.
 * @param service - The service.
 * @param address - `client.transport.config.address`.
 * @returns The error context.
 */
export function errorContext(service: Service, address: string): ErrorContext {
  const { name, prefix } = SERVICES[service];
  return { service: name, addressVar: `${prefix}ADDR`, tokenVar: `${prefix}TOKEN`, address };
}

/**
 * The address a service's client resolves for these flags (the flag, else the environment, else
 * the client's default); the flag or the default when the configuration is refused.
 * @param service - The service.
 * @param flags - The flags of the run.
 * @returns The address.
 */
export function resolvedAddress(service: Service, flags: { readonly address?: string | undefined }): string {
  const options = connectionOptions(service, { address: flags.address });
  try {
    switch (service) {
      case 'scheduler':
        return createSchedulerClient(options).transport.config.address;
      case 'secrets':
        return createSecretsClient(options).transport.config.address;
      case 'mesh':
        return createMeshClient(options).transport.config.address;
    }
  } catch {
    return flags.address ?? SERVICES[service].defaultAddress;
  }
}
