import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ClusterError } from '../errors.js';
import type { Job } from '../types.js';
import { parseJobHcl, type ParseJobInput } from './parse-job.js';

const web = readFileSync(new URL('../test/fixtures/web.hcl', import.meta.url), 'utf8');
const opts = { region: 'global' };

/**
 * A parse without canonicalisation, its fields read by the Job's names: the mapping tests below
 * assert what those fields hold (the result itself is typed as untrusted JSON).
 */
async function parseAsJob(input: ParseJobInput): Promise<Job> {
  return (await parseJobHcl(input, opts)) as Job;
}

async function rejection(p: Promise<unknown>): Promise<ClusterError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ClusterError.is(error)).toBe(true);
  return error as ClusterError;
}

describe('parseJobHcl', () => {
  it('maps a realistic job file onto the Job structure', async () => {
    const job = await parseAsJob({ hcl: web });
    expect(job).toMatchObject({
      ID: 'web',
      Name: 'web',
      Datacenters: ['dc1'],
      Type: 'service',
      Priority: 60,
      Meta: { team: 'platform' },
      Constraints: [
        { LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' },
        { LTarget: '', RTarget: 'true', Operand: 'distinct_hosts' },
      ],
      Update: { MaxParallel: 1, MinHealthyTime: 10e9, HealthyDeadline: 180e9, AutoRevert: true },
    });
    const g = job.TaskGroups[0]!;
    expect(g).toMatchObject({
      Name: 'frontend',
      Count: 3,
      RestartPolicy: { Attempts: 3, Interval: 600e9, Delay: 15e9, Mode: 'delay' },
      EphemeralDisk: { SizeMB: 500 },
      Volumes: { data: { Name: 'data', Type: 'csi', Source: 'data-vol', ReadOnly: true } },
    });
    expect(g.Networks).toEqual([
      {
        ReservedPorts: [{ Label: 'admin', Value: 9000, To: 0, HostNetwork: '' }],
        DynamicPorts: [{ Label: 'http', Value: 0, To: 8080, HostNetwork: '' }],
      },
    ]);
    const task = g.Tasks[0]!;
    expect(task).toMatchObject({
      Name: 'server',
      Driver: 'mock',
      Config: { run_for: '1h', image: 'web:1.0', args: ['--port', '${SKED_PORT_http}', '--name=web:1.0'] },
      Env: { MODE: 'production' },
      Resources: { CPU: 250, MemoryMB: 128 },
      KillTimeout: 20e9,
    });
    expect(task.Services).toEqual([
      {
        Name: 'web',
        PortLabel: 'http',
        Tags: ['v1'],
        Checks: [{ Type: 'http', Path: '/health', Interval: 10e9, Timeout: 2e9 }],
      },
    ]);
  });

  it('applies var-file content and flags, flags last', async () => {
    const job = await parseAsJob({
      hcl: web,
      variables: 'image = "web:2.0"\nreplicas = 4\n',
      variableFlags: { image: 'web:3.0' },
    });
    expect(job.TaskGroups[0]?.Count).toBe(5);
    expect(job.TaskGroups[0]?.Tasks[0]?.Config).toMatchObject({ image: 'web:3.0' });
    const flagged = await parseAsJob({ hcl: web, variableFlags: { replicas: '1' } });
    expect(flagged.TaskGroups[0]?.Count).toBe(2);
  });

  it('fills defaults with Canonicalize', async () => {
    const job = await parseJobHcl(
      {
        hcl: 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n',
        canonicalize: true,
        namespace: 'prod',
      },
      opts,
    );
    expect(job).toMatchObject({
      ID: 'x',
      Namespace: 'prod',
      Region: 'global',
      Type: 'service',
      Priority: 50,
      Datacenters: ['*'],
    });
    expect(job.TaskGroups[0]).toMatchObject({ Count: 1, EphemeralDisk: { SizeMB: 300 } });
    expect(job.TaskGroups[0]?.Tasks[0]?.Resources).toMatchObject({ CPU: 100, MemoryMB: 300 });
    const raw = await parseJobHcl(
      { hcl: 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n' },
      opts,
    );
    expect(raw['Priority']).toBeUndefined();
  });

  it('checks a job file once against the model before canonicalizing it (a system job passes)', async () => {
    const file = (attrs: string): string =>
      `job "a" {\n${attrs}\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n`;
    const agent = await parseJobHcl({ hcl: file('  type = "system"'), canonicalize: true }, opts);
    expect(agent.Type).toBe('system');
    expect(agent.TaskGroups[0]?.ReschedulePolicy).toBeNull();
    const priority = await rejection(
      parseJobHcl({ hcl: file('  priority = "high"'), canonicalize: true }, opts),
    );
    expect([priority.status, priority.message]).toEqual([
      400,
      'The job file does not describe a valid job: Priority: expected an integer but got the string "high"',
    ]);
    const type = await rejection(parseJobHcl({ hcl: file('  type = "cron"'), canonicalize: true }, opts));
    expect(type.message).toMatch(
      /^The job file does not describe a valid job: Type: expected one of .*"system"/,
    );
    // without Canonicalize the file's fields come back as written, as before
    const raw = await parseJobHcl({ hcl: file('  priority = "high"') }, opts);
    expect(raw.Priority).toBe('high');
  });

  it('reports bad HCL with its position', async () => {
    const e = await rejection(parseJobHcl({ hcl: 'job "x" {\n  count = \n}\n' }, opts));
    expect(e.status).toBe(400);
    expect(e.message).toBe(
      'Failed to parse job.hcl: job.hcl:2,11-3,1: Invalid expression; Expected the start of an expression, but found an invalid expression token.',
    );
  });

  it.each([
    [
      { hcl: web, hclV1: true },
      'The HCLv1 (legacy) job parser is not supported by this server: submit the job in HCL2 with HCLv1 false.',
    ],
    [{ hcl: '   ' }, 'JobHCL is empty: expected the text of a job file.'],
    [
      { hcl: 'variable "v" {}\n' },
      'Required variable "v" is not set: give it a default, or set it in Variables or VariableFlags.',
    ],
    [{ hcl: 'group "g" {\n}\n' }, 'The job file has no job block: expected job "<name>" { ... }.'],
    [
      { hcl: 'job "a" {\n}\njob "b" {\n}\n' },
      'The job file has 2 job blocks ("a", "b"): expected exactly one.',
    ],
    [
      { hcl: web, variableFlags: { nope: '1' } },
      'Variable "nope" set in VariableFlags is not declared in the job: declare it with a variable block.',
    ],
    [
      { hcl: 'job "x" {\n  priority = var.p\n}\n' },
      'Unknown variable "p" referenced at job["x"].priority: declare it with a variable block.',
    ],
    [
      { hcl: 'job "x" {\n  name = upper("a")\n}\n' },
      'Unsupported expression "upper("a")" at job["x"].name: only variables (var.x), locals (local.x), literals and arithmetic are evaluated; functions are not supported.',
    ],
    [
      { hcl: 'job "x" {\n  group "g" {\n    shutdown_delay = "soon"\n  }\n}\n' },
      'Invalid duration "soon" at job["x"].group["g"].shutdown_delay: expected a value such as "30s", "5m" or "1h30m".',
    ],
  ])('rejects %j', async (input, message) => {
    const e = await rejection(parseJobHcl(input, opts));
    expect(e.message).toBe(message);
  });
});

describe('parseJobHcl with a parameterized batch job', () => {
  const batch = readFileSync(new URL('../test/fixtures/batch.hcl', import.meta.url), 'utf8');

  it('maps parameterized, reschedule, dispatch payload, templates, artifacts, logs, lifecycle and version constraints', async () => {
    const job = await parseAsJob({ hcl: batch });
    expect(job).toMatchObject({
      ID: 'reports',
      Type: 'batch',
      Datacenters: ['dc*'],
      ParameterizedJob: { Payload: 'required', MetaRequired: ['customer'], MetaOptional: ['format'] },
      Reschedule: {
        Attempts: 2,
        Interval: 3600e9,
        Delay: 30e9,
        DelayFunction: 'exponential',
        MaxDelay: 600e9,
        Unlimited: false,
      },
    });
    const task = job.TaskGroups[0]!.Tasks[0]!;
    expect(task).toMatchObject({
      Driver: 'raw_exec',
      Config: { command: '/bin/sh', args: ['-c', 'cat local/input.json'] },
      DispatchPayload: { File: 'input.json' },
      Templates: [
        {
          EmbeddedTmpl: 'customer={{ env "SKED_META_customer" }}',
          DestPath: 'local/env.txt',
          ChangeMode: 'noop',
        },
      ],
      Artifacts: [
        {
          GetterSource: 'https://example.invalid/tool.tgz',
          RelativeDest: 'local/tool',
          GetterOptions: { checksum: 'sha256:abc' },
        },
      ],
      LogConfig: { MaxFiles: 3, MaxFileSizeMB: 5 },
      Lifecycle: { Hook: 'prestart', Sidecar: false },
      Constraints: [{ LTarget: '${attr.os.version}', RTarget: '>= 11', Operand: 'version' }],
    });
  });

  it('parses periodic blocks', async () => {
    const job = await parseJobHcl(
      {
        hcl: 'job "nightly" {\n  type = "batch"\n  periodic {\n    crons            = ["0 3 * * *"]\n    prohibit_overlap = true\n    time_zone        = "America/New_York"\n  }\n  group "g" {\n    task "t" {\n      driver = "mock"\n    }\n  }\n}\n',
      },
      opts,
    );
    expect(job.Periodic).toEqual({
      Spec: '0 3 * * *',
      SpecType: 'cron',
      ProhibitOverlap: true,
      TimeZone: 'America/New_York',
    });
  });
});

describe('hostile input', () => {
  it('refuses deeply nested input with a 400 before the parser sees it, and keeps parsing', async () => {
    const deep = `${'('.repeat(5000)}1${')'.repeat(5000)}`;
    const e = await rejection(parseJobHcl({ hcl: `job "x" {\n  priority = ${deep}\n}\n` }, opts));
    expect(e.message).toBe(
      'Failed to parse job.hcl: line 2 is nested 5001 levels deep; at most 100 are accepted.',
    );
    const nested = `job "x" {\n  meta = ${'{a='.repeat(300)}1${'}'.repeat(300)}\n}\n`;
    await expect(parseJobHcl({ hcl: nested }, opts)).rejects.toThrow(/nested 301 levels deep/);
    const job = await parseJobHcl({ hcl: web }, opts);
    expect(job.ID).toBe('web');
  });

  it('converts unknown blocks like the known ones', async () => {
    const job = await parseJobHcl(
      { hcl: 'job "x" {\n  telemetry {\n    policies = ["a"]\n    change_mode = "restart"\n  }\n}\n' },
      opts,
    );
    expect((job as unknown as Record<string, unknown>)['Telemetry']).toEqual({
      Policies: ['a'],
      ChangeMode: 'restart',
    });
  });
});

describe('parseJobHcl spreads and affinities', () => {
  it('maps spread targets and affinity weights', async () => {
    const job = await parseJobHcl(
      {
        hcl: `job "x" {
  spread {
    attribute = "\${node.datacenter}"
    weight    = 80
    target "dc1" {
      percent = 70
    }
    target "dc2" {
      percent = 30
    }
  }
  affinity {
    attribute = "\${meta.rack}"
    value     = "r1"
    weight    = -50
  }
}
`,
      },
      opts,
    );
    expect(job.Spreads).toEqual([
      {
        Attribute: '${node.datacenter}',
        Weight: 80,
        SpreadTarget: [
          { Value: 'dc1', Percent: 70 },
          { Value: 'dc2', Percent: 30 },
        ],
      },
    ]);
    expect(job.Affinities).toEqual([{ LTarget: '${meta.rack}', RTarget: 'r1', Operand: '=', Weight: -50 }]);
  });
});
