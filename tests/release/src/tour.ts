/**
 * The CLI README's five-minute tour, run line by line with the installed `sked` bin first on the
 * `PATH`: each line must exit with the code its comment states (`# exit N`, 0 when none).
 */
import { exec } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './workspace.ts';

/** The tour's lines, with the exit code each one's comment announces. */
export function tourLines(): { line: string; code: number }[] {
  const readme = readFileSync(join(repoRoot, 'apps/cli/README.md'), 'utf8');
  const block = /## Five-minute tour[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('apps/cli/README.md has no tour block');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ line, code: Number(/# exit (\d+)/.exec(line)?.[1] ?? 0) }));
}

/**
 * Runs the tour in a scratch copy of `apps/cli/examples` with `binDir` first on the `PATH` and
 * `SKED_ADDR` pointing at `address` (its `export SKED_ADDR=` line names the default address, so it
 * is not run); returns the lines that did not exit as stated, with their output.
 */
export async function runTour(binDir: string, address: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sked-tour-'));
  cpSync(join(repoRoot, 'apps/cli/examples'), join(dir, 'examples'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: `${binDir}:${process.env['PATH'] ?? ''}`,
    HOME: dir,
    SKED_ADDR: address,
  };
  const failed: string[] = [];
  for (const { line, code } of tourLines()) {
    if (line.startsWith('export SKED_ADDR=')) continue;
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      exec(line, { cwd: dir, shell: '/bin/bash', env, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
      );
    });
    if (result.code !== code) failed.push(`"${line}" exited ${result.code}, not ${code}:\n${result.out}`);
  }
  return failed;
}
