#!/usr/bin/env node
// `sked-server`: a committed launcher for the build's entry point, in plain old JavaScript so that
// any Node can read it. It checks the Node version before anything else is loaded (an older Node
// would fail deep inside a dependency with a stack trace), then imports the build. It is committed
// (not built) because pnpm links a workspace package's bin when it installs, before anything is
// built; a bin pointing into dist/ did not exist then.
var NEED = [22, 13];
var have = String(process.versions.node).split('.');
var major = Number(have[0]);
var minor = Number(have[1]);
if (major < NEED[0] || (major === NEED[0] && minor < NEED[1])) {
  process.stderr.write(
    'sked-server: needs Node.js ' + NEED.join('.') + ' or newer (this is ' + process.version + ')\n',
  );
  process.exit(1);
}
import('./launch.js').then(
  function (launch) {
    return launch.start(new URL('../dist/main.js', import.meta.url), 'sked-server', '@sked/server');
  },
  function (error) {
    process.stderr.write('sked-server: ' + String(error) + '\n');
    process.exit(1);
  },
);
