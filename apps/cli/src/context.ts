import { createSchedulerClient, type SchedulerClient } from '@sked/scheduler-client';
import type { Command } from 'commander';

import type { ErrorContext } from './errors.js';
import { processOutput, type Output } from './output.js';
import { connectionOptions, errorContext } from './service-config.js';
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
  /** The namespace the command works in (flag, `SKED_NAMESPACE`, or `default`), as the client resolved it. */
  readonly namespace: string;
}

/** The global options of the command being run (its own and its parents'). */
export function globalsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Builds the scheduling service client from the flags; the client resolves `SKED_*` and its defaults. */
export function schedulerContext(command: Command): SchedulerContext {
  const globals = globalsOf(command);
  const client = createSchedulerClient({
    ...connectionOptions('scheduler', { ...globals, timeout: requestTimeout(globals.timeout) }),
    ...(globals.namespace === undefined ? {} : { namespace: globals.namespace }),
    ...(globals.region === undefined ? {} : { region: globals.region }),
  });
  return {
    client,
    output: processOutput(globals.json === true),
    globals,
    namespace: client.transport.config.namespace ?? 'default',
    errors: errorContext('scheduler', client.transport.config.address),
  };
}
