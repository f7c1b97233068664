import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import { CliError } from './errors.js';

/** What `sked login ldap --save` keeps between runs. */
export interface UserConfig {
  readonly secrets?: { readonly address?: string; readonly token?: string };
}

/**
 * The user config file: `SKED_CONFIG`, else `$XDG_CONFIG_HOME/sked/config.json`, else
 * `~/.config/sked/config.json`.
 */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env['SKED_CONFIG']) return env['SKED_CONFIG'];
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'sked', 'config.json');
}

/** Reads the user config file; a missing file is an empty config. */
export async function readUserConfig(path: string = userConfigPath()): Promise<UserConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as UserConfig;
  } catch {
    // reported below
  }
  throw new CliError(`${path} is not a JSON object.`, {
    hint: 'Fix or remove it; `sked login ldap --save` writes it.',
  });
}

/**
 * Writes the user config file readable and writable by the user only (0600, in a 0700
 * directory): written to a temporary file with that mode, then renamed over the old one, so the
 * token is never readable by others, not even for a moment.
 */
export async function writeUserConfig(config: UserConfig, path: string = userConfigPath()): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
