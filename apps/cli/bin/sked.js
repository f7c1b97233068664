#!/usr/bin/env node
// `sked`: a committed launcher for the build's entry point, in plain old JavaScript so that
// any Node can read it. It checks the Node version before anything else is loaded (an older Node
// would fail deep inside a dependency with a stack trace), then imports the build. It is committed
// (not built) because pnpm links a workspace package's bin when it installs, before anything is
// built; a bin pointing into dist/ did not exist then.
var NEED = [22, 12];
var have = String(process.versions.node).split('.');
var major = Number(have[0]);
var minor = Number(have[1]);
if (major < NEED[0] || (major === NEED[0] && minor < NEED[1])) {
  process.stderr.write(
    'sked: needs Node.js ' + NEED.join('.') + ' or newer (this is ' + process.version + ')\n',
  );
  process.exit(1);
}
import('./launch.js').then(
  function (launch) {
    return launch.start(new URL('../dist/sked.js', import.meta.url), 'sked', '@sked/cli');
  },
  function (error) {
    process.stderr.write('sked: ' + String(error) + '\n');
    process.exit(1);
  },
);
