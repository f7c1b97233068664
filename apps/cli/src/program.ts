import { Command, Option } from 'commander';

import { allocCommand } from './commands/alloc.js';
import { eventCommand } from './commands/event.js';
import { filterCommand } from './commands/filter.js';
import { ldapCommand } from './commands/ldap.js';
import { loginCommands } from './commands/login.js';
import { peeringCommand } from './commands/peering.js';
import { serverCommand } from './commands/server.js';
import { readCommands } from './commands/job-read.js';
import { submitCommands } from './commands/job-submit.js';
import { writeCommands } from './commands/job-write.js';
import { volumeCommand } from './commands/volume.js';
import { addCompletion } from './completion.js';
import { examples } from './help.js';

import { VERSION } from './version.js';

export { VERSION };

function jobCommand(): Command {
  const job = new Command('job').description(
    'Jobs: run, plan, validate, status, inspect, history, revert, dispatch, stop',
  );
  for (const command of [...submitCommands(), ...readCommands(), ...writeCommands()]) job.addCommand(command);
  return job;
}

/** Examples of the commands that group others (and of `version` and `completion`), by path. */
const GROUP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  job: ['sked job run web.hcl', 'sked job status web', 'sked job stop web'],
  alloc: ['sked alloc status --filter \'JobID == "web"\'', 'sked alloc exec --job web sh'],
  volume: ['sked volume register db-data.json', 'sked volume status db-data'],
  event: ['sked event stream --topic Job:web'],
  server: ['sked server members', 'sked server members --region east'],
  filter: [
    'sked filter check \'Status == "running"\'',
    'sked job status --json | sked filter eval \'Type == "batch"\'',
  ],
  login: ['sked login ldap -u alice --save'],
  token: ['sked token lookup'],
  ldap: ['sked ldap config read', 'sked ldap group write devs policies=dev,shared', 'sked ldap user list'],
  'ldap config': ['sked ldap config read', 'sked ldap config write url=ldap://127.0.0.1:389 userattr=uid'],
  'ldap group': ['sked ldap group list', 'sked ldap group write devs policies=dev,shared'],
  'ldap user': ['sked ldap user list', 'sked ldap user write alice policies=dev groups=devs'],
  peering: ['sked peering generate-token dc2 > dc2.token', 'sked peering list'],
  version: ['sked version'],
  completion: [
    'source <(sked completion bash)      # bash, with the bash-completion package',
    'source <(sked completion zsh)       # zsh, after compinit',
    'sked completion fish | source       # fish',
  ],
};

/** Adds the examples above to their commands. */
function addGroupExamples(command: Command, path = ''): void {
  const lines = GROUP_EXAMPLES[path];
  if (lines !== undefined) command.addHelpText('after', examples(...lines));
  for (const sub of command.commands)
    addGroupExamples(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
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
    .addOption(
      new Option(
        '--timeout <duration>',
        'time limit of each request: seconds or 500ms/90s/2m, 0 for none (env SKED_CLIENT_TIMEOUT; default 60s)',
      ),
    )
    .showHelpAfterError()
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      "\n`sked --version` (or `sked version`) prints the version.\nGlobal flags go before or after the subcommand. Exit codes: 0 success, 1 error or usage error;\n`job run` 2 when placement failed; `job plan` 0 no changes, 1 changes, 255 error;\n`alloc exec` the remote command's; `ldap ... read` 2 when there is nothing; 130 after Ctrl-C.\n\nExample:\n  $ sked job run web.hcl\n  $ sked job status web --json",
    );
  program.addCommand(jobCommand());
  program.addCommand(allocCommand());
  program.addCommand(volumeCommand());
  program.addCommand(eventCommand());
  program.addCommand(serverCommand());
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
  addGroupExamples(program);
  return program;
}
