// What the server's benchmarks share: a sked-server (or other node script) started as its own
// process and waited for, a scheduling API served in-process from one build of the server, and the
// closing report (machine line and Markdown table). bench/http.mjs holds the one HTTP request helper.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The built server's entry point (dist/main.js of this package). */
export const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

// The children still running when the benchmark exits (even by a throw) are killed with it.
const launched = new Set();
process.on('exit', () => launched.forEach((child) => child.kill('SIGKILL')));

/**
 * Spawns `node ...args` (stdout piped, stderr inherited) and waits for a line of its output. The
 * child is killed when this process exits.
 * @param {string[]} args - The script and its arguments.
 * @param {RegExp} pattern - Matched against all of stdout so far; the first match resolves.
 * @param {NodeJS.ProcessEnv} [env] - The child's environment (the parent's by default).
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, match: RegExpExecArray }>}
 *   Rejects when the child exits before the pattern matched.
 */
export function launch(args, pattern, env = process.env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  launched.add(child);
  child.once('exit', () => launched.delete(child));
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = pattern.exec(out);
      if (match) resolve({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
  });
}

/**
 * Starts `sked-server` (dist/main.js) with its secrets listener on a free port, the scheduling
 * service on a free port with no nodes, and the given root token of the secrets service.
 * @param {string} rootToken - SKED_SECRETS_ROOT_TOKEN.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, base: string }>} The
 *   process and the secrets listener's base URL.
 */
export async function startSecretsServer(rootToken) {
  const { child, match } = await launch(
    [MAIN, '--scheduler-port', '0', '--secrets-port', '0', '--nodes', '0'],
    /^secrets listening on (\S+)$/m,
    { ...process.env, SKED_SECRETS_ROOT_TOKEN: rootToken },
  );
  return { child, base: match[1] };
}

/**
 * Builds the scheduling API of one build of the server in this process: a cluster of `nodes`
 * nodes in region global / dc1, open ACL, and the scheduler's routes on the server's HTTP app (not
 * listening yet: add routes, then `app.listen`). `close()` aborts the routes' shutdown signal, then
 * closes the app and the cluster.
 * @param {string} distDir - The build's dist/ directory.
 * @param {number} nodes - Nodes of the cluster.
 * @returns {Promise<{ app: any, cluster: any, http: any, shutdown: AbortController, close: () => Promise<void> }>}
 *   `http` is the build's http/app.js module (sendJson, sendJsonText, ...).
 */
export async function schedulerApp(distDir, nodes) {
  const load = (path) => import(pathToFileURL(resolve(distDir, path)).href);
  const http = await load('http/app.js');
  const { createAcl } = await load('scheduler/acl/index.js');
  const { createCluster } = await load('scheduler/core/index.js');
  const { registerSchedulerRoutes } = await load('scheduler/routes/index.js');
  const cluster = createCluster({ region: 'global', datacenter: 'dc1', nodes });
  const shutdown = new AbortController();
  const app = http.createHttpApp();
  registerSchedulerRoutes(app, {
    cluster,
    acl: createAcl(undefined),
    region: 'global',
    shutdown: shutdown.signal,
  });
  const close = async () => {
    shutdown.abort();
    await app.close();
    await cluster.close();
  };
  return { app, cluster, http, shutdown, close };
}

/**
 * Prints the machine (Node version, CPUs, load average now) and the rows as a Markdown table.
 * @param {string[]} header - The column titles.
 * @param {string[][]} rows - The rows, one string a cell.
 */
export function printReport(header, rows) {
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load average at the end ${load}`);
  console.log('');
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}
