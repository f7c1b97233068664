import { ShellCompDirective, type RootCommand } from '@bomb.sh/tab';
import tab from '@bomb.sh/tab/commander';
import type { Command } from 'commander';

import {
  ALLOC_COMMANDS,
  JOB_COMMANDS,
  LDAP_NAME_COMMANDS,
  PEERING_COMMANDS,
  VERSION_FLAGS,
  type Candidate,
  type Wanted,
} from './completion-ids.js';

/** Arguments that name a file: the shell completes file names there. */
const FILE_ARGUMENTS: readonly (readonly [string, string])[] = [
  ['job run', 'file'],
  ['job plan', 'file'],
  ['job validate', 'file'],
  ['job dispatch', 'input'],
  ['volume register', 'file'],
  ['filter eval', 'file'],
];

/** Topics of the event stream (the spec's table), offered after `--topic`. */
const TOPICS = [
  '*',
  'Job',
  'Allocation',
  'Deployment',
  'Evaluation',
  'Node',
  'NodeDrain',
  'NodePool',
  'Service',
  'ACLToken',
  'ACLPolicy',
  'ACLRoles',
];

/** Signals offered after `alloc signal -s`. */
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGKILL', 'SIGUSR1', 'SIGUSR2'];

/** What the completion request in this process found: candidates from a server, and whether files fit. */
const state: { wanted: Wanted['kind'] | undefined; candidates: readonly Candidate[]; files: boolean } = {
  wanted: undefined,
  candidates: [],
  files: false,
};

/**
 * Sets what the request offers from a server: job or allocation IDs, versions, LDAP group or user
 * names, peering names (fetched before the request is parsed: tab's handlers are synchronous).
 */
export function setCandidates(found: { wanted: Wanted | undefined; candidates: readonly Candidate[] }): void {
  state.wanted = found.wanted?.kind;
  state.candidates = found.candidates;
}

/** The candidates fetched, if they are of one of `kinds` (else none: they were fetched for another place). */
function candidatesOf(...kinds: Wanted['kind'][]): Candidate[] {
  return state.wanted !== undefined && kinds.includes(state.wanted) ? [...state.candidates] : [];
}

/**
 * Prints the completions of the request as the cobra protocol has them: one `value\tdescription`
 * a line, then `:directive`. Files are left to the shell (directive 0) where the argument is a
 * file, and refused (NoFileComp) elsewhere: @bomb.sh/tab 0.0.22 always refuses them.
 */
function printCompletions(this: RootCommand, current: string): void {
  const typed = current.includes('=') ? current.slice(current.indexOf('=') + 1) : current;
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { value, description } of this.completions) {
    if (seen.has(value) || !value.startsWith(typed)) continue;
    seen.add(value);
    lines.push(`${value}\t${description ?? ''}`);
  }
  const directive = state.files
    ? ShellCompDirective.ShellCompDirectiveDefault
    : ShellCompDirective.ShellCompDirectiveNoFileComp;
  lines.push(`:${directive}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Fixes to tab's bash script, each checked so that an upgrade that changes it fails the tests. */
const BASH_FIXES: readonly (readonly [string | RegExp, string])[] = [
  // `readonly` made sourcing the script a second time (a new .bashrc read) print errors.
  [/^readonly (ShellCompDirective\w+=\d+)$/gm, '$1'],
  // Only the words up to the cursor make the request (the cursor may be mid-line).
  ['requestComp="sked complete -- ${words[@]:1}"', 'requestComp="sked complete -- ${words[*]:1:cword}"'],
  // Without -o default, an empty answer with file completion allowed (a job file) completed nothing.
  ['complete -F __sked_complete sked', 'complete -o default -F __sked_complete sked'],
];

/** The completion script of `shell`, as tab writes it (with the bash fixes above). */
function completionScript(root: RootCommand, shell: string): string {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void printed.push(parts.map(String).join(' '));
  try {
    root.setup('sked', 'sked', shell);
  } finally {
    console.log = log;
  }
  let script = printed.join('\n');
  if (shell !== 'bash') return script;
  for (const [from, to] of BASH_FIXES) {
    const fixed = script.replace(from, to);
    if (fixed === script) throw new Error(`The bash completion script changed: ${String(from)} not found.`);
    script = fixed;
  }
  return script;
}

/** Sets `handler` on the argument `name` of the command at `path`. */
function onArgument(root: RootCommand, path: string, name: string, handler: () => Candidate[]): void {
  const argument = root.commands.get(path)?.arguments.get(name);
  if (argument === undefined) throw new Error(`Completion: no argument ${name} on "${path}".`);
  argument.handler = (complete) => handler().forEach((c) => complete(c.id, c.description));
}

/**
 * Adds `sked completion bash|zsh|fish|powershell` (the script to source) and the hidden
 * `sked complete -- WORDS...` that the script calls, with @bomb.sh/tab: commands and flags from
 * the commander tree; from the servers ({@link setCandidates}) job and allocation IDs, a job's
 * versions, LDAP group and user names and peering names; file names from the shell where an
 * argument is a file; event topics and signals.
 */
export function addCompletion(program: Command): void {
  const root = tab(program, { completionCommandName: 'completion' });
  (root as unknown as { complete: typeof printCompletions }).complete = printCompletions;
  // Global flags work after the subcommand too, so every command completes them; flags with only
  // a short name (`job history -p`) are not in tab's tree, which then took `-p` for one with a value.
  const byPath = new Map<string, Command>();
  const walk = (command: Command, path: string): void => {
    byPath.set(path, command);
    for (const sub of command.commands) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  walk(program, '');
  for (const [path, command] of root.commands) {
    for (const [name, option] of root.options)
      if (!command.options.has(name)) command.options.set(name, option);
    for (const option of byPath.get(path)?.options ?? [])
      if (option.long === undefined && option.short !== undefined)
        command.option(option.short.slice(1), option.description, option.short.slice(1));
  }
  const ids = (): Candidate[] => candidatesOf('jobs', 'allocs');
  for (const path of [...JOB_COMMANDS, ...ALLOC_COMMANDS]) onArgument(root, path, 'id', ids);
  onArgument(root, 'job revert', 'version', () => candidatesOf('versions'));
  for (const [path, flag] of VERSION_FLAGS) {
    const option = root.commands.get(path)?.options.get(flag.slice(2));
    if (option === undefined) throw new Error(`Completion: no option ${flag} on "${path}".`);
    option.handler = (complete) =>
      candidatesOf('versions', 'current-version').forEach((c) => complete(c.id, c.description));
  }
  for (const path of LDAP_NAME_COMMANDS)
    onArgument(root, path, 'name', () => candidatesOf('ldap-groups', 'ldap-users'));
  for (const path of PEERING_COMMANDS) onArgument(root, path, 'name', () => candidatesOf('peerings'));
  for (const [path, name] of FILE_ARGUMENTS)
    onArgument(root, path, name, () => {
      state.files = true;
      return [];
    });
  const topics = root.commands.get('event stream')?.options.get('topic');
  if (topics) topics.handler = (complete) => TOPICS.forEach((t) => complete(t, ''));
  const signal = root.commands.get('alloc signal')?.options.get('signal');
  if (signal) signal.handler = (complete) => SIGNALS.forEach((s) => complete(s, ''));
  program.commands
    .find((c) => c.name() === 'completion')
    ?.action((shell: string) => {
      process.stdout.write(`${completionScript(root, shell)}\n`);
    });
}
