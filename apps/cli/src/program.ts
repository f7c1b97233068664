import { createRequire } from 'node:module';

import { Command, Option } from 'commander';

import { allocCommand } from './commands/alloc.js';
import { eventCommand } from './commands/event.js';
import { filterCommand } from './commands/filter.js';
import { ldapCommand } from './commands/ldap.js';
import { loginCommands } from './commands/login.js';
import { peeringCommand } from './commands/peering.js';
import { readCommands } from './commands/job-read.js';
import { submitCommands } from './commands/job-submit.js';
import { writeCommands } from './commands/job-write.js';
import { volumeCommand } from './commands/volume.js';
import { addCompletion } from './completion.js';

/** The version printed by `sked --version`: the package's. */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

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
      '\n`sked --version` (or `sked version`) prints the version.\nGlobal flags go before or after the subcommand. Exit codes: 0 success, 1 error or usage error;\n`job run` 2 when placement failed; `job plan` 0 no changes, 1 changes, 255 error.\n\nExample:\n  $ sked job run web.hcl\n  $ sked job status web --json',
    );
  program.addCommand(jobCommand());
  program.addCommand(allocCommand());
  program.addCommand(volumeCommand());
  program.addCommand(eventCommand());
  program.addCommand(filterCommand());
  for (const command of loginCommands()) program.addCommand(command);
  program.addCommand(ldapCommand());
  program.addCommand(peeringCommand());
  program.addCommand(
    new Command('version').description('Print the version of sked').action(() => console.log(VERSION)),
  );
  inherit(program);
  // `job plan` keeps the service CLI's codes: 1 means "changes", so a usage error is 255 there.
  program.commands
    .find((c) => c.name() === 'job')
    ?.commands.find((c) => c.name() === 'plan')
    ?.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 255));
  addCompletion(program);
  return program;
}
