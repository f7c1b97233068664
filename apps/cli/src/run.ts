/**
 * What `sked` does once started: parse the command line and run the command. The build's
 * `sked.js` bundle starts here with static imports (`bundle-entry.ts`), so every module it always
 * needs sits at the bundle's top level, compiled (and cached) with it; what a command needs only
 * sometimes (the filter parser, the HCL parser, a password prompt, the WebSocket library) stays
 * behind a dynamic import and is loaded when that command runs.
 */
import { separateExecCommand } from './commands/alloc-exec.js';
import { createProgram } from './program.js';

/** Runs the `sked` command line `args` (the arguments after the program), then exits. */
export async function run(args: readonly string[]): Promise<never> {
  const argv = separateExecCommand(args);
  if (argv[0] === 'complete' && argv[1] === '--') {
    // A completion request: the IDs it calls for come from the server first (tab's handlers are synchronous).
    const { fetchCandidates } = await import('./completion-ids.js');
    const { setCandidates } = await import('./completion.js');
    setCandidates(await fetchCandidates(argv.slice(2)));
  }
  await createProgram().parseAsync(argv, { from: 'user' });
  // Idle keep-alive sockets must not hold the process open once the command is done, but a pipe
  // may still hold output: exit once both streams have flushed.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(process.exitCode ?? 0);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}
