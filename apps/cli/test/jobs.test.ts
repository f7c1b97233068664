import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { makeJob, makeTaskGroup } from '@sked/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked, startServer, type ServerProcess } from './harness.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let server: ServerProcess;
const run = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  sked(args, { ...options, env: { ...server.env, ...options.env } });

beforeAll(async () => {
  server = await startServer([]);
});
afterAll(async () => {
  await server.close();
});

describe.concurrent('job run, validate', () => {
  it('runs an HCL job through the parse endpoint and follows the evaluation and the deployment', async () => {
    const result = await run(['job', 'run', fixture('web.hcl')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^==> \S+: Monitoring evaluation "[0-9a-f]{8}"$/m);
    expect(result.stdout).toMatch(/Allocation "[0-9a-f]{8}" created: node "[0-9a-f]{8}", group "web"/);
    expect(result.stdout).toMatch(/Evaluation "[0-9a-f]{8}" finished with status "complete"/);
    expect(result.stdout).toMatch(/✓ Deployment "[0-9a-f]{8}" successful/);
    expect(result.stdout).toMatch(/^ {4}web +2 +2 +2 +0 /m);
  });

  it('takes a bare JSON job, a wrapped one, and one on stdin', async () => {
    const [bare, wrapped, stdin] = await Promise.all([
      run(['job', 'run', '--detach', fixture('api.json')]),
      run(['job', 'run', fixture('batch-wrapped.json')]),
      run(['job', 'run', '--detach', '-'], {
        input: (await readFile(fixture('api.json'), 'utf8')).replace('"api"', '"api-stdin"'),
      }),
    ]);
    expect(bare).toMatchObject({ code: 0, stderr: '' });
    expect(bare.stdout).toMatch(/^Job registration successful\nEvaluation ID: [0-9a-f-]{36}\n$/);
    expect(wrapped).toMatchObject({ code: 0, stderr: '' });
    expect(wrapped.stdout).toContain('finished with status "complete"');
    expect(stdin).toMatchObject({ code: 0, stderr: '' });
    const list = await run(['job', 'status']);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID +Type +Priority +Status +Submit Date$/);
    expect(list.stdout).toMatch(/^api-stdin +service +50 +\w+ +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
  });

  it('exits 2 when placement failed, naming the exhausted dimension', async () => {
    const result = await run(['job', 'run', fixture('huge.json')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('finished with status "complete" but failed to place all allocations:');
    expect(result.stdout).toContain('Task Group "huge" (failed to place 1 allocation):');
    expect(result.stdout).toMatch(/\* Dimension "cpu" exhausted on \d+ nodes/);
    await run(['job', 'stop', '--purge', '--detach', 'huge']);
  });

  it('validates locally, naming each problem', async () => {
    const good = await run(['job', 'validate', fixture('web.hcl')]);
    expect(good).toMatchObject({ code: 0, stdout: 'Job validation successful\n', stderr: '' });
    const bad = await run(['job', 'validate', fixture('invalid.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Job validation errors:');
    expect(bad.stderr).toContain('Job.TaskGroups[0].Count');
    const json = await run(['job', 'validate', fixture('invalid.json'), '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ Valid: false });
  });

  it("runs the scheduler's semantic checks locally, each problem with its path and the server's sentence", async () => {
    const validate = (job: object) => run(['job', 'validate', '-'], { input: JSON.stringify({ Job: job }) });
    const [priority, groups, cron, fine] = await Promise.all([
      validate(makeJob({ ID: 'prio', Priority: 0 })),
      validate(
        makeJob({
          ID: 'twice',
          TaskGroups: [makeTaskGroup({ Name: 'web' }), makeTaskGroup({ Name: 'web' })],
        }),
      ),
      validate(makeJob({ ID: 'nightly', Type: 'batch', Periodic: { Spec: '61 * * * *' } })),
      validate(makeJob({ ID: 'nightly', Type: 'batch', Periodic: { Spec: '0 3 * * mon-fri' } })),
    ]);
    expect(priority).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Job validation errors:\n  * Job.Priority: expected a number of at least 1 but got the number 0\n',
    });
    expect(groups).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Job validation errors:\n  * Job.TaskGroups[1].Name: Task group "web" is defined more than once.\n',
    });
    expect(cron).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Job validation errors:\n  * Job.Periodic.Spec: Periodic job has an invalid cron spec "61 * * * *": minute value "61" is out of range 0-59.\n',
    });
    expect(fine).toMatchObject({ code: 0, stdout: 'Job validation successful\n', stderr: '' });
    const several = await run(['job', 'validate', '-', '--json'], {
      input: JSON.stringify(
        makeJob({
          ID: 'several',
          TaskGroups: [makeTaskGroup({ Name: 'a', Tasks: [] }), makeTaskGroup({ Name: 'a' })],
        }),
      ),
    });
    expect(several.code).toBe(1);
    expect(JSON.parse(several.stdout)).toEqual({
      Valid: false,
      Errors: [
        'Job.TaskGroups[0].Tasks: Task group "a" has no tasks.',
        'Job.TaskGroups[1].Name: Task group "a" is defined more than once.',
      ],
    });
  });

  it('refuses broken job files with what was wrong', async () => {
    const notJson = await run(['job', 'run', '-'], { input: '{"ID": ' });
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^Error: stdin is not valid JSON: /);
    const noId = await run(['job', 'run', '-'], { input: '{"Job": {"Type": "batch"}}' });
    expect(noId.stderr).toContain('the job has no ID');
    const missing = await run(['job', 'run', '/nonexistent/job.hcl']);
    expect(missing.stderr).toContain('Cannot read job file /nonexistent/job.hcl');
    const hcl = await run(['job', 'run', '-'], { input: 'job "x" { group "g" { count = } }' });
    expect(hcl.code).toBe(1);
    expect(hcl.stderr).toMatch(/HTTP 400 from POST \S+\/v1\/jobs\/parse/);
    const array = await run(['job', 'run', '-'], { input: '[1, 2]' });
    expect(array.stderr).toContain('must hold a JSON object');
  });
});

describe.concurrent('job status, dispatch, flags', () => {
  it('shows one job with its summary, latest deployment and allocations; --json for scripts', async () => {
    const result = await run(['job', 'status', 'web']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ID {12}= web\nName {10}= web\n/);
    expect(result.stdout).toMatch(
      /Summary\nTask Group +Queued +Starting +Running +Failed +Complete +Lost\nweb +0 +0 +2 /,
    );
    expect(result.stdout).toMatch(
      /Latest Deployment\nID {10}= [0-9a-f-]{36}\nJob ID {6}= web\nJob Version = \d+\nStatus {6}= successful/,
    );
    expect(result.stdout).toMatch(
      /Allocations\nID +Node ID +Task Group +Version +Desired +Status +Created +Modified\n[0-9a-f]{8} /,
    );
    const json = JSON.parse((await run(['job', 'status', 'web', '--json'])).stdout);
    expect(json.Job.ID).toBe('web');
    expect(json.Summary.Summary.web.Running).toBe(2);
    expect(json.Allocations).toHaveLength(2);
    // Global flags before the subcommand work too.
    expect(JSON.parse((await run(['--json', 'job', 'status', 'web'])).stdout).Job.ID).toBe('web');
  });

  it('resolves a unique prefix and lists an ambiguous one', async () => {
    expect((await run(['job', 'status', 'we'])).stdout).toMatch(/^ID {12}= web$/m);
    const ambiguous = await run(['job', 'status', 'ap']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/Prefix "ap" matched 2 jobs:/);
    const none = await run(['job', 'status', 'zzz']);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toContain('No job with ID or prefix "zzz".');
  });

  it('filters the list on the server and reports a bad filter with its position', async () => {
    const batch = await run(['job', 'status', '--filter', 'Type == "batch"']);
    expect(batch.stdout).toMatch(/^once +batch/m);
    expect(batch.stdout).not.toContain('web');
    const bad = await run(['job', 'status', '--filter', 'Type = "batch"']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('failed to read filter expression');
    expect(bad.stderr).toContain('HTTP 400 from GET');
  });

  it('dispatches a parameterized job with meta and a payload from stdin', async () => {
    const job = makeJob({
      ID: 'convert',
      Type: 'batch',
      ParameterizedJob: { Payload: 'optional', MetaRequired: ['input'], MetaOptional: null },
      group: { Name: 'convert' },
      task: { Name: 'run', Config: { run_for: '10ms' } },
    });
    const registered = await run(['job', 'run', '-'], { input: JSON.stringify(job) });
    expect(registered).toMatchObject({ code: 0, stdout: 'Job registration successful\n' });
    const dispatched = await run(['job', 'dispatch', '-m', 'input=a.csv', 'convert', '-'], {
      input: 'payload',
    });
    expect(dispatched.code).toBe(0);
    expect(dispatched.stdout).toMatch(
      /^Dispatched Job ID = convert\/dispatch-\S+\nEvaluation ID {5}= [0-9a-f-]{36}\n/,
    );
    expect(dispatched.stdout).toContain('finished with status "complete"');
    const missingMeta = await run(['job', 'dispatch', 'convert']);
    expect(missingMeta.code).toBe(1);
    expect(missingMeta.stderr).toMatch(/input/);
    const badPair = await run(['job', 'dispatch', '-m', 'novalue', 'convert']);
    expect(badPair.stderr).toContain('--meta "novalue" is not key=value.');
  });
});

describe.concurrent('flags, environment and errors', () => {
  it('completes job and allocation IDs from the server', async () => {
    const jobs = await run(['complete', '--', 'job', 'status', '']);
    expect(jobs.code).toBe(0);
    expect(jobs.stdout).toMatch(/^web\tservice running$/m);
    expect(jobs.stdout).toMatch(/^once\tbatch \w+$/m);
    const allocs = await run(['complete', '--', 'alloc', 'status', '']);
    expect(allocs.stdout).toMatch(/^[0-9a-f-]{36}\tweb web running$/m);
    const viaFlag = await sked(['complete', '--', '--address', server.url, 'job', 'inspect', 'we']);
    expect(viaFlag.stdout).toBe('web\tservice running\n:4\n');
  });

  it('exits 1 with the usage on stderr for an unknown flag or a missing argument', async () => {
    const unknown = await run(['job', 'status', '--bogus']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain("error: unknown option '--bogus'");
    expect(unknown.stderr).toContain('Usage: sked job status [options] [id]');
    const missing = await run(['job', 'run']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("error: missing required argument 'file'");
    expect(missing.stderr).toContain('Usage: sked job run');
    const typo = await run(['jbo']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('(Did you mean job?)');
  });

  it('takes --address over SKED_ADDR and says what to try when nothing answers', async () => {
    const viaFlag = await run(['job', 'status', '--address', server.url], {
      env: { SKED_ADDR: 'http://127.0.0.1:9' },
    });
    expect(viaFlag.code).toBe(0);
    const down = await run(['job', 'status'], { env: { SKED_ADDR: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('no answer from GET http://127.0.0.1:9/v1/jobs');
    expect(down.stderr).toContain(
      'Try: Is the scheduling service running at http://127.0.0.1:9? Set --address or SKED_ADDR.',
    );
  });

  it('reads SKED_NAMESPACE and --namespace, and the region error of the server', async () => {
    const other = await run(['job', 'status'], { env: { SKED_NAMESPACE: 'other' } });
    expect(other).toMatchObject({ code: 0, stdout: 'No running jobs\n' });
    const all = await run(['job', 'status', '--namespace', '*']);
    expect(all.stdout.split('\n')[0]).toMatch(/^Namespace +ID +Type/);
    const region = await run(['job', 'status', '--region', 'mars']);
    expect(region.code).toBe(1);
    expect(region.stderr).toContain('No path to region "mars"');
    expect(region.stderr).toContain('HTTP 400');
  });
});

describe('plan, inspect, history, revert, stop (one after the other: they change the same jobs)', () => {
  it('plans: exit 1 with the diff and the check-and-set index, 0 without changes, 255 on error', async () => {
    const same = await run(['job', 'plan', fixture('web.hcl')]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^Job: "web"\nTask Group: "web" \(2 ignore\)/);
    const source = (await readFile(fixture('web.hcl'), 'utf8')).replace('count = 2', 'count = 3');
    const changed = await run(['job', 'plan', '-'], { input: source });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain(
      '+/- Job: "web"\n+/- Task Group: "web" (1 create, 2 in-place update)\n  +/- Count: "2" => "3"',
    );
    expect(changed.stdout).toContain('Scheduler dry-run:\n- All tasks successfully allocated.');
    const index = /Job Modify Index: (\d+)/.exec(changed.stdout)?.[1];
    expect(changed.stdout).toContain(`sked job run --check-index ${index} -`);
    const broken = await run(['job', 'plan', fixture('invalid.json')]);
    expect(broken.code).toBe(255);
    // refused by the client before any request: the body does not match the model's JobPlanRequest
    expect(broken.stderr).toBe(
      'Error: The job plan body is not valid: Job.TaskGroups[0].Count: expected an integer but got the string "two".\n  Try: See --help for the command.\n',
    );
    expect((await run(['job', 'plan', '--nope', 'x'])).code).toBe(255);
    // The index from plan makes a later run conditional.
    const stale = await run(['job', 'run', '--check-index', '1', '-'], { input: source });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('conflicting job modify index');
  });

  it('inspects as {"Job": ...} that job run takes back, and lists versions with diffs', async () => {
    const inspected = await run(['job', 'inspect', 'web']);
    expect(JSON.parse(inspected.stdout).Job.ID).toBe('web');
    const bumped = JSON.parse(inspected.stdout);
    bumped.Job.TaskGroups[0].Count = 1;
    const rerun = await run(['job', 'run', '-'], { input: JSON.stringify(bumped) });
    expect(rerun.code).toBe(0);
    const history = await run(['job', 'history', '-p', 'web']);
    expect(history.stdout).toMatch(
      /^Version {5}= 1\nStable {6}= \w+\nSubmit Date = \S+\nDiff {8}=\n {2}\+\/- Job: "web"/,
    );
    expect(history.stdout).toContain('+/- Count: "2" => "1"');
    expect(history.stdout).toMatch(/\n\nVersion {5}= 0\n/);
    const old = await run(['job', 'inspect', '--version', '0', 'web']);
    expect(JSON.parse(old.stdout).Job.TaskGroups[0].Count).toBe(2);
    const revert = await run(['job', 'revert', 'web', '0']);
    expect(revert.code).toBe(0);
    expect(revert.stdout).toContain('Monitoring evaluation');
    expect(JSON.parse((await run(['job', 'inspect', 'web'])).stdout).Job.TaskGroups[0].Count).toBe(2);
    const noVersion = await run(['job', 'revert', 'web', 'x']);
    expect(noVersion.code).toBe(1);
    expect(noVersion.stderr).toContain("error: command-argument value 'x' is invalid for argument 'version'");
  });

  it('stops a job (following the evaluation), --detach returns at once, --purge removes it', async () => {
    const stopped = await run(['job', 'stop', 'api-stdin']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('Monitoring evaluation');
    expect((await run(['job', 'status', 'api-stdin', '--json'])).stdout).toContain('"Stop": true');
    const detached = await run(['job', 'stop', '--purge', '--detach', 'api-stdin']);
    expect(detached.stdout).toMatch(/^Evaluation ID: [0-9a-f-]{36}\n$/);
    const gone = await run(['job', 'inspect', 'api-stdin']);
    expect(gone.code).toBe(1);
  });
});
