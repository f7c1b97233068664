// Child process of bench/ab.mjs: serves the scheduling API of one build of the server (its dist/
// directory given as the argument) on a free port, as bench/run.mjs builds it, plus
// GET /bench/waiting (how many blocking queries wait on the jobs and volumes tables) so that the
// parent can tell when its blocking query is registered. Prints the port, then serves until killed.
//   node bench/ab-server.mjs <dist directory>
import { schedulerApp } from './support.mjs';

const server = await schedulerApp(process.argv[2], 3);
const { app, cluster } = server;
const { sendJson } = server.http;
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
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
