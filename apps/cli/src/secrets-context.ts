import { createSecretsClient, type SecretsClient } from '@sked/secrets-client';
import type { Command } from 'commander';

import { globalsOf, type GlobalOptions } from './context.js';
import type { ErrorContextOf } from './handler.js';
import { processOutput, type Output } from './output.js';
import { connectionOptions, errorContext, resolvedAddress, type ConnectionFlags } from './service-config.js';
import { requestTimeout } from './timeout.js';
import { readUserConfig } from './user-config.js';

/** What a secrets service command needs. */
export interface SecretsContext {
  readonly client: SecretsClient;
  readonly output: Output;
  readonly globals: GlobalOptions;
  /** The mount of the LDAP method (`ldap` = `auth/ldap`). */
  readonly mount: string;
  /** The address the client talks to. */
  readonly address: string;
}

/** The secrets service's error words. */
export const secretsErrors: ErrorContextOf = (command) =>
  errorContext('secrets', resolvedAddress('secrets', globalsOf(command)));

/**
 * The secrets service client: address from `--address`, `SKED_SECRETS_ADDR`, the saved login,
 * or the client's default; token from `--token`, `SKED_SECRETS_TOKEN`, or the one `login ldap --save` kept.
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
  flags: ConnectionFlags,
  mount = 'ldap',
  options: { token?: boolean } = {},
): Promise<{ client: SecretsClient; address: string }> {
  const saved = await readUserConfig();
  const client = createSecretsClient({
    ...connectionOptions('secrets', flags, saved, options.token !== false),
    mount,
  });
  return { client, address: client.transport.config.address };
}
