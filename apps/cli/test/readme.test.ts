import { exec } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnv, startServer, type ServerProcess } from './harness.js';
import { ensureShells } from './shells.js';

/** The lines of the README's tour, with the exit code each one's comment announces. */
async function tourLines(): Promise<{ line: string; code: number }[]> {
  const readme = await readFile(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  const block = /## Five-minute tour[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README has no tour block');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ line, code: Number(/# exit (\d+)/.exec(line)?.[1] ?? 0) }));
}

/** The package's bin, as the tour's alias runs it: the version check, then the build. */
const SKED_BIN = fileURLToPath(new URL('../bin/sked.js', import.meta.url));

let server: ServerProcess;
let dir: string;

beforeAll(async () => {
  // The tour's completion line runs fish.
  [server] = await Promise.all([startServer(['--demo']), ensureShells()]);
  dir = await mkdtemp(join(tmpdir(), 'sked-tour-'));
  await cp(fileURLToPath(new URL('../examples', import.meta.url)), join(dir, 'examples'), {
    recursive: true,
  });
  await writeFile(join(dir, 'sked'), `#!/bin/sh\nexec "${process.execPath}" "${SKED_BIN}" "$@"\n`);
  await chmod(join(dir, 'sked'), 0o755);
});
afterAll(async () => {
  await server.close();
});

describe('the README tour', () => {
  it('runs line by line against the demo data', async () => {
    const lines = await tourLines();
    expect(lines.length).toBeGreaterThan(10);
    const silent: string[] = [];
    for (const { line, code } of lines) {
      // The export names the address npm start serves; here the server runs on a free port.
      if (line.startsWith('export SKED_ADDR=')) continue;
      const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        exec(
          line,
          {
            cwd: dir,
            shell: '/bin/bash',
            env: cleanEnv({ ...server.env, PATH: `${dir}:${process.env['PATH']}`, HOME: dir }),
            timeout: 60_000,
          },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      if (result.code !== code)
        throw new Error(`"${line}" exited ${result.code}, not ${code}:\n${result.stdout}\n${result.stderr}`);
      if (code === 0 && line.startsWith('sked') && !line.includes('>') && result.stdout === '')
        silent.push(line);
    }
    // Every sked line without a redirection showed something.
    expect(silent).toEqual([]);
    expect(await readFile(join(dir, 'sked-completion.bash'), 'utf8')).toContain(
      'complete -o default -F __sked_complete sked',
    );
  }, 400_000);
});
