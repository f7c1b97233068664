import { Command } from 'commander';

/** The `Example:` block of a command's help: one `$ sked ...` line per example. */
export function examples(...lines: readonly string[]): string {
  return `\nExample:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}

/** A `job` subcommand whose first argument is a job ID (or a unique prefix of it), with its examples. */
export function jobIdCommand(name: string, description: string, ...lines: readonly string[]): Command {
  return new Command(name)
    .description(description)
    .argument('<id>', 'job ID or a unique prefix of it')
    .addHelpText('after', examples(...lines));
}
