#!/usr/bin/env node
// `sked-server`: a committed launcher for the build's entry point. pnpm links a workspace
// package's bin when it installs, before anything is built; a bin pointing into dist/ did not
// exist then, and every package depending on the server warned "Failed to create bin".
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'sked-server: not built yet: run `pnpm --filter @sked/server... build` (`npm start` at the repository root builds and starts it)\n',
  );
  process.exit(1);
}
await import(entry.href);
