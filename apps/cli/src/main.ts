#!/usr/bin/env node
import module from 'node:module';

// Cache compiled code on disk: a CLI starts many times, and most of its start-up is compiling.
module.enableCompileCache?.();

if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const { VERSION } = await import('./version.js');
  console.log(VERSION);
  process.exit(0);
}

const { run } = await import('./run.js');
await run(process.argv.slice(2));
