/**
 * A real `sked-server` process (the workspace's bin, built by turbo before these tests), in its own
 * process group, on free ports, stopped with SIGTERM (SIGKILL after a grace period).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The server package's bin, beside this app in the workspace. */
export const SERVER_BIN = fileURLToPath(new URL('../../server/bin/sked-server.js', import.meta.url));

/** A running server and what it printed when ready. */
export interface ServerProcess {
  readonly scheduler: string;
  readonly secrets: string;
  readonly mesh: string;
  /** The management token's secret, with `--acl`. */
  readonly aclToken: string | undefined;
  /** Everything it printed. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `sked-server` with free ports and waits for its ready lines.
 * @param args - More flags (`--demo`, `--acl`, `--datacenter dc2`).
 * @param env - More environment (`SKED_SECRETS_ROOT_TOKEN`).
 * @param deadlineMs - How long to wait for the ready lines.
 */
export async function startServerProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  deadlineMs = 60_000,
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [SERVER_BIN, '--scheduler-port', '0', '--secrets-port', '0', '--mesh-port', '0', ...args],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.pid === undefined) return;
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const acl = args.includes('--acl');
  const ready = (): boolean => /^mesh listening on /m.test(output) && (!acl || /^acl enabled/m.test(output));
  // ready when the lines are there: checked on every chunk printed, until the deadline
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() =>
        reject(new Error(`sked-server was not ready within ${deadlineMs} ms:\n${output}`)),
      );
    }, deadlineMs);
    const check = (): void => {
      if (!ready()) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sked-server exited with ${code}:\n${output}`));
    });
    check();
  });
  const url = (name: string): string => {
    const match = new RegExp(`^${name} listening on (\\S+)$`, 'm').exec(output);
    if (match?.[1] === undefined) throw new Error(`no ${name} ready line:\n${output}`);
    return match[1];
  };
  return {
    scheduler: url('scheduler'),
    secrets: url('secrets'),
    mesh: url('mesh'),
    aclToken: /with secret (\S+)$/m.exec(output)?.[1],
    output: () => output,
    stop,
  };
}
