import { ApiError } from '@sked/http';
import { Command } from 'commander';

import { schedulerContext } from '../context.js';
import { collect, handler, integer } from '../handler.js';
import { withInterrupt } from '../interrupt.js';
import { watchStdoutClosed } from '../stdout-closed.js';

const TOPIC = /^[A-Za-z*][A-Za-z0-9_*-]*(:[^:]+)?$/;

async function stream(command: Command): Promise<number> {
  const ctx = schedulerContext(command);
  const opts = command.opts<{ topic?: string[]; index?: number }>();
  for (const topic of opts.topic ?? [])
    if (!TOPIC.test(topic)) {
      ctx.output.err(`Error: "${topic}" is not a topic: write Topic or Topic:key (for example Job:web).`);
      return 1;
    }
  // The stream retries a failed connection for ever (it resumes after a drop): a server that does
  // not answer at all at the start is an error to report now, not something to wait for.
  try {
    await ctx.client.jobs.list({ perPage: 1 });
  } catch (error) {
    if (ApiError.is(error) && error.status === 0) throw error;
  }
  let last = opts.index === undefined ? undefined : opts.index - 1;
  // The reader went away (`| head`): that ends the stream, it is not a failure.
  const unwatch = watchStdoutClosed(() => process.exit(0));
  return withInterrupt(async (signal) => {
    try {
      for await (const event of ctx.client.events({
        signal,
        ...(opts.index === undefined ? {} : { index: opts.index }),
        ...(opts.topic === undefined ? {} : { topics: opts.topic }),
        onReconnect: ({ index, error, delayMs }) =>
          ctx.output.err(
            `Reconnecting from index ${index} in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`,
          ),
      })) {
        last = event.Index;
        process.stdout.write(`${JSON.stringify(event)}\n`);
      }
      return 0;
    } catch (error) {
      if (!signal.aborted) throw error;
      if (last !== undefined) ctx.output.err(`Stopped after index ${last}; resume with --index ${last + 1}`);
      return 0;
    } finally {
      unwatch();
    }
  });
}

/** The `event` command. */
export function eventCommand(): Command {
  return new Command('event')
    .description('The event stream')
    .addCommand(
      new Command('stream')
        .description('Print cluster events, one JSON event per line; reconnects after a dropped connection')
        .option(
          '--topic <topic>',
          'Topic or Topic:key, such as Job:web (repeatable; default every topic)',
          collect,
        )
        .option('--index <n>', 'start at this index (the last one seen + 1 to resume)', integer)
        .addHelpText(
          'after',
          '\nCtrl-C ends it (exit 0) and prints the --index to resume from.\n\nExample:\n  $ sked event stream --topic Job:web --topic Allocation:web\n  $ sked event stream --index 120 | jq .Type',
        )
        .action(handler(stream)),
    );
}
