/**
 * Semantic validation of a canonicalized job: what makes a job that matches the schema unschedulable
 * (duplicate names, a priority out of range, an unknown constraint operand, a cron spec that does not
 * parse, ...), each problem at its path with the sentence the scheduling service answers.
 *
 * @packageDocumentation
 */
import type { Static } from 'typebox';

import { ConstraintOperands } from './constraint.js';
import { cronProblem } from './cron.js';
import { timeZoneProblem } from './time-zone.js';
import { ValidationError } from './errors.js';
import { JobShape } from './internal/job-shape.js';
import type { SchedulerJob } from './job.js';
import { JobType, SchedulerJobType } from './job-types.js';
import { hasControlCharacter, namespaceNameProblem, pathEscapesTaskDir } from './names.js';
import { matches, validate, type ValidationProblem } from './validate.js';

type Shape = Static<typeof JobShape>;
type ConstraintList = Shape['Constraints'];

const JOB_TYPES: readonly string[] = Object.values(SchedulerJobType);
const OPERANDS: readonly string[] = ConstraintOperands;
const RESTART_MODES: readonly string[] = ['fail', 'delay'];
const DELAY_FUNCTIONS: readonly string[] = ['constant', 'exponential', 'fibonacci'];
const PAYLOADS: readonly string[] = ['optional', 'required', 'forbidden'];

/**
 * Every problem that makes a canonicalized job unschedulable, in the order the scheduling service lists
 * them. `path` is the JSON Pointer of the offending field (`/TaskGroups/0/Tasks/1/Resources/MemoryMB`;
 * `formatProblems` prints it as `TaskGroups[0].Tasks[1].Resources.MemoryMB`), `message` the service's
 * sentence (`Task group "web" task "server" memory must be at least 10 MB, got 5.`). The service answers a
 * job with problems with a 400 `Job validation failed: ` followed by the messages joined by spaces.
 *
 * Checked: the job ID (present, no whitespace, null or other control character, at most 128 characters), the
 * namespace name (letters, digits and `-`, 1-128 characters: {@link namespaceNameProblem}), the type (one of
 * {@link SchedulerJobType}), the priority (an integer in [1, 100]), at least one task group; every
 * constraint's operand (one of {@link ConstraintOperands}) and that a `regexp` one compiles; the
 * parameterized payload (`optional`, `required` or `forbidden`); the periodic spec (present, of type
 * `cron`, parsed by {@link parseCron}) and time zone ({@link timeZoneProblem}); per group a unique non-empty name, a non-negative integer count, at
 * least one task, restart mode `fail` or `delay`, reschedule delay function `constant`, `exponential` or
 * `fibonacci`, canaries only in a service job, at most one leader task; per task a unique non-empty name
 * without a path separator, `..` or control character, a driver, at least 1 MHz of CPU and 10 MB of memory,
 * and host paths that stay inside the task directory ({@link pathEscapesTaskDir}: the dispatch payload
 * file, template and artifact destinations, volume mount destinations), with the service's message
 * `destination escapes allocation directory`. Group names hold no control character.
 *
 * Pure: reads the job, never changes it.
 *
 * @param job - A job as {@link canonicalizeJob} returns it (or as a server stores it).
 * @returns The problems; empty when the job can be scheduled.
 * @throws {@link ValidationError} (subject `the job`) when `job` is not a canonicalized job at all (for
 * example a field the checks read is missing or of the wrong JSON type); its problems say where.
 * @example
 * ```ts
 * const job = canonicalizeJob({ ID: 'web', Priority: 50, TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] });
 * jobProblems({ ...job, Priority: 0 });
 * // [{ path: '/Priority', message: 'Job priority must be between [1, 100], got 0.' }]
 * ```
 * @since 0.2.0
 */
export function jobProblems(job: SchedulerJob): readonly ValidationProblem[] {
  if (!matches(JobShape, job)) {
    const result = validate(JobShape, job);
    const problems = result.ok ? [{ path: '', message: 'could not be read' }] : result.problems;
    throw new ValidationError('the job', problems);
  }
  const checked: Shape = job;
  const out: ValidationProblem[] = [];
  const add = (path: string, message: string): void => {
    out.push({ path, message });
  };
  jobFields(checked, add);
  const groups = new Set<string>();
  checked.TaskGroups.forEach((group, gi) => {
    groupProblems(checked, group, `/TaskGroups/${gi}`, gi, groups, add);
  });
  return out;
}

type Add = (path: string, message: string) => void;
type Group = Shape['TaskGroups'][number];

function jobFields(job: Shape, add: Add): void {
  if (job.ID === '') add('/ID', 'Missing job ID.');
  else {
    if (/\s/.test(job.ID)) add('/ID', `Job ID "${job.ID}" contains a space.`);
    if (job.ID.includes('\u0000')) add('/ID', `Job ID contains a null character.`);
    else if (hasControlCharacter(job.ID) && !/\s/.test(job.ID))
      add('/ID', `Job ID ${JSON.stringify(job.ID)} contains a control character.`);
    if (job.ID.length > 128) add('/ID', `Job ID must be at most 128 characters, got ${job.ID.length}.`);
  }
  const namespace = job.Namespace === undefined ? undefined : namespaceNameProblem(job.Namespace);
  if (namespace !== undefined) add('/Namespace', namespace);
  if (!JOB_TYPES.includes(job.Type))
    add('/Type', `Invalid job type "${job.Type}": expected one of service, batch, sysbatch, system.`);
  if (!Number.isInteger(job.Priority) || job.Priority < 1 || job.Priority > 100)
    add('/Priority', `Job priority must be between [1, 100], got ${job.Priority}.`);
  if (job.TaskGroups.length === 0) add('/TaskGroups', 'Missing job task groups.');
  constraintProblems(job.Constraints, '', 'Job', add);
  const parameterized = job.ParameterizedJob;
  if (parameterized && !PAYLOADS.includes(parameterized.Payload))
    add(
      '/ParameterizedJob/Payload',
      `Parameterized job payload "${parameterized.Payload}" is invalid: expected optional, required or forbidden.`,
    );
  const periodic = job.Periodic;
  if (periodic && periodic.Enabled && periodic.Spec.trim() === '')
    add('/Periodic/Spec', 'Periodic job must have a spec.');
  else if (periodic && periodic.SpecType !== 'cron')
    add('/Periodic/SpecType', `Periodic spec type "${periodic.SpecType}" is not supported: expected cron.`);
  else if (periodic) {
    const reason = cronProblem(periodic.Spec);
    if (reason !== undefined)
      add('/Periodic/Spec', `Periodic job has an invalid cron spec "${periodic.Spec}": ${reason}.`);
  }
  const zone = periodic?.TimeZone === undefined ? undefined : timeZoneProblem(periodic.TimeZone);
  if (zone !== undefined)
    add('/Periodic/TimeZone', `Periodic job has an invalid Periodic.TimeZone: ${zone}.`);
}

function groupProblems(job: Shape, g: Group, at: string, gi: number, names: Set<string>, add: Add): void {
  const where = g.Name ? `Task group "${g.Name}"` : `Task group ${gi + 1}`;
  if (g.Name === '') add(`${at}/Name`, `${where} is missing a name.`);
  else if (hasControlCharacter(g.Name)) add(`${at}/Name`, `${where} name contains a control character.`);
  else if (names.has(g.Name)) add(`${at}/Name`, `${where} is defined more than once.`);
  names.add(g.Name);
  if (!Number.isInteger(g.Count) || g.Count < 0)
    add(`${at}/Count`, `${where} count must be a non-negative integer, got ${g.Count}.`);
  if (g.Tasks.length === 0) add(`${at}/Tasks`, `${where} has no tasks.`);
  constraintProblems(g.Constraints, at, where, add);
  if (g.RestartPolicy && !RESTART_MODES.includes(g.RestartPolicy.Mode))
    add(
      `${at}/RestartPolicy/Mode`,
      `${where} restart policy mode "${g.RestartPolicy.Mode}" is invalid: expected fail or delay.`,
    );
  if (g.ReschedulePolicy && !DELAY_FUNCTIONS.includes(g.ReschedulePolicy.DelayFunction))
    add(
      `${at}/ReschedulePolicy/DelayFunction`,
      `${where} reschedule delay function "${g.ReschedulePolicy.DelayFunction}" is invalid: expected constant, exponential or fibonacci.`,
    );
  if (g.Update && g.Update.Canary > 0 && job.Type !== JobType.Service)
    add(`${at}/Update/Canary`, `${where} may only use canaries in a service job.`);
  const tasks = new Set<string>();
  let leaders = 0;
  let secondLeader = -1;
  g.Tasks.forEach((t, ti) => {
    const tat = `${at}/Tasks/${ti}`;
    const tw = t.Name ? `${where} task "${t.Name}"` : `${where} task ${ti + 1}`;
    if (t.Name === '') add(`${tat}/Name`, `${tw} is missing a name.`);
    else if (tasks.has(t.Name)) add(`${tat}/Name`, `${tw} is defined more than once.`);
    else if (/[/\\]|\.\./.test(t.Name)) add(`${tat}/Name`, `${tw} name must not contain a path separator.`);
    else if (hasControlCharacter(t.Name)) add(`${tat}/Name`, `${tw} name contains a control character.`);
    tasks.add(t.Name);
    taskPathProblems(t, tat, tw, add);
    if (t.Driver === '') add(`${tat}/Driver`, `${tw} is missing a driver.`);
    if (t.Leader === true && ++leaders === 2) secondLeader = ti;
    if (t.Resources.CPU < 1)
      add(`${tat}/Resources/CPU`, `${tw} CPU must be at least 1 MHz, got ${t.Resources.CPU}.`);
    if (t.Resources.MemoryMB < 10)
      add(`${tat}/Resources/MemoryMB`, `${tw} memory must be at least 10 MB, got ${t.Resources.MemoryMB}.`);
    constraintProblems(t.Constraints, tat, tw, add);
    if (t.RestartPolicy && !RESTART_MODES.includes(t.RestartPolicy.Mode))
      add(
        `${tat}/RestartPolicy/Mode`,
        `${tw} restart policy mode "${t.RestartPolicy.Mode}" is invalid: expected fail or delay.`,
      );
  });
  if (leaders > 1) add(`${at}/Tasks/${secondLeader}/Leader`, `${where} has more than one leader task.`);
}

function constraintProblems(list: ConstraintList, at: string, where: string, add: Add): void {
  (list ?? []).forEach((c, i) => {
    if (!OPERANDS.includes(c.Operand))
      add(`${at}/Constraints/${i}/Operand`, `${where} constraint operand "${c.Operand}" is not supported.`);
    else if (c.Operand === 'regexp') {
      try {
        new RegExp(c.RTarget);
      } catch {
        add(
          `${at}/Constraints/${i}/RTarget`,
          `${where} constraint regular expression "${c.RTarget}" does not compile.`,
        );
      }
    }
  });
}

type Task = Group['Tasks'][number];

/**
 * The host paths a task names (dispatch payload file, template and artifact destinations, volume
 * mount destinations) must stay inside the task directory, in the service's words.
 */
function taskPathProblems(t: Task, at: string, where: string, add: Add): void {
  const escapes = 'destination escapes allocation directory';
  const file = t.DispatchPayload?.File;
  if (file !== undefined && file !== '' && pathEscapesTaskDir('local', file))
    add(
      `${at}/DispatchPayload/File`,
      `${where} dispatch payload validation failed: ${escapes} (${JSON.stringify(file)}).`,
    );
  const lists = [
    ['Templates', 'DestPath', 'template'],
    ['Artifacts', 'RelativeDest', 'artifact'],
    ['VolumeMounts', 'Destination', 'volume mount'],
  ] as const;
  for (const [list, field, label] of lists) {
    (t[list] ?? []).forEach((item, i) => {
      const path = (item as Readonly<Record<string, string | undefined>>)[field];
      if (path !== undefined && pathEscapesTaskDir('', path))
        add(
          `${at}/${list}/${i}/${field}`,
          `${where} ${label} ${i + 1} validation failed: ${escapes} (${JSON.stringify(path)}).`,
        );
    });
  }
}
