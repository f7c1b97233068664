// Child process of bench/ab.mjs: serves the scheduling API of one build of the server (its dist/
// directory given as the argument) on a free port, as bench/run.mjs builds it, plus
// GET /bench/waiting (how many blocking queries wait on the jobs and volumes tables) so that the
// parent can tell when its blocking query is registered. Prints the port, then serves until killed.
//   node bench/ab-server.mjs <dist directory>
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dist = process.argv[2];
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { createHttpApp, sendJson } = await load('http/app.js');
const { createAcl } = await load('scheduler/acl/index.js');
const { createCluster } = await load('scheduler/core/index.js');
const { registerSchedulerRoutes } = await load('scheduler/routes/index.js');

const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes: 3 });
const shutdown = new AbortController();
const app = createHttpApp();
registerSchedulerRoutes(app, {
  cluster,
  acl: createAcl(undefined),
  region: 'global',
  shutdown: shutdown.signal,
});
app.get('/bench/waiting', (request, reply) =>
  sendJson(request, reply, {
    jobs: cluster.store.jobs.watch.waiting,
    jobsIndex: cluster.store.jobs.watch.current,
    volumes: cluster.store.volumes.watch.waiting,
    volumesIndex: cluster.store.volumes.watch.current,
  }),
);
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
const stop = () => {
  shutdown.abort();
  void app.close().then(() => cluster.close().then(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
