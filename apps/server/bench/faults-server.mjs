// Child process of bench/faults.mjs: serves the scheduling API (as bench/ab-server.mjs builds it)
// on a free port with the fault injector in one of three states, prints the port, then serves
// until killed:
//   node bench/faults-server.mjs off      no injector installed (faults disabled entirely)
//   node bench/faults-server.mjs empty    the injector installed, no rule (every sked-server)
//   node bench/faults-server.mjs miss     the injector with rules that match no request of the bench
import { createHttpApp } from '../dist/http/app.js';
import { createFaultInjector } from '../dist/http/faults.js';
import { createAcl } from '../dist/scheduler/acl/index.js';
import { createCluster } from '../dist/scheduler/core/index.js';
import { registerSchedulerRoutes } from '../dist/scheduler/routes/index.js';

const mode = process.argv[2];
if (!['off', 'empty', 'miss'].includes(mode)) throw new Error(`mode: off, empty or miss, not ${mode}`);
const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes: 3 });
const shutdown = new AbortController();
const app = createHttpApp();
if (mode !== 'off') {
  const faults = createFaultInjector();
  faults.install(app, { service: 'scheduler' });
  if (mode === 'miss') {
    // one rule per way of not matching: another service, another method, another path (a pattern
    // and a regular expression)
    faults.inject({ service: 'mesh', status: 503 });
    faults.inject({ service: 'scheduler', method: 'DELETE', status: 503 });
    faults.inject({ service: 'scheduler', path: '/v1/job/:job_id/allocations', status: 503 });
    faults.inject({ path: /^\/v1\/nodes/, delayMs: 1000 });
  }
}
registerSchedulerRoutes(app, {
  cluster,
  acl: createAcl(undefined),
  region: 'global',
  shutdown: shutdown.signal,
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
const stop = () => {
  shutdown.abort();
  void app.close().then(() => cluster.close().then(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
