#!/usr/bin/env node
import module from 'node:module';

// Cache compiled code on disk: a CLI starts many times, and most of its start-up is compiling.
module.enableCompileCache?.();

if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const { VERSION } = await import('./version.js');
  console.log(VERSION);
  process.exit(0);
}

const { separateExecCommand } = await import('./commands/alloc-exec.js');
const { createProgram } = await import('./program.js');

const argv = separateExecCommand(process.argv.slice(2));
if (argv[0] === 'complete' && argv[1] === '--') {
  // A completion request: the IDs it calls for come from the server first (tab's handlers are synchronous).
  const { fetchCandidates } = await import('./completion-ids.js');
  const { setCandidates } = await import('./completion.js');
  setCandidates(await fetchCandidates(argv.slice(2)));
}
await createProgram().parseAsync(argv, { from: 'user' });
// Idle keep-alive sockets must not hold the process open once the command is done, but a pipe
// may still hold output: exit once both streams have flushed.
const flushed = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(process.exitCode ?? 0);
