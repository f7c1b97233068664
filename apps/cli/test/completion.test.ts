import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  cleanEnv,
  onTerminal,
  SKED,
  sked,
  startServer,
  type ServerProcess,
  type TerminalRun,
} from './harness.js';
import { BASH_COMPLETION, ensureShells, SHELLS } from './shells.js';

const run = promisify(execFile);
/** The package folder: `examples/hello.hcl` is there, for file-name completion. */
const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));

let server: ServerProcess;
let dir: string;
let env: Record<string, string>;
/**
 * An allocation ID of the demo job `web`, and a prefix that names it alone: at least its first 8
 * characters, because the demo's failing batch job keeps being rescheduled while the tests run, and
 * a new allocation could share a shorter prefix (one did: `4` named two allocations).
 */
let alloc: { id: string; prefix: string };

/** `sked ARGS` against the test server as the secrets service's root, which must succeed. */
async function setUp(args: readonly string[], input?: string): Promise<string> {
  const env = { ...server.env, SKED_SECRETS_TOKEN: server.secretsRootToken };
  const result = await sked(args, { env, ...(input === undefined ? {} : { input }) });
  if (result.code !== 0) throw new Error(`sked ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  [server] = await Promise.all([startServer(['--demo']), ensureShells()]);
  // What the servers offer besides the demo jobs: an LDAP group and user, a peering (INITIAL until
  // a peer establishes it), and a job with versions 0 and 1.
  await setUp(['ldap', 'group', 'write', 'devs', 'policies=dev']);
  await setUp(['ldap', 'user', 'write', 'alice', 'policies=dev']);
  await setUp(['peering', 'generate-token', 'peer-west']);
  const { Job: web } = JSON.parse(await setUp(['job', 'inspect', 'web'])) as { Job: object };
  for (const Priority of [50, 60]) {
    const job = { ...web, ID: 'versioned', Name: 'versioned', Priority };
    await setUp(['job', 'run', '--detach', '-'], JSON.stringify({ Job: job }));
  }
  dir = await mkdtemp(join(tmpdir(), 'sked-completion-'));
  // `sked` on PATH, as the scripts call it by name.
  await mkdir(join(dir, 'bin'));
  await writeFile(join(dir, 'bin', 'sked'), `#!/bin/sh\nexec '${process.execPath}' '${SKED}' "$@"\n`);
  await chmod(join(dir, 'bin', 'sked'), 0o755);
  env = {
    ...server.env,
    SKED_SECRETS_TOKEN: server.secretsRootToken,
    PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const script = await sked(['completion', shell]);
    if (script.code !== 0) throw new Error(`sked completion ${shell} failed: ${script.stderr}`);
    await writeFile(join(dir, `sked.${shell}`), script.stdout);
  }
  const { stdout } = await sked(['alloc', 'status', '--json'], { env: server.env });
  const allocs = JSON.parse(stdout) as { ID: string; JobID: string; ClientStatus: string }[];
  const ids = allocs.map((a) => a.ID);
  const id = allocs.find((a) => a.JobID === 'web' && a.ClientStatus === 'running')!.ID;
  let length = 8;
  while (ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))) length++;
  alloc = { id, prefix: id.slice(0, length) };
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A shell on a pseudo-terminal, whose prompt is `prompt`. */
interface Shell {
  readonly term: TerminalRun;
  readonly prompt: string;
}

/**
 * Waits for a fresh prompt line, then the row it is on. A Ctrl-C that came while the shell was
 * still inside its completion widget (a loaded machine) only ends the widget: press it again.
 */
async function promptRow(shell: Shell): Promise<number> {
  const deadline = Date.now() + 30_000;
  let nextCtrlC = Date.now() + 3000;
  for (;;) {
    await shell.term.waitFor(shell.prompt.trimEnd());
    const row = shell.term.cursorRow();
    if (shell.term.screen(row).trimEnd() === shell.prompt.trimEnd()) return row;
    if (Date.now() > deadline) throw new Error(`No fresh prompt; screen:\n${shell.term.screen()}`);
    if (Date.now() > nextCtrlC) {
      shell.term.write('\x03');
      nextCtrlC = Date.now() + 3000;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Types `line` and presses TAB `tabs` times at a fresh prompt, waits until the screen below the
 * prompt matches `expected`, then abandons the line with Ctrl-C. Returns that part of the screen.
 */
async function complete(shell: Shell, line: string, tabs: number, expected: RegExp): Promise<string> {
  const row = await promptRow(shell);
  shell.term.write(line + '\t'.repeat(tabs));
  const deadline = Date.now() + 20_000;
  for (;;) {
    await shell.term.waitFor(shell.prompt.trimEnd());
    const screen = shell.term.screen(row);
    if (expected.test(screen)) {
      shell.term.write('\x03');
      return screen;
    }
    if (Date.now() > deadline)
      throw new Error(
        `"${line}" + ${tabs} TAB: timed out waiting for ${String(expected)}; screen:\n${screen}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Below a prompt line: the versions 0 and 1 both offered (as words: the descriptions hold dates). */
const BOTH_VERSIONS = /(?=[\s\S]*(?:^|\s)0(?:\s|$))(?=[\s\S]*(?:^|\s)1(?:\s|$))/m;

/** The completions in every shell: commands, subcommands, flags, IDs from the server, files. */
function sharedChecks(open: () => Shell, listTabs: number): void {
  it('completes commands, subcommands and flags, global flags after the subcommand too', async () => {
    const shell = open();
    try {
      await complete(shell, 'sked jo', 1, /sked job$/m);
      const subs = await complete(shell, 'sked job ', listTabs, /dispatch/);
      for (const sub of ['run', 'plan', 'status', 'inspect', 'history', 'revert', 'stop'])
        expect(subs).toMatch(new RegExp(`\\b${sub}\\b`));
      await complete(shell, 'sked job run --pre', 1, /sked job run --preserve-counts$/m);
      await complete(shell, 'sked alloc status --name', 1, /sked alloc status --namespace$/m);
      await complete(shell, 'sked event stream --topic Alloc', 1, /--topic Allocation$/m);
    } finally {
      await shell.term.kill();
    }
  });

  it('completes job and allocation IDs from the server, and file names where a file goes', async () => {
    const shell = open();
    try {
      const jobs = await complete(shell, 'sked job status ', listTabs, /nightly-backup/);
      for (const job of ['web', 'cache', 'transcode', 'report'])
        expect(jobs).toMatch(new RegExp(`\\b${job}\\b`));
      expect(jobs).not.toContain('README.md');
      await complete(shell, 'sked job inspect nigh', 1, /sked job inspect nightly-backup$/m);
      await complete(shell, 'sked job history -p transc', 1, /sked job history -p transcode$/m);
      await complete(shell, 'sked --namespace default job stop cac', 1, /job stop cache$/m);
      await complete(shell, 'sked alloc exec --job nightly-b', 1, /exec --job nightly-backup$/m);
      await complete(
        shell,
        `sked alloc status ${alloc.prefix}`,
        1,
        new RegExp(`sked alloc status ${alloc.id}$`, 'm'),
      );
      await complete(shell, 'sked job run examples/hel', 1, /sked job run examples\/hello\.hcl$/m);
    } finally {
      await shell.term.kill();
    }
  });

  it("completes a job's versions, LDAP group and user names and peering names from the servers", async () => {
    const shell = open();
    try {
      const versions = await complete(shell, 'sked job revert versioned ', listTabs, BOTH_VERSIONS);
      expect(versions).not.toContain('nightly-backup'); // versions there, not job IDs
      const history = await complete(shell, 'sked job history versioned --version ', listTabs, BOTH_VERSIONS);
      expect(history).not.toContain('nightly-backup');
      // --check-version offers the current version only
      await complete(shell, 'sked job revert versioned 0 --check-version ', 1, /--check-version 1 ?$/m);
      await complete(shell, 'sked ldap group read d', 1, /sked ldap group read devs ?$/m);
      await complete(shell, 'sked ldap user delete al', 1, /sked ldap user delete alice ?$/m);
      await complete(shell, 'sked peering read peer', 1, /sked peering read peer-west ?$/m);
    } finally {
      await shell.term.kill();
    }
  });
}

describe.concurrent('in real shells', () => {
  describe('bash with bash-completion', () => {
    sharedChecks(() => {
      const rc = join(dir, 'bashrc');
      const term = onTerminal(SHELLS.bash, ['--noprofile', '--rcfile', rc, '-i'], {
        env,
        cwd: CLI_DIR,
        cols: 200,
      });
      return { term, prompt: '$ ' };
    }, 2);

    beforeAll(async () => {
      await writeFile(
        join(dir, 'bashrc'),
        [
          `source ${BASH_COMPLETION}`,
          // Sourced twice, as a re-read .bashrc does: no "readonly variable" errors.
          `source ${join(dir, 'sked.bash')}`,
          `source ${join(dir, 'sked.bash')} 2> ${join(dir, 'bash-resource.err')}`,
          "bind 'set completion-query-items 0'",
          "bind 'set page-completions off'",
          "bind 'set bell-style none'",
          "PS1='$ '",
          '',
        ].join('\n'),
      );
    });

    it('registers the function with file names as the fallback, and sources twice without errors', async () => {
      const { stdout, stderr } = await run(
        SHELLS.bash,
        [
          '--noprofile',
          '--rcfile',
          join(dir, 'bashrc'),
          '-i',
          '-c',
          `source ${join(dir, 'bashrc')}; complete -p sked`,
        ],
        { env: cleanEnv(env) },
      );
      expect(stdout.trim()).toBe('complete -o default -F __sked_complete sked');
      expect(stderr).not.toContain('readonly');
    });
  });

  describe('zsh with compinit', () => {
    beforeAll(async () => {
      await mkdir(join(dir, 'zsh'), { recursive: true });
      await writeFile(
        join(dir, 'zsh', '.zshrc'),
        [
          'autoload -U compinit && compinit -u -D',
          `source ${join(dir, 'sked.zsh')}`,
          "PROMPT='%% '",
          '',
        ].join('\n'),
      );
    });
    sharedChecks(() => {
      const term = onTerminal(SHELLS.zsh, ['-i'], {
        env: { ...env, ZDOTDIR: join(dir, 'zsh') },
        cwd: CLI_DIR,
        cols: 200,
      });
      return { term, prompt: '% ' };
    }, 1);
  });

  describe('fish', () => {
    /** What `complete -C LINE` answers in fish with the script sourced: one `value\tdescription` a line. */
    async function fishComplete(...lines: string[]): Promise<string[]> {
      const script = [
        `source ${join(dir, 'sked.fish')}`,
        ...lines.flatMap((l) => [`complete -C '${l}'`, 'echo ---']),
      ];
      const { stdout } = await run(SHELLS.fish, ['--no-config', '-c', script.join('\n')], {
        env: cleanEnv(env),
        cwd: CLI_DIR,
      });
      return stdout.split('---\n').slice(0, lines.length);
    }

    it('completes commands, subcommands and flags, global flags after the subcommand too', async () => {
      const [top, subs, flag, global, topic] = await fishComplete(
        'sked jo',
        'sked job ',
        'sked job run --pre',
        'sked alloc status --name',
        'sked event stream --topic Alloc',
      );
      expect(top).toMatch(/^job\tJobs: /m);
      for (const sub of ['run', 'plan', 'status', 'inspect', 'history', 'revert', 'stop'])
        expect(subs).toMatch(new RegExp(`^${sub}\\t`, 'm'));
      expect(flag).toMatch(/^--preserve-counts\t/m);
      expect(global).toMatch(/^--namespace\t/m);
      expect(topic).toMatch(/^Allocation$/m);
    });

    it('completes job and allocation IDs from the server, and file names where a file goes', async () => {
      const [jobs, history, execJob, allocs, files] = await fishComplete(
        'sked job status ',
        'sked job history -p transc',
        'sked alloc exec --job nightly-b',
        `sked alloc status ${alloc.prefix}`,
        'sked job run examples/hel',
      );
      expect(jobs).toMatch(/^web\tservice running$/m);
      expect(jobs).toMatch(/^nightly-backup\tbatch \w+$/m);
      expect(jobs).not.toContain('README.md');
      expect(history).toMatch(/^transcode\t/m);
      expect(execJob).toMatch(/^nightly-backup\t/m);
      expect(allocs).toMatch(new RegExp(`^${alloc.id}\\tweb web running$`, 'm'));
      expect(files).toMatch(/^examples\/hello\.hcl$/m);
    });

    it("completes a job's versions, LDAP group and user names and peering names from the servers", async () => {
      const [revert, history, check, groups, users, peerings, pairs] = await fishComplete(
        'sked job revert versioned ',
        'sked job history versioned --version ',
        'sked job revert versioned 0 --check-version ',
        'sked ldap group read ',
        'sked ldap user delete ',
        'sked peering read ',
        'sked ldap user write alice ',
      );
      for (const versions of [revert, history]) {
        expect(versions).toMatch(/^0\t(stable|not stable), submitted \d{4}-\d\d-\d\dT/m);
        expect(versions).toMatch(/^1\t/m);
      }
      expect(check).toMatch(/^1\t/m);
      expect(check).not.toMatch(/^0\t/m);
      expect(groups).toMatch(/^devs\tLDAP group$/m);
      expect(users).toMatch(/^alice\tLDAP user$/m);
      expect(peerings).toMatch(/^peer-west\tINITIAL$/m);
      // after the name come key=value pairs: no names there
      expect(pairs).not.toContain('alice');
    });
  });
});
