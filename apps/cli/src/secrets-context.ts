import { createSecretsClient, type SecretsClient } from '@sked/secrets-client';
import type { Command } from 'commander';

import { globalsOf, type GlobalOptions } from './context.js';
import type { ErrorContext } from './errors.js';
import type { ErrorContextOf } from './handler.js';
import { processOutput, type Output } from './output.js';
import { requestTimeout } from './timeout.js';
import { readUserConfig } from './user-config.js';

/** Default address of the secrets service. */
export const SECRETS_DEFAULT_ADDRESS = 'http://127.0.0.1:8200';

/** What a secrets service command needs. */
export interface SecretsContext {
  readonly client: SecretsClient;
  readonly output: Output;
  readonly globals: GlobalOptions;
  /** The mount of the LDAP method (`ldap` = `auth/ldap`). */
  readonly mount: string;
  readonly address: string;
}

function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

function secretsAddress(command: Command): string {
  return globalsOf(command).address ?? envValue('SKED_SECRETS_ADDR') ?? SECRETS_DEFAULT_ADDRESS;
}

/** The secrets service's error words. */
export const secretsErrors: ErrorContextOf = (command): ErrorContext => ({
  service: 'secrets service',
  addressVar: 'SKED_SECRETS_ADDR',
  tokenVar: 'SKED_SECRETS_TOKEN',
  address: secretsAddress(command),
});

/**
 * The secrets service client: address from `--address`, `SKED_SECRETS_ADDR`, the saved login,
 * or the default; token from `--token`, `SKED_SECRETS_TOKEN`, or the one `login ldap --save` kept.
 */
export async function secretsContext(
  command: Command,
  options: { token?: boolean } = {},
): Promise<SecretsContext> {
  const globals = globalsOf(command);
  const mount = command.optsWithGlobals<{ mount?: string }>().mount ?? 'ldap';
  const { client, address } = await secretsClientFor(
    { address: globals.address, token: globals.token, timeout: requestTimeout(globals.timeout) },
    mount,
    options,
  );
  return { client, output: processOutput(globals.json === true), globals, mount, address };
}

/**
 * The secrets service client for the given flags (as {@link secretsContext} resolves them, without a
 * command: shell completion uses it too). `token: false` sends no token.
 */
export async function secretsClientFor(
  flags: {
    readonly address?: string | undefined;
    readonly token?: string | undefined;
    readonly timeout?: number | undefined;
  },
  mount = 'ldap',
  options: { token?: boolean } = {},
): Promise<{ client: SecretsClient; address: string }> {
  const saved = (await readUserConfig()).secrets ?? {};
  const address = flags.address ?? envValue('SKED_SECRETS_ADDR') ?? saved.address ?? SECRETS_DEFAULT_ADDRESS;
  const token =
    options.token === false ? undefined : (flags.token ?? envValue('SKED_SECRETS_TOKEN') ?? saved.token);
  const client = createSecretsClient({
    address,
    mount,
    ...(token === undefined ? {} : { token }),
    ...(flags.timeout === undefined ? {} : { timeout: flags.timeout }),
  });
  return { client, address };
}
