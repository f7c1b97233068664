import { createClient, type SchedulerClient } from '@sked/scheduler-client';
import type { Command } from 'commander';

import type { ErrorContext } from './errors.js';
import { processOutput, type Output } from './output.js';
import { requestTimeout } from './timeout.js';

/** The global flags, accepted before or after the subcommand. */
export interface GlobalOptions {
  readonly address?: string;
  readonly token?: string;
  readonly namespace?: string;
  readonly region?: string;
  readonly json?: boolean;
  readonly timeout?: string;
}

/** What a scheduling service command needs: the client, the output, and the words for errors. */
export interface SchedulerContext {
  readonly client: SchedulerClient;
  readonly output: Output;
  readonly errors: ErrorContext;
  readonly globals: GlobalOptions;
  /** The namespace the command works in (flag, `SKED_NAMESPACE`, or `default`). */
  readonly namespace: string;
}

/** The global options of the command being run (its own and its parents'). */
export function globalsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Builds the scheduling service client from the flags, then `SKED_*`, then the defaults. */
export function schedulerContext(command: Command): SchedulerContext {
  const globals = globalsOf(command);
  const address = globals.address ?? envValue('SKED_ADDR') ?? 'http://127.0.0.1:4646';
  const client = createClient({
    address,
    timeout: requestTimeout(globals.timeout),
    ...(globals.token === undefined ? {} : { token: globals.token }),
    ...(globals.namespace === undefined ? {} : { namespace: globals.namespace }),
    ...(globals.region === undefined ? {} : { region: globals.region }),
  });
  return {
    client,
    output: processOutput(globals.json === true),
    globals,
    namespace: globals.namespace ?? envValue('SKED_NAMESPACE') ?? 'default',
    errors: {
      service: 'scheduling service',
      addressVar: 'SKED_ADDR',
      tokenVar: 'SKED_TOKEN',
      address,
    },
  };
}
