import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * The environment a task or exec command starts from: PATH, HOME, LANG and TZ of the server process
 * (nothing else, so no secret leaks).
 * @returns A new environment map.
 */
export function defaultBaseEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin' };
  for (const name of ['HOME', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a program the way a shell does: a name with a slash is taken relative to `cwd`, any other is
 * searched on the `PATH` of `env`.
 * @param program - The program as given.
 * @param cwd - The directory relative names are resolved against.
 * @param env - The environment whose PATH is searched.
 * @returns The path of the executable file, or undefined when there is none.
 */
export function findProgram(
  program: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): string | undefined {
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    return isExecutableFile(path) ? path : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(isAbsolute(dir) ? dir : resolve(cwd, dir), program);
    if (isExecutableFile(path)) return path;
  }
  return undefined;
}

/**
 * Sends a signal to a process group (the process itself when it leads none); a process already gone
 * is ignored.
 * @param pid - The group leader's process ID.
 * @param signal - The signal name, e.g. `SIGTERM`.
 */
export function signalGroup(pid: number, signal: string): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
