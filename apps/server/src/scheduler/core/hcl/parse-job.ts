import { formatProblems, nullRecord, SchedulerJobInput, setOwn, validate } from '@sked/model';
import { canonicalize } from '../defaults.js';
import { badRequest } from '../errors.js';
import type { Job } from '../types.js';
import { convertBody } from './convert.js';
import { resolve, type Scope } from './expressions.js';
import { isObj, merged, type Obj } from './json.js';
import { parseHcl, parseVarValue } from './parser.js';
import { unsafeIntegers } from './unsafe-integers.js';

/** Input of the parse endpoint (already validated). */
export interface ParseJobInput {
  /** The job text in HCL2. */
  readonly hcl: string;
  /** Fill unset fields with defaults. @defaultValue false */
  readonly canonicalize?: boolean;
  /** Variables in var-file format (`name = "value"` lines, HCL2). @defaultValue '' */
  readonly variables?: string;
  /** Variables as key = value strings (like `-var` flags); they win over `variables`. */
  readonly variableFlags?: Readonly<Record<string, string>>;
  /** Use the legacy parser: not supported, always a 400. @defaultValue false */
  readonly hclV1?: boolean;
  /** Namespace of the request (used when the job names none). @defaultValue 'default' */
  readonly namespace?: string;
}

/**
 * A job file's fields as written (API casing, variables and locals resolved): what the parse
 * endpoint returns without `canonicalize`. Not checked against the model and not defaulted, like
 * the reference service's parse without canonicalisation.
 */
export type ParsedJobFile = Obj;

/**
 * Parses HCL2 job text into a Job with the reference HCL library (compiled to WebAssembly, through
 * `@cdktf/hcl2json`), then maps blocks and attributes onto the Job's fields. With `canonicalize`
 * the result is checked against the model's job input and defaulted (a canonical {@link Job});
 * without it, the file's fields as written ({@link ParsedJobFile}).
 * @throws a 400 ClusterError with the parser's position (`job.hcl:3,7-8: ...`) for bad HCL, for
 *   unknown variables, unsupported expressions and invalid durations, for `hclV1`, and (with
 *   `canonicalize`) for a field the model refuses.
 */
export async function parseJobHcl(
  input: ParseJobInput & { readonly canonicalize: true },
  options: { region: string },
): Promise<Job>;
export async function parseJobHcl(
  input: ParseJobInput,
  options: { region: string },
): Promise<Job | ParsedJobFile>;
export async function parseJobHcl(
  input: ParseJobInput,
  options: { region: string },
): Promise<Job | ParsedJobFile> {
  if (input.hclV1)
    throw badRequest(
      'The HCLv1 (legacy) job parser is not supported by this server: submit the job in HCL2 with HCLv1 false.',
    );
  if (input.hcl.trim() === '') throw badRequest('JobHCL is empty: expected the text of a job file.');
  const root = await parseHcl('job.hcl', input.hcl);
  // Variables: defaults < var-file content < flags.
  const declared: Obj = nullRecord();
  const varBlocks = isObj(root['variable']) ? root['variable'] : {};
  for (const [name, bodies] of Object.entries(varBlocks)) {
    const body = merged(Array.isArray(bodies) ? bodies : [bodies]);
    setOwn(declared, name, body['default']);
  }
  const vars: Obj = nullRecord(Object.entries(declared));
  if (input.variables && input.variables.trim() !== '') {
    const file = await parseHcl('variables.hcl', input.variables);
    for (const [k, v] of Object.entries(file)) {
      if (!Object.hasOwn(declared, k))
        throw badRequest(
          `Variable "${k}" set in Variables is not declared in the job: declare it with a variable block.`,
        );
      setOwn(vars, k, v);
    }
  }
  for (const [k, v] of Object.entries(input.variableFlags ?? {})) {
    if (!Object.hasOwn(declared, k))
      throw badRequest(
        `Variable "${k}" set in VariableFlags is not declared in the job: declare it with a variable block.`,
      );
    const kind = typeof declared[k];
    setOwn(vars, k, kind === 'number' || kind === 'boolean' ? parseVarValue(v) : v);
  }
  for (const [k, v] of Object.entries(vars))
    if (v === undefined)
      throw badRequest(
        `Required variable "${k}" is not set: give it a default, or set it in Variables or VariableFlags.`,
      );
  const scope: Scope = { vars, locals: nullRecord() };
  const localsBlocks = Array.isArray(root['locals'])
    ? root['locals']
    : isObj(root['locals'])
      ? [root['locals']]
      : [];
  for (const l of localsBlocks.filter(isObj))
    for (const [k, v] of Object.entries(l)) setOwn(scope.locals, k, resolve(v, scope, `locals.${k}`));

  const jobs = isObj(root['job']) ? root['job'] : undefined;
  const names = jobs ? Object.keys(jobs) : [];
  if (!jobs || names.length === 0)
    throw badRequest('The job file has no job block: expected job "<name>" { ... }.');
  if (names.length > 1)
    throw badRequest(
      `The job file has ${names.length} job blocks (${names.map((n) => `"${n}"`).join(', ')}): expected exactly one.`,
    );
  const id = names[0] as string;
  const bodies = jobs[id];
  const bodyList = (Array.isArray(bodies) ? bodies : [bodies]).filter(isObj);
  if (bodyList.length !== 1) throw badRequest(`The job "${id}" is defined more than once.`);
  const body = resolve(bodyList[0], scope, `job["${id}"]`) as Obj;
  if (body['task'] !== undefined)
    throw badRequest(`Job "${id}" has a task outside of a group: put each task in a group block.`);
  const converted = convertBody(body, 'job', `job["${id}"]`);
  // At the job level the reschedule block is Reschedule, not ReschedulePolicy.
  if (converted['ReschedulePolicy'] !== undefined) {
    converted['Reschedule'] = converted['ReschedulePolicy'];
    delete converted['ReschedulePolicy'];
  }
  const job: Obj = { ID: id, Name: id, ...converted };
  if (typeof body['name'] === 'string') job['Name'] = body['name'];
  if (job['Namespace'] === undefined && input.namespace !== undefined && input.namespace !== 'default')
    job['Namespace'] = input.namespace;
  const unsafe = unsafeIntegers(job);
  if (unsafe.length > 0)
    throw badRequest(`The job file does not describe a valid job: ${formatProblems(unsafe)}`);
  if (!input.canonicalize) return job;
  // The job file is this edge's input: checked once against the model (a job file may be `system`).
  const checked = validate(SchedulerJobInput, job);
  if (!checked.ok)
    throw badRequest(`The job file does not describe a valid job: ${formatProblems(checked.problems)}`);
  return canonicalize(checked.value, { region: options.region, namespace: input.namespace ?? 'default' });
}
