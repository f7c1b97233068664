import { execFile } from 'node:child_process';
import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { createProgram } from '../src/program.js';
import { SKED, sked, skedOnTerminal } from './harness.js';

/** Every command of the tree that does something (the leaves), with its path. */
function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const visible = command.commands.filter((c) => c.name() !== 'complete' && c.name() !== 'help');
  if (visible.length === 0) return [{ path, command }];
  return visible.flatMap((c) => leaves(c, [...path, c.name()]));
}

/** Every command of the tree, groups included, with its path. */
function commands(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const visible = command.commands.filter((c) => c.name() !== 'complete' && c.name() !== 'help');
  return [{ path, command }, ...visible.flatMap((c) => commands(c, [...path, c.name()]))];
}

describe('the command tree', () => {
  const all = leaves(createProgram());

  it('has the commands of the design', () => {
    const paths = all.map((l) => l.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining([
        'job run',
        'job plan',
        'job validate',
        'job status',
        'job inspect',
        'job history',
        'job revert',
        'job dispatch',
        'job stop',
        'alloc status',
        'alloc stop',
        'alloc signal',
        'alloc restart',
        'alloc exec',
        'volume status',
        'volume register',
        'volume deregister',
        'volume detach',
        'event stream',
        'server members',
        'filter check',
        'filter eval',
        'login ldap',
        'token lookup',
        'ldap config read',
        'ldap config write',
        'ldap group list',
        'ldap user delete',
        'peering generate-token',
        'peering establish',
        'peering list',
        'peering read',
        'peering delete',
        'completion',
        'version',
      ]),
    );
  });

  it.each(commands(createProgram()).map((l) => [l.path.join(' ') || '(sked)', l.command] as const))(
    '%s --help shows the usage, the global flags and an example',
    (_path, command) => {
      let text = '';
      command.configureOutput({ writeOut: (s) => (text += s) });
      command.outputHelp();
      expect(text).toMatch(/^Usage: sked/);
      expect(text).toMatch(/(Global )?Options:\n(.*\n)*? {2}--address <url>/);
      expect(text).toMatch(/\nExample:\n {2}\$ .*\bsked [a-z]/);
    },
  );

  it.each(all.map((l) => [l.path.join(' ')] as const))(
    'sked %s --bogus exits 1 with the usage on stderr',
    async (path) => {
      const program = createProgram();
      let err = '';
      program.exitOverride();
      const walk = (c: Command): void => {
        c.exitOverride();
        c.configureOutput({ writeErr: (s) => (err += s), writeOut: () => undefined });
        c.commands.forEach(walk);
      };
      walk(program);
      await expect(
        program.parseAsync(
          [...path.split(' '), ...(path === 'login ldap' ? ['-u', 'alice'] : []), '--bogus'],
          {
            from: 'user',
          },
        ),
      ).rejects.toMatchObject({
        code: 'commander.unknownOption',
        exitCode: 1,
      });
      expect(err).toContain("error: unknown option '--bogus'");
      expect(err).toContain(`Usage: sked ${path}`);
    },
  );
});

describe.concurrent('filter', () => {
  it('check: valid, or the diagnostic with a caret and exit 1', async () => {
    expect(await sked(['filter', 'check', 'Status == "running"'])).toEqual({
      code: 0,
      stdout: 'Valid filter\n',
      stderr: '',
    });
    const bad = await sked(['filter', 'check', 'Meta.owner = "x"']);
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr:
        '1:12: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".\nMeta.owner = "x"\n           ^\n',
    });
    const json = JSON.parse((await sked(['filter', 'check', 'a ==', '--json'])).stdout);
    expect(json.Valid).toBe(false);
    expect(json.Diagnostics[0]).toMatchObject({ line: 1, column: 5 });
  });

  it('eval: a JSON array in, the matches out; JSON lines in, lines out', async () => {
    const array = await sked(['filter', 'eval', 'Priority != 50'], {
      input: JSON.stringify([
        { ID: 'a', Priority: 50 },
        { ID: 'b', Priority: 70 },
      ]),
    });
    expect(array.code).toBe(0);
    expect(JSON.parse(array.stdout)).toEqual([{ ID: 'b', Priority: 70 }]);
    const lines = await sked(['filter', 'eval', '"dc1" in Datacenters', '-'], {
      input: '{"ID":"a","Datacenters":["dc1"]}\n\n{"ID":"b","Datacenters":["dc2"]}\n',
    });
    expect(lines).toEqual({ code: 0, stdout: '{"ID":"a","Datacenters":["dc1"]}\n', stderr: '' });
    const dir = await mkdtemp(join(tmpdir(), 'sked-filter-'));
    await writeFile(join(dir, 'items.json'), '[{"a": 1}, {"a": 2}]');
    const fromFile = await sked(['filter', 'eval', 'a == 1', join(dir, 'items.json')]);
    expect(JSON.parse(fromFile.stdout)).toEqual([{ a: 1 }]);
  });

  it('eval: says which line is not JSON, which item fails, and refuses a bad filter', async () => {
    const badLine = await sked(['filter', 'eval', 'a == 1'], { input: '{"a":1}\n{oops\n' });
    expect(badLine.code).toBe(1);
    expect(badLine.stderr).toMatch(/^Error: stdin line 2 is not JSON: /);
    const failing = await sked(['filter', 'eval', 'a.b == 1'], { input: '[{"a": {"b": 1}}, {"a": "text"}]' });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^Error: Item 1 of stdin: /);
    const syntax = await sked(['filter', 'eval', 'a =='], { input: '[]' });
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toContain('a ==\n    ^');
  });
});

describe.concurrent('bad input', () => {
  it('refuses an oversized file, a directory, and IDs that would reach another endpoint, before any request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sked-big-'));
    const big = join(dir, 'big.json');
    await writeFile(big, '');
    await truncate(big, 17 * 1024 * 1024);
    const offline = { SKED_ADDR: 'http://127.0.0.1:9' };
    const [tooBig, directory, dotdot, shortAlloc, stdinTooBig] = await Promise.all([
      sked(['job', 'run', big], { env: offline }),
      sked(['job', 'validate', dir], { env: offline }),
      sked(['job', 'status', '..'], { env: offline }),
      sked(['alloc', 'status', 'zz-not-hex'], { env: offline }),
      sked(['filter', 'eval', 'a == 1'], { input: Buffer.alloc(17 * 1024 * 1024, 0x20), env: offline }),
    ]);
    expect(tooBig).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: The job file ${big} is larger than 16 MiB (16777216 bytes), the most sked reads from a file or stdin.\n`,
    });
    expect(directory.stderr).toBe(`Error: ${dir} is a directory, not a job file.\n`);
    expect(dotdot.code).toBe(1);
    expect(dotdot.stderr).toMatch(/^Error: .*"\.\."/);
    expect(dotdot.stderr).not.toContain('no answer');
    expect(shortAlloc.stderr).toContain('"zz-not-hex" is not an allocation ID or a prefix of one');
    expect(stdinTooBig).toMatchObject({ code: 1, stdout: '' });
    expect(stdinTooBig.stderr).toContain('The input on stdin is larger than 16 MiB (16777216 bytes)');
  });
});

describe.concurrent('completion and version', () => {
  it('writes scripts for bash, zsh and fish, and the bash one parses', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await sked(['completion', shell]);
      expect(script.code).toBe(0);
      expect(script.stdout).toContain('sked complete --');
    }
    const bash = (await sked(['completion', 'bash'])).stdout;
    await expect(promisify(execFile)('bash', ['-n', '-c', bash])).resolves.toBeDefined();
    const unknown = await sked(['completion', 'tcsh']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("error: command-argument value 'tcsh' is invalid for argument 'shell'.");
  });

  it('completes commands, subcommands and flags (global ones after the subcommand too)', async () => {
    expect((await sked(['complete', '--', 'jo'])).stdout).toMatch(/^job\tJobs: /m);
    const sub = (await sked(['complete', '--', 'job', 'st'])).stdout;
    expect(sub).toMatch(/^status\t/m);
    expect(sub).toMatch(/^stop\t/m);
    expect(sub.trim().split('\n').at(-1)).toMatch(/^:\d+$/);
    expect((await sked(['complete', '--', 'job', 'run', '--de'])).stdout).toMatch(
      /^--detach\treturn at once/m,
    );
    expect((await sked(['complete', '--', 'alloc', 'status', '--js'])).stdout).toMatch(/^--json\t/m);
  });

  it('completes no IDs (and prints no error) when no server answers', async () => {
    const env = {
      SKED_ADDR: 'http://127.0.0.1:9',
      SKED_SECRETS_ADDR: 'http://127.0.0.1:9',
      SKED_MESH_ADDR: 'http://127.0.0.1:9',
    };
    const requests = [
      ['job', 'status', ''],
      ['job', 'revert', 'web', ''],
      ['job', 'history', 'web', '--version', ''],
      ['ldap', 'group', 'read', ''],
      ['peering', 'delete', ''],
    ];
    for (const words of requests) {
      expect(await sked(['complete', '--', ...words], { env })).toEqual({
        code: 0,
        stdout: ':4\n',
        stderr: '',
      });
    }
  });

  it('prints its version', async () => {
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default;
    expect(await sked(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect((await sked(['version'])).stdout).toBe(`${version}\n`);
    expect(SKED).toMatch(/dist\/main\.js$/);
  });
});

describe.concurrent('input files, for a person at a terminal', () => {
  it('says where it looked and what else to do when a file is missing', async () => {
    const missing = await sked(['volume', 'register', 'no-such-volume.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read volume file no-such-volume.json: ENOENT');
    expect(missing.stderr).toMatch(
      /Try: Check the path \(relative to \/.*\); - reads the volume file from stdin\./,
    );
  });

  it('says it reads stdin (and how to end it) when stdin is a terminal', async () => {
    const term = skedOnTerminal(['filter', 'eval', 'Priority == 70']);
    await term.waitFor('Reading the input from stdin; end it with Ctrl-D.');
    term.write('[{"Priority": 70}, {"Priority": 10}]\n');
    term.write('\x04');
    expect(await term.exitCode).toBe(0);
    // The terminal echoes the input; then the matches, as an array (the input was one).
    expect(term.screen()).toMatch(/\n\[\n {4}\{\n {8}"Priority": 70\n {4}\}\n\]$/);
  });
});
