/**
 * Starts the workspace's `sked-server` as a real process on free loopback ports, with every
 * listener its `--help` offers (scheduler today; secrets and mesh as they land), and reads each
 * listener's ready line `<service> listening on http://HOST:PORT`.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { spawnGroup } from './run.ts';
import { repoRoot } from './workspace.ts';

/** The server's entry point, built by `turbo run build`. */
export const serverMain = join(repoRoot, 'apps/server/dist/main.js');

/** The secrets service's root token the release checks start `sked-server` with. */
export const secretsRootToken = `release-checks-root-${process.pid}`;

/** A running `sked-server`. */
export interface SkedServer {
  /** Base URL of each listener by service name (`scheduler`, `secrets`, `mesh`). */
  readonly urls: Readonly<Record<string, string>>;
  /** Everything it printed so far (tokens included: tests only). */
  output(): string;
  close(): Promise<void>;
}

/** The listeners this build of `sked-server` has: each `--<service>-port` flag of its help. */
export function serverListeners(): string[] {
  const help = execFileSync(process.execPath, [serverMain, '--help'], { encoding: 'utf8' });
  return [...help.matchAll(/--([a-z]+)-port\b/g)].map((match) => match[1] ?? '').filter(Boolean);
}

/** How to start the server: the workspace build by default, or an installed bin (`npx sked-server`). */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

/**
 * Starts `sked-server` with `--demo` and every listener on port 0, plus `extraArgs`; resolves once
 * each listener printed its ready line.
 */
export async function startSkedServer(
  extraArgs: readonly string[] = [],
  timeoutMs = 60_000,
  launch: ServerLaunch = { command: process.execPath, args: [serverMain] },
): Promise<SkedServer> {
  const listeners = serverListeners();
  const token = listeners.includes('secrets') ? ['--secrets-root-token', secretsRootToken] : [];
  const args = [
    ...launch.args,
    '--demo',
    ...listeners.flatMap((name) => [`--${name}-port`, '0']),
    ...token,
    ...extraArgs,
  ];
  const { child, output, close } = spawnGroup(launch.command, args, {
    graceMs: 10_000,
    ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const urls: Record<string, string> = {};
    for (const match of output().matchAll(/^([a-z]+) listening on (https?:\/\/\S+)$/gm)) {
      urls[match[1] ?? ''] = match[2] ?? '';
    }
    if (listeners.every((name) => urls[name] !== undefined)) {
      return { urls, output, close };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`sked-server did not report every listener (${listeners.join(', ')}):\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
