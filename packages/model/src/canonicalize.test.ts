import { describe, expect, it } from 'vitest';

import { JobDefaults, JobTypeDefaults, canonicalizeJob } from './canonicalize.js';
import { Job, SchedulerJobInput, type JobInput, type SchedulerJob } from './job.js';
import { validate } from './validate.js';

const S = 1_000_000_000;
const minimal: JobInput = { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] };

describe('canonicalizeJob', () => {
  it('turns a minimal job into a complete stored job', () => {
    const job = canonicalizeJob(minimal);
    const result = validate(Job, job);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it('fills the top-level defaults', () => {
    const job = canonicalizeJob(minimal);
    expect(job).toMatchObject({
      Region: 'global',
      Namespace: 'default',
      Name: 'web',
      ParentID: '',
      Type: 'service',
      Priority: 50,
      AllAtOnce: false,
      Datacenters: ['*'],
      NodePool: 'default',
      Status: 'pending',
      Version: 0,
      Stop: false,
      Stable: false,
      Dispatched: false,
      Meta: null,
      Constraints: null,
      Periodic: null,
      ParameterizedJob: null,
      Multiregion: null,
      Payload: null,
    });
  });

  it('takes the region from the options, and the job over the options', () => {
    expect(canonicalizeJob(minimal, { region: 'eu' }).Region).toBe('eu');
    expect(canonicalizeJob({ ...minimal, Region: 'us' }, { region: 'eu' }).Region).toBe('us');
    expect(canonicalizeJob({ ...minimal, Region: '' }, { region: 'eu' }).Region).toBe('eu');
  });

  it('fills group and task defaults of a service job', () => {
    const group = canonicalizeJob(minimal).TaskGroups[0];
    expect(group).toMatchObject({
      Count: 1,
      RestartPolicy: { Attempts: 2, Interval: 30 * 60 * S, Delay: 15 * S, Mode: 'fail' },
      ReschedulePolicy: JobTypeDefaults.service.ReschedulePolicy,
      Migrate: JobTypeDefaults.service.Migrate,
      Update: JobTypeDefaults.service.Update,
      EphemeralDisk: { Sticky: false, SizeMB: 300, Migrate: false },
      Networks: null,
      Services: null,
      ShutdownDelay: null,
    });
    expect(group?.Tasks[0]).toMatchObject({
      KillTimeout: 5 * S,
      Resources: { CPU: 100, MemoryMB: 300, DiskMB: 0, IOPS: 0, Networks: null, Devices: null },
      LogConfig: { Disabled: false, MaxFiles: 10, MaxFileSizeMB: 10 },
      RestartPolicy: group?.RestartPolicy,
      Config: null,
      Leader: false,
    });
  });

  it.each([
    ['batch', JobTypeDefaults.batch],
    ['sysbatch', JobTypeDefaults.sysbatch],
  ] as const)('uses the %s policy defaults', (type, defaults) => {
    const job = canonicalizeJob({ ...minimal, Type: type });
    expect(job.Update).toBeNull();
    expect(job.TaskGroups[0]).toMatchObject({
      RestartPolicy: defaults.RestartPolicy,
      ReschedulePolicy: defaults.ReschedulePolicy,
      Migrate: null,
      Update: null,
    });
  });

  it('gives a service job without an update block the default update strategy, as the service does', () => {
    const job = canonicalizeJob(minimal);
    expect(job.Update).toEqual(JobTypeDefaults.service.Update);
    expect(job.TaskGroups[0]?.Update).toEqual(JobTypeDefaults.service.Update);
    expect(job.TaskGroups[0]?.Update).not.toBe(job.Update);
  });

  it("fills a job's or group's own update block over the defaults", () => {
    const withGroupUpdate: JobInput = {
      ID: 'web',
      TaskGroups: [
        { Name: 'a', Update: { Canary: 1 }, Tasks: [{ Name: 't', Driver: 'mock' }] },
        { Name: 'b', Tasks: [{ Name: 't', Driver: 'mock' }] },
      ],
    };
    const job = canonicalizeJob(withGroupUpdate);
    expect(job.Update).toEqual(JobTypeDefaults.service.Update);
    expect(job.TaskGroups[0]?.Update).toEqual({ ...JobTypeDefaults.service.Update, Canary: 1 });
    expect(job.TaskGroups[1]?.Update).toEqual(JobTypeDefaults.service.Update);
    const jobLevel = canonicalizeJob({ ...withGroupUpdate, Update: { MaxParallel: 2 } });
    expect(jobLevel.Update).toEqual({ ...JobTypeDefaults.service.Update, MaxParallel: 2 });
    expect(jobLevel.TaskGroups[1]?.Update).toEqual({ ...JobTypeDefaults.service.Update, MaxParallel: 2 });
  });

  it('gives a type outside JobType the service defaults, keeping the type for a validator to report', () => {
    const job = canonicalizeJob({ ...minimal, Type: 'cron' } as unknown as JobInput);
    expect(job.Type).toBe('cron');
    expect(job.TaskGroups[0]?.RestartPolicy).toEqual(JobTypeDefaults.service.RestartPolicy);
    expect(job.TaskGroups[0]?.ReschedulePolicy).toEqual(JobTypeDefaults.service.ReschedulePolicy);
  });

  it('takes a SchedulerJobInput of type system (refused by JobInput) and returns a SchedulerJob', () => {
    const body = { ...minimal, Type: 'system' };
    expect(validate(SchedulerJobInput, body).ok).toBe(true);
    expect(validate(SchedulerJobInput, { ...minimal, Type: 'cron' }).ok).toBe(false);
    expect(validate(SchedulerJobInput, { ID: 'web', Priority: 'high' }).ok).toBe(false);
    const input: SchedulerJobInput = { ...minimal, Type: 'system' };
    const job: SchedulerJob = canonicalizeJob(input);
    expect(job.Type).toBe('system');
    expect(job.TaskGroups[0]?.ReschedulePolicy).toBeNull();
    expect(job.TaskGroups[0]?.RestartPolicy).toEqual(JobTypeDefaults.system.RestartPolicy);
    expect(validate(Job, { ...job, Type: 'service' }).ok).toBe(true);
  });

  it('merges job-level policies under the group and the group restart policy under the task', () => {
    // Arrange
    const input: JobInput = {
      ID: 'web',
      Update: { MaxParallel: 3, Canary: 1 },
      Reschedule: { Attempts: 5, Unlimited: false },
      TaskGroups: [
        {
          Name: 'g',
          Update: { Canary: 2 },
          RestartPolicy: { Attempts: 7 },
          Tasks: [{ Name: 't', Driver: 'mock', RestartPolicy: { Mode: 'delay' } }],
        },
      ],
    };

    // Act
    const job = canonicalizeJob(input);

    // Assert
    const group = job.TaskGroups[0];
    expect(job.Update).toMatchObject({ MaxParallel: 3, Canary: 1, HealthCheck: 'checks' });
    expect(group?.Update).toMatchObject({ MaxParallel: 3, Canary: 2, Stagger: 30 * S });
    expect(group?.ReschedulePolicy).toMatchObject({
      Attempts: 5,
      Unlimited: false,
      DelayFunction: 'exponential',
    });
    expect(group?.RestartPolicy).toEqual({ Attempts: 7, Interval: 30 * 60 * S, Delay: 15 * S, Mode: 'fail' });
    expect(group?.Tasks[0]?.RestartPolicy).toEqual({
      Attempts: 7,
      Interval: 30 * 60 * S,
      Delay: 15 * S,
      Mode: 'delay',
    });
  });

  it('keeps given values, including zero and false', () => {
    const job = canonicalizeJob({
      ...minimal,
      Priority: 1,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Count: 0, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 0 } }] }],
    });
    expect(job.Priority).toBe(1);
    expect(job.Datacenters).toEqual(['dc1']);
    expect(job.TaskGroups[0]?.Count).toBe(0);
    expect(job.TaskGroups[0]?.Tasks[0]?.Resources.CPU).toBe(0);
  });

  it('takes the count from the scaling policy when absent', () => {
    const job = canonicalizeJob({ ID: 'web', TaskGroups: [{ Name: 'g', Scaling: { Min: 3, Max: 9 } }] });
    expect(job.TaskGroups[0]?.Count).toBe(3);
    expect(job.TaskGroups[0]?.Scaling).toMatchObject({
      Min: 3,
      Max: 9,
      Type: 'horizontal',
      Enabled: true,
      Target: { Namespace: 'default', Job: 'web', Group: 'g' },
    });
  });

  it('names services and checks', () => {
    const job = canonicalizeJob({
      ID: 'web',
      TaskGroups: [
        {
          Name: 'g',
          Services: [{ PortLabel: 'http', Checks: [{ Type: 'http', Path: '/' }] }],
          Tasks: [{ Name: 't', Driver: 'mock', Services: [{}] }],
        },
      ],
    });
    expect(job.TaskGroups[0]?.Services?.[0]).toMatchObject({ Name: 'web-g', PortLabel: 'http' });
    expect(job.TaskGroups[0]?.Services?.[0]?.Checks?.[0]?.Name).toBe('service: "web-g" check');
    expect(job.TaskGroups[0]?.Tasks[0]?.Services?.[0]?.Name).toBe('web-g-t');
  });

  it('fills sub-object defaults (constraints, periodic, parameterized, templates, ports)', () => {
    const job = canonicalizeJob({
      ID: 'web',
      Type: 'batch',
      Constraints: [{ LTarget: '${attr.os}', RTarget: 'linux' }],
      Affinities: [{ LTarget: '${node.class}', RTarget: 'big' }],
      Periodic: { Spec: '*/5 * * * *' },
      ParameterizedJob: {},
      TaskGroups: [
        {
          Name: 'g',
          Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
          Tasks: [
            {
              Name: 't',
              Driver: 'mock',
              Templates: [{ DestPath: 'local/x' }],
              Artifacts: [{ GetterSource: 'u' }],
            },
          ],
        },
      ],
    });
    expect(job.Constraints).toEqual([{ LTarget: '${attr.os}', RTarget: 'linux', Operand: '=' }]);
    expect(job.Affinities).toEqual([{ LTarget: '${node.class}', RTarget: 'big', Operand: '=', Weight: 50 }]);
    expect(job.Periodic).toEqual({
      Enabled: true,
      Spec: '*/5 * * * *',
      SpecType: 'cron',
      ProhibitOverlap: false,
      TimeZone: 'UTC',
    });
    expect(job.ParameterizedJob).toEqual({ Payload: 'optional', MetaRequired: null, MetaOptional: null });
    const group = job.TaskGroups[0];
    expect(group?.Networks?.[0]).toMatchObject({
      Mode: 'host',
      DynamicPorts: [{ Label: 'http', Value: 0, To: 0, HostNetwork: 'default' }],
    });
    expect(group?.Tasks[0]?.Templates?.[0]).toMatchObject({
      ChangeMode: 'restart',
      Splay: 5 * S,
      Perms: '0644',
    });
    expect(group?.Tasks[0]?.Artifacts?.[0]?.RelativeDest).toBe('local/');
    expect(validate(Job, job).ok).toBe(true);
  });

  it('is pure: the input is unchanged and nothing is shared', () => {
    // Arrange
    const input: JobInput = {
      ID: 'web',
      Meta: { owner: 'a' },
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: { args: ['a'] } }] }],
    };
    const before = structuredClone(input);

    // Act
    const job = canonicalizeJob(input);
    job.Meta!.owner = 'changed';
    (job.TaskGroups[0]!.Tasks[0]!.Config!.args as string[]).push('b');

    // Assert
    expect(input).toEqual(before);
  });

  it('drops unknown extra fields and keeps "__proto__" map keys as plain keys', () => {
    const input = JSON.parse(
      '{"ID":"web","Extra":1,"Meta":{"__proto__":"x"},"TaskGroups":[{"Name":"g","Unknown":true,"Tasks":[{"Name":"t","Driver":"mock","Config":{"__proto__":{"polluted":true}}}]}]}',
    ) as JobInput;
    const job = canonicalizeJob(input);
    expect(job).not.toHaveProperty('Extra');
    expect(job.TaskGroups[0]).not.toHaveProperty('Unknown');
    expect(Object.keys(job.Meta ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(job.Meta)).toBe(Object.prototype);
    expect(Object.keys(job.TaskGroups[0]?.Tasks[0]?.Config ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is idempotent', () => {
    const once = canonicalizeJob(minimal);
    expect(canonicalizeJob(once)).toEqual(once);
  });

  it('documents its constants', () => {
    expect(JobDefaults.Priority).toBe(50);
    expect(JobDefaults.Namespace).toBe('default');
  });
});
