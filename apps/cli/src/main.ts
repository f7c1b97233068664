#!/usr/bin/env node
import { separateExecCommand } from './commands/alloc-exec.js';
import { prefetchCandidates } from './completion.js';
import { createProgram } from './program.js';

const argv = separateExecCommand(process.argv.slice(2));
if (argv[0] === 'complete' && argv[1] === '--') await prefetchCandidates(argv.slice(2));
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
