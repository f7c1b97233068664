import { Command, Option } from 'commander';

import { allocCommand } from './commands/alloc.js';
import { eventCommand } from './commands/event.js';
import { filterCommand } from './commands/filter.js';
import { readCommands } from './commands/job-read.js';
import { submitCommands } from './commands/job-submit.js';
import { writeCommands } from './commands/job-write.js';
import { volumeCommand } from './commands/volume.js';
import { addCompletion } from './completion.js';

/** The version printed by `sked --version`. */
export const VERSION = '0.0.0';

function jobCommand(): Command {
  const job = new Command('job').description(
    'Jobs: run, plan, validate, status, inspect, history, revert, dispatch, stop',
  );
  for (const command of [...submitCommands(), ...readCommands(), ...writeCommands()]) job.addCommand(command);
  return job;
}

/** Gives every command of the tree the program's settings: usage after an error, and so on. */
function inherit(command: Command): void {
  for (const sub of command.commands) {
    sub.copyInheritedSettings(command);
    inherit(sub);
  }
}

/** The whole `sked` command tree. */
export function createProgram(): Command {
  const program = new Command('sked')
    .description(
      'sked: the scheduling service, the secrets service LDAP auth method and the mesh service peering, from the command line.',
    )
    .version(VERSION, '-V, --version')
    .addOption(
      new Option(
        '--address <url>',
        'address of the service the command talks to (env SKED_ADDR, SKED_SECRETS_ADDR, SKED_MESH_ADDR)',
      ),
    )
    .addOption(
      new Option(
        '--token <token>',
        'token for that service (env SKED_TOKEN, SKED_SECRETS_TOKEN, SKED_MESH_TOKEN)',
      ),
    )
    .addOption(new Option('--namespace <name>', 'namespace, * for all on lists (env SKED_NAMESPACE)'))
    .addOption(new Option('--region <name>', 'region (env SKED_REGION)'))
    .addOption(new Option('--json', "print the API's JSON instead of tables"))
    .showHelpAfterError()
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      '\nGlobal flags go before or after the subcommand. Exit codes: 0 success, 1 error or usage error;\n`job run` 2 when placement failed; `job plan` 0 no changes, 1 changes, 255 error.\n\nExample:\n  $ sked job run web.hcl\n  $ sked job status web --json',
    );
  program.addCommand(jobCommand());
  program.addCommand(allocCommand());
  program.addCommand(volumeCommand());
  program.addCommand(eventCommand());
  program.addCommand(filterCommand());
  inherit(program);
  addCompletion(program);
  return program;
}
