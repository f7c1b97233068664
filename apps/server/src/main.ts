#!/usr/bin/env node
/**
 * `sked-server`: runs the sample server until SIGINT or SIGTERM.
 *
 * @packageDocumentation
 */
import { USAGE, parseCli, withCliPorts } from './wiring/cli.js';
import { startServer } from './wiring/server.js';

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCli(argv);
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.kind === 'error') {
    process.stderr.write(`sked-server: ${command.message}\nRun "sked-server --help" for the options.\n`);
    return 2;
  }
  let server;
  try {
    server = await startServer(withCliPorts(command.options));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`sked-server: ${message}\n`);
    return 1;
  }
  process.stdout.write(`scheduler listening on ${server.scheduler.url}\n`);
  process.stdout.write(`secrets listening on ${server.secrets.url}\n`);
  if (server.secrets.rootTokenGenerated) {
    process.stdout.write(`secrets root token: ${server.secrets.rootToken}\n`);
  }
  process.stdout.write(`mesh listening on ${server.mesh.url}\n`);
  if (command.options.faultControl === true) {
    process.stdout.write(`fault control on ${server.scheduler.url}/v1/sked/faults\n`);
  }
  if (server.acl.enabled) {
    const name = server.acl.managementName;
    if (server.acl.bootstrapSecret !== undefined) {
      process.stdout.write(
        `acl enabled: management token "${name ?? 'bootstrap'}" with secret ${server.acl.bootstrapSecret}\n`,
      );
    } else {
      process.stdout.write(
        name === undefined
          ? 'acl enabled: no management token\n'
          : `acl enabled: management token "${name}"\n`,
      );
    }
  }
  process.stdout.write(`web console on ${server.scheduler.url}/ui/\n`);
  const running = server;
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      running.close().then(resolve, (error: unknown) => {
        process.stderr.write(`sked-server: error while stopping: ${String(error)}\n`);
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    // Timers of the simulated cluster must not keep a stopped server alive.
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`sked-server: ${String(error)}\n`);
    process.exit(1);
  },
);
