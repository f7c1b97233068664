import { badRequest } from './errors.js';
import { parseCron } from './internal/cron.js';
import type {
  Constraint,
  Job,
  JsonObject,
  ReschedulePolicy,
  Resources,
  RestartPolicy,
  Task,
  TaskGroup,
  UpdateStrategy,
} from './types.js';

/** Nanoseconds per unit. */
export const NS = { ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 } as const;

/** The job types the scheduler knows. */
export const JOB_TYPES = ['service', 'batch', 'sysbatch', 'system'] as const;

/** Constraint operands the scheduler evaluates. */
export const OPERANDS = [
  '=',
  '==',
  'is',
  '!=',
  'not',
  '>',
  '>=',
  '<',
  '<=',
  'regexp',
  'version',
  'semver',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
  'is_set',
  'is_not_set',
  'distinct_hosts',
  'distinct_property',
] as const;

const obj = (v: unknown): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);
const bool = (v: unknown, d: boolean): boolean => (typeof v === 'boolean' ? v : d);
const strMap = (v: unknown): Record<string, string> | null => {
  const o = obj(v);
  if (!o) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o)) out[k] = typeof x === 'string' ? x : JSON.stringify(x);
  return out;
};
const arr = <T>(v: unknown): T[] | null => (Array.isArray(v) ? (v as T[]) : null);

/** Default restart policy of a job type (service: 2 in 30m, delay 15s, fail; batch: 3 in 24h). */
export function defaultRestartPolicy(type: string): RestartPolicy {
  return type === 'batch' || type === 'sysbatch'
    ? { Attempts: 3, Interval: 24 * NS.h, Delay: 15 * NS.s, Mode: 'fail', RenderTemplates: false }
    : { Attempts: 2, Interval: 30 * NS.m, Delay: 15 * NS.s, Mode: 'fail', RenderTemplates: false };
}

/** Default reschedule policy of a job type (service: unlimited, exponential 30s..1h; batch: 1 in 24h). */
export function defaultReschedulePolicy(type: string): ReschedulePolicy | null {
  if (type === 'service')
    return {
      Attempts: 0,
      Interval: 0,
      Delay: 30 * NS.s,
      DelayFunction: 'exponential',
      MaxDelay: NS.h,
      Unlimited: true,
    };
  if (type === 'batch')
    return {
      Attempts: 1,
      Interval: 24 * NS.h,
      Delay: 5 * NS.s,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    };
  return null;
}

/** Defaults of an update block. */
export const DEFAULT_UPDATE: UpdateStrategy = {
  Stagger: 30 * NS.s,
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * NS.s,
  HealthyDeadline: 5 * NS.m,
  ProgressDeadline: 10 * NS.m,
  AutoRevert: false,
  AutoPromote: false,
  Canary: 0,
};

function update(v: unknown, base: UpdateStrategy): UpdateStrategy {
  const o = obj(v) ?? {};
  return {
    Stagger: num(o['Stagger'], base.Stagger),
    MaxParallel: num(o['MaxParallel'], base.MaxParallel),
    HealthCheck: str(o['HealthCheck'], base.HealthCheck),
    MinHealthyTime: num(o['MinHealthyTime'], base.MinHealthyTime),
    HealthyDeadline: num(o['HealthyDeadline'], base.HealthyDeadline),
    ProgressDeadline: num(o['ProgressDeadline'], base.ProgressDeadline),
    AutoRevert: bool(o['AutoRevert'], base.AutoRevert),
    AutoPromote: bool(o['AutoPromote'], base.AutoPromote),
    Canary: num(o['Canary'], base.Canary),
  };
}

function constraints(v: unknown): Constraint[] | null {
  const a = arr<unknown>(v);
  if (!a) return null;
  return a.map((c) => {
    const o = obj(c) ?? {};
    return {
      LTarget: str(o['LTarget'], ''),
      RTarget: str(o['RTarget'], ''),
      Operand: str(o['Operand'], '='),
    };
  });
}

function restart(v: unknown, base: RestartPolicy): RestartPolicy {
  const o = obj(v) ?? {};
  return {
    Attempts: num(o['Attempts'], base.Attempts),
    Interval: num(o['Interval'], base.Interval),
    Delay: num(o['Delay'], base.Delay),
    Mode: str(o['Mode'], base.Mode),
    RenderTemplates: bool(o['RenderTemplates'], base.RenderTemplates ?? false),
  };
}

function reschedule(v: unknown, base: ReschedulePolicy | null): ReschedulePolicy | null {
  const o = obj(v);
  if (!o) return base;
  const b = base ?? {
    Attempts: 0,
    Interval: 0,
    Delay: 0,
    DelayFunction: 'constant',
    MaxDelay: 0,
    Unlimited: false,
  };
  return {
    Attempts: num(o['Attempts'], b.Attempts),
    Interval: num(o['Interval'], b.Interval),
    Delay: num(o['Delay'], b.Delay),
    DelayFunction: str(o['DelayFunction'], b.DelayFunction),
    MaxDelay: num(o['MaxDelay'], b.MaxDelay),
    Unlimited: bool(o['Unlimited'], b.Unlimited),
  };
}

function resources(v: unknown): Resources {
  const o = obj(v) ?? {};
  const r: Resources = {
    CPU: num(o['CPU'], 100),
    MemoryMB: num(o['MemoryMB'], 300),
    DiskMB: num(o['DiskMB'], 0),
    IOPS: num(o['IOPS'], 0),
    Networks: arr(o['Networks']),
    Devices: arr(o['Devices']),
  };
  if (o['Cores'] !== undefined) r.Cores = num(o['Cores'], 0);
  if (o['MemoryMaxMB'] !== undefined) r.MemoryMaxMB = num(o['MemoryMaxMB'], 0);
  return r;
}

function task(v: unknown, groupRestart: RestartPolicy): Task {
  const o = obj(v) ?? {};
  const lc = obj(o['LogConfig']);
  const life = obj(o['Lifecycle']);
  const dp = obj(o['DispatchPayload']);
  return {
    ...o,
    Name: str(o['Name'], ''),
    Driver: str(o['Driver'], ''),
    User: str(o['User'], ''),
    Config: obj(o['Config']) ?? null,
    Env: strMap(o['Env']),
    Services: arr(o['Services']),
    Templates: arr(o['Templates']),
    Constraints: constraints(o['Constraints']),
    Affinities: arr(o['Affinities']),
    Spreads: arr(o['Spreads']),
    Resources: resources(o['Resources']),
    RestartPolicy: restart(o['RestartPolicy'], groupRestart),
    DispatchPayload: dp ? { File: str(dp['File'], '') } : null,
    Meta: strMap(o['Meta']),
    KillTimeout: num(o['KillTimeout'], 5 * NS.s),
    KillSignal: str(o['KillSignal'], ''),
    Kind: str(o['Kind'], ''),
    LogConfig: {
      Disabled: bool(lc?.['Disabled'], false),
      MaxFiles: num(lc?.['MaxFiles'], 10),
      MaxFileSizeMB: num(lc?.['MaxFileSizeMB'], 10),
    },
    Artifacts: arr(o['Artifacts']),
    Leader: bool(o['Leader'], false),
    Lifecycle: life ? { Hook: str(life['Hook'], ''), Sidecar: bool(life['Sidecar'], false) } : null,
    CSIPluginConfig: o['CSIPluginConfig'] ?? null,
    ScalingPolicies: arr(o['ScalingPolicies']),
    VolumeMounts: arr(o['VolumeMounts']),
    ShutdownDelay: num(o['ShutdownDelay'], 0),
    Secrets: obj(o['Secrets']) ?? null,
  };
}

function group(v: unknown, job: { Type: string; Update: unknown; Reschedule: unknown }): TaskGroup {
  const o = obj(v) ?? {};
  const rp = restart(o['RestartPolicy'], defaultRestartPolicy(job.Type));
  const jobUpdate = obj(job.Update);
  const groupUpdate = obj(o['Update']);
  let upd: UpdateStrategy | null = null;
  if (job.Type === 'service' || job.Type === 'system') {
    if (jobUpdate || groupUpdate) upd = update(groupUpdate, update(jobUpdate, DEFAULT_UPDATE));
    if (upd && upd.MaxParallel <= 0) upd = null;
  }
  const ed = obj(o['EphemeralDisk']);
  const vols = obj(o['Volumes']);
  let volumes: TaskGroup['Volumes'] = null;
  if (vols) {
    volumes = {};
    for (const [name, raw] of Object.entries(vols)) {
      const vo = obj(raw) ?? {};
      volumes[name] = {
        ...vo,
        Name: str(vo['Name'], name),
        Type: str(vo['Type'], 'host'),
        Source: str(vo['Source'], ''),
        ReadOnly: bool(vo['ReadOnly'], false),
        AccessMode: str(vo['AccessMode'], ''),
        AttachmentMode: str(vo['AttachmentMode'], ''),
        PerAlloc: bool(vo['PerAlloc'], false),
      };
    }
  }
  const tasks = (arr<unknown>(o['Tasks']) ?? []).map((t) => task(t, rp));
  return {
    ...o,
    Name: str(o['Name'], ''),
    Count: num(o['Count'], 1),
    Constraints: constraints(o['Constraints']),
    Affinities: arr(o['Affinities']),
    Spreads: arr(o['Spreads']),
    Tasks: tasks,
    RestartPolicy: rp,
    ReschedulePolicy: reschedule(
      o['ReschedulePolicy'],
      reschedule(job.Reschedule, defaultReschedulePolicy(job.Type)),
    ),
    Migrate: obj(o['Migrate']) ?? null,
    Update: upd,
    EphemeralDisk: {
      Sticky: bool(ed?.['Sticky'], false),
      SizeMB: num(ed?.['SizeMB'], 300),
      Migrate: bool(ed?.['Migrate'], false),
    },
    Networks: arr(o['Networks']),
    Services: arr(o['Services']),
    Volumes: volumes,
    Scaling: o['Scaling'] ?? null,
    Meta: strMap(o['Meta']),
    ShutdownDelay: typeof o['ShutdownDelay'] === 'number' ? o['ShutdownDelay'] : null,
    StopAfterClientDisconnect:
      typeof o['StopAfterClientDisconnect'] === 'number' ? o['StopAfterClientDisconnect'] : null,
    MaxClientDisconnect: typeof o['MaxClientDisconnect'] === 'number' ? o['MaxClientDisconnect'] : null,
  };
}

/**
 * Fills every unset field of a submitted job with its default (documented in core/README.md).
 * Pure: returns a new object.
 */
export function canonicalize(input: unknown, options: { region: string; namespace?: string }): Job {
  const o = obj(input) ?? {};
  const type = str(o['Type'], 'service');
  const id = str(o['ID'], '');
  const periodic = obj(o['Periodic']);
  const param = obj(o['ParameterizedJob']);
  const jobLevel = { Type: type, Update: o['Update'], Reschedule: o['Reschedule'] };
  return {
    ...o,
    Region: str(o['Region'], options.region) || options.region,
    Namespace: str(o['Namespace'], '') || options.namespace || 'default',
    ID: id,
    ParentID: str(o['ParentID'], ''),
    Name: str(o['Name'], '') || id,
    Type: type,
    Priority: num(o['Priority'], 50),
    AllAtOnce: bool(o['AllAtOnce'], false),
    Datacenters: (arr<string>(o['Datacenters']) ?? ['*']).map(String),
    NodePool: str(o['NodePool'], '') || 'default',
    Constraints: constraints(o['Constraints']),
    Affinities: arr(o['Affinities']),
    Spreads: arr(o['Spreads']),
    TaskGroups: (arr<unknown>(o['TaskGroups']) ?? []).map((g) => group(g, jobLevel)),
    Update: obj(o['Update']) ? update(o['Update'], DEFAULT_UPDATE) : null,
    Migrate: obj(o['Migrate']) ?? null,
    Reschedule: obj(o['Reschedule']) ? reschedule(o['Reschedule'], defaultReschedulePolicy(type)) : null,
    Periodic: periodic
      ? {
          Enabled: bool(periodic['Enabled'], true),
          Spec: str(periodic['Spec'], ''),
          SpecType: str(periodic['SpecType'], 'cron'),
          ProhibitOverlap: bool(periodic['ProhibitOverlap'], false),
          TimeZone: str(periodic['TimeZone'], 'UTC'),
        }
      : null,
    ParameterizedJob: param
      ? {
          Payload: str(param['Payload'], '') || 'optional',
          MetaRequired: arr<string>(param['MetaRequired']),
          MetaOptional: arr<string>(param['MetaOptional']),
        }
      : null,
    Payload: typeof o['Payload'] === 'string' ? o['Payload'] : null,
    Multiregion: o['Multiregion'] ?? null,
    Meta: strMap(o['Meta']),
    Dispatched: bool(o['Dispatched'], false),
    DispatchIdempotencyToken: str(o['DispatchIdempotencyToken'], ''),
    Stop: bool(o['Stop'], false),
    Stable: bool(o['Stable'], false),
    Version: num(o['Version'], 0),
    SubmitTime: num(o['SubmitTime'], 0),
    Status: str(o['Status'], ''),
    StatusDescription: str(o['StatusDescription'], ''),
    CreateIndex: num(o['CreateIndex'], 0),
    ModifyIndex: num(o['ModifyIndex'], 0),
    JobModifyIndex: num(o['JobModifyIndex'], 0),
    MeshToken: str(o['MeshToken'], ''),
    SecretsToken: str(o['SecretsToken'], ''),
    SvcTokenID: str(o['SvcTokenID'], ''),
    SecretsNamespace: str(o['SecretsNamespace'], ''),
  };
}

/** Problems that make a (canonicalized) job unschedulable, as sentences. */
export function jobProblems(job: Job): string[] {
  const p: string[] = [];
  if (job.ID === '') p.push('Missing job ID.');
  else {
    if (/\s/.test(job.ID)) p.push(`Job ID "${job.ID}" contains a space.`);
    if (job.ID.includes('\u0000')) p.push(`Job ID contains a null character.`);
    if (job.ID.length > 128) p.push(`Job ID must be at most 128 characters, got ${job.ID.length}.`);
  }
  if (!(JOB_TYPES as readonly string[]).includes(job.Type))
    p.push(`Invalid job type "${job.Type}": expected one of service, batch, sysbatch, system.`);
  if (!Number.isInteger(job.Priority) || job.Priority < 1 || job.Priority > 100)
    p.push(`Job priority must be between [1, 100], got ${job.Priority}.`);
  if (job.Datacenters.length === 0) p.push('Missing job datacenters.');
  if (job.TaskGroups.length === 0) p.push('Missing job task groups.');
  checkConstraints(job.Constraints, 'Job', p);
  if (job.ParameterizedJob && !['optional', 'required', 'forbidden'].includes(job.ParameterizedJob.Payload))
    p.push(
      `Parameterized job payload "${job.ParameterizedJob.Payload}" is invalid: expected optional, required or forbidden.`,
    );
  if (job.Periodic && job.Periodic.Enabled && job.Periodic.Spec.trim() === '')
    p.push('Periodic job must have a spec.');
  else if (job.Periodic && job.Periodic.SpecType !== 'cron')
    p.push(`Periodic spec type "${job.Periodic.SpecType}" is not supported: expected cron.`);
  else if (job.Periodic) {
    try {
      parseCron(job.Periodic.Spec);
    } catch (error) {
      p.push(`Periodic job has an invalid cron spec "${job.Periodic.Spec}": ${(error as Error).message}.`);
    }
  }
  const groups = new Set<string>();
  job.TaskGroups.forEach((g, gi) => {
    const where = g.Name ? `Task group "${g.Name}"` : `Task group ${gi + 1}`;
    if (g.Name === '') p.push(`${where} is missing a name.`);
    else if (groups.has(g.Name)) p.push(`${where} is defined more than once.`);
    groups.add(g.Name);
    if (!Number.isInteger(g.Count) || g.Count < 0)
      p.push(`${where} count must be a non-negative integer, got ${g.Count}.`);
    if (g.Tasks.length === 0) p.push(`${where} has no tasks.`);
    checkConstraints(g.Constraints, where, p);
    if (!['fail', 'delay'].includes(g.RestartPolicy.Mode))
      p.push(`${where} restart policy mode "${g.RestartPolicy.Mode}" is invalid: expected fail or delay.`);
    if (
      g.ReschedulePolicy &&
      !['constant', 'exponential', 'fibonacci'].includes(g.ReschedulePolicy.DelayFunction)
    )
      p.push(
        `${where} reschedule delay function "${g.ReschedulePolicy.DelayFunction}" is invalid: expected constant, exponential or fibonacci.`,
      );
    if (g.Update && g.Update.Canary > 0 && job.Type !== 'service')
      p.push(`${where} may only use canaries in a service job.`);
    const tasks = new Set<string>();
    let leaders = 0;
    g.Tasks.forEach((t, ti) => {
      const tw = t.Name ? `${where} task "${t.Name}"` : `${where} task ${ti + 1}`;
      if (t.Name === '') p.push(`${tw} is missing a name.`);
      else if (tasks.has(t.Name)) p.push(`${tw} is defined more than once.`);
      else if (/[/\\]|\.\./.test(t.Name)) p.push(`${tw} name must not contain a path separator.`);
      tasks.add(t.Name);
      if (t.Driver === '') p.push(`${tw} is missing a driver.`);
      if (t.Leader) leaders++;
      if (t.Resources.CPU < 1) p.push(`${tw} CPU must be at least 1 MHz, got ${t.Resources.CPU}.`);
      if (t.Resources.MemoryMB < 10)
        p.push(`${tw} memory must be at least 10 MB, got ${t.Resources.MemoryMB}.`);
      checkConstraints(t.Constraints, tw, p);
      if (t.RestartPolicy && !['fail', 'delay'].includes(t.RestartPolicy.Mode))
        p.push(`${tw} restart policy mode "${t.RestartPolicy.Mode}" is invalid: expected fail or delay.`);
    });
    if (leaders > 1) p.push(`${where} has more than one leader task.`);
  });
  return p;
}

function checkConstraints(list: Constraint[] | null, where: string, p: string[]): void {
  for (const c of list ?? []) {
    if (!(OPERANDS as readonly string[]).includes(c.Operand))
      p.push(`${where} constraint operand "${c.Operand}" is not supported.`);
    else if (c.Operand === 'regexp') {
      try {
        new RegExp(c.RTarget);
      } catch {
        p.push(`${where} constraint regular expression "${c.RTarget}" does not compile.`);
      }
    }
  }
}

/** Canonicalizes and validates a submitted job; throws a 400 ClusterError listing every problem. */
export function prepareJob(input: unknown, options: { region: string; namespace?: string }): Job {
  const job = canonicalize(input, options);
  const problems = jobProblems(job);
  if (problems.length > 0) throw badRequest(`Job validation failed: ${problems.join(' ')}`);
  return job;
}
