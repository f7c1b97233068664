import { createRequire } from 'node:module';

import { canonicalize } from './defaults.js';
import { badRequest } from './errors.js';
import { parseDuration } from './internal/duration.js';
import type { Job } from './types.js';

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

type Json = unknown;
type Obj = Record<string, Json>;

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields whose HCL value is a duration string turned into nanoseconds. */
const DURATIONS = new Set([
  'interval',
  'delay',
  'max_delay',
  'min_healthy_time',
  'healthy_deadline',
  'progress_deadline',
  'stagger',
  'kill_timeout',
  'shutdown_delay',
  'stop_after_client_disconnect',
  'max_client_disconnect',
  'timeout',
  'splay',
  'check_restart_grace',
]);

/** Per-context renames of HCL attribute names to Job field names (the rest: snake_case -> PascalCase). */
const RENAMES: Record<string, Record<string, string>> = {
  '*': {
    datacenters: 'Datacenters',
    node_pool: 'NodePool',
    id: 'ID',
    cpu: 'CPU',
    memory: 'MemoryMB',
    memory_max: 'MemoryMaxMB',
    disk: 'DiskMB',
    iops: 'IOPS',
    mbits: 'MBits',
    dns: 'DNS',
    cidr: 'CIDR',
    ip: 'IP',
  },
  ephemeral_disk: { size: 'SizeMB' },
  logs: { max_files: 'MaxFiles', max_file_size: 'MaxFileSizeMB' },
  artifact: {
    source: 'GetterSource',
    options: 'GetterOptions',
    destination: 'RelativeDest',
    mode: 'GetterMode',
  },
  template: { data: 'EmbeddedTmpl', destination: 'DestPath', source: 'SourcePath', perms: 'Perms' },
  service: { port: 'PortLabel' },
  check: { port: 'PortLabel' },
};

/** HCL block names and the Job fields they become (lists unless noted). */
const BLOCKS: Record<string, { field: string; kind: 'list' | 'one' | 'map' | 'raw' | 'strmap' }> = {
  constraint: { field: 'Constraints', kind: 'list' },
  affinity: { field: 'Affinities', kind: 'list' },
  spread: { field: 'Spreads', kind: 'list' },
  group: { field: 'TaskGroups', kind: 'list' },
  task: { field: 'Tasks', kind: 'list' },
  restart: { field: 'RestartPolicy', kind: 'one' },
  reschedule: { field: 'ReschedulePolicy', kind: 'one' },
  update: { field: 'Update', kind: 'one' },
  migrate: { field: 'Migrate', kind: 'one' },
  ephemeral_disk: { field: 'EphemeralDisk', kind: 'one' },
  network: { field: 'Networks', kind: 'list' },
  service: { field: 'Services', kind: 'list' },
  check: { field: 'Checks', kind: 'list' },
  volume: { field: 'Volumes', kind: 'map' },
  volume_mount: { field: 'VolumeMounts', kind: 'list' },
  template: { field: 'Templates', kind: 'list' },
  artifact: { field: 'Artifacts', kind: 'list' },
  logs: { field: 'LogConfig', kind: 'one' },
  lifecycle: { field: 'Lifecycle', kind: 'one' },
  dispatch_payload: { field: 'DispatchPayload', kind: 'one' },
  resources: { field: 'Resources', kind: 'one' },
  periodic: { field: 'Periodic', kind: 'one' },
  parameterized: { field: 'ParameterizedJob', kind: 'one' },
  meta: { field: 'Meta', kind: 'strmap' },
  env: { field: 'Env', kind: 'strmap' },
  config: { field: 'Config', kind: 'raw' },
  options: { field: 'GetterOptions', kind: 'strmap' },
  port: { field: 'Ports', kind: 'list' },
  scaling: { field: 'Scaling', kind: 'one' },
};

const pascal = (s: string): string =>
  s
    .split('_')
    .map((p) => (p === '' ? '' : p[0]?.toUpperCase() + p.slice(1)))
    .join('');

interface Scope {
  vars: Obj;
  locals: Obj;
}

/** A tiny evaluator for the expressions hcl2json leaves as `${...}` text. */
function evalExpr(src: string, scope: Scope, where: string): Json {
  const tokens = src.match(/\s*(\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|[A-Za-z_][\w.-]*|\*\*|[-+*/%()])\s*/gy);
  const joined = (tokens ?? []).join('');
  if (tokens === null || joined.length !== src.length) throw new UnsupportedExpression(src);
  let i = 0;
  let depth = 0;
  const toks = tokens.map((t) => t.trim());
  const peek = (): string | undefined => toks[i];
  const primary = (): Json => {
    const t = toks[i++];
    if (t === undefined) throw new UnsupportedExpression(src);
    if (t === '(') {
      if (++depth > 64) throw badRequest(`Expression at ${where} is nested more than 64 levels deep.`);
      const v = sum();
      depth--;
      if (toks[i++] !== ')') throw new UnsupportedExpression(src);
      return v;
    }
    if (t === '-') {
      if (++depth > 64) throw badRequest(`Expression at ${where} is nested more than 64 levels deep.`);
      const v = -(primary() as number);
      depth--;
      return v;
    }
    if (/^\d/.test(t)) return Number(t);
    if (t.startsWith('"')) return JSON.parse(t) as string;
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (t.startsWith('var.')) {
      const name = t.slice(4);
      if (!(name in scope.vars))
        throw badRequest(
          `Unknown variable "${name}" referenced at ${where}: declare it with a variable block.`,
        );
      return scope.vars[name];
    }
    if (t.startsWith('local.')) {
      const name = t.slice(6);
      if (!(name in scope.locals)) throw badRequest(`Unknown local value "${name}" referenced at ${where}.`);
      return scope.locals[name];
    }
    throw new UnsupportedExpression(src);
  };
  const product = (): Json => {
    let v = primary();
    while (peek() === '*' || peek() === '/' || peek() === '%') {
      const op = toks[i++];
      const r = primary() as number;
      v = op === '*' ? (v as number) * r : op === '/' ? (v as number) / r : (v as number) % r;
    }
    return v;
  };
  const sum = (): Json => {
    let v = product();
    while (peek() === '+' || peek() === '-') {
      const op = toks[i++];
      const r = product() as number;
      v = op === '+' ? (v as number) + r : (v as number) - r;
    }
    return v;
  };
  const v = sum();
  if (i !== toks.length) throw new UnsupportedExpression(src);
  return v;
}

class UnsupportedExpression extends Error {}

/** Runtime interpolations the job parser leaves for the client (`${attr.x}`, `${node.x}`, `${meta.x}`, `${SKED_*}`-style env). */
const RUNTIME = /^\s*(attr|node|meta|env|device|unique|SKED_)/;

function interpolate(value: string, scope: Scope, where: string): Json {
  const whole = /^\$\{([^{}]*)\}$/.exec(value);
  if (whole) {
    const inner = whole[1] ?? '';
    if (RUNTIME.test(inner)) return value;
    try {
      return evalExpr(inner, scope, where);
    } catch (error) {
      if (error instanceof UnsupportedExpression)
        throw badRequest(
          `Unsupported expression "${inner.trim()}" at ${where}: only variables (var.x), locals (local.x), literals and arithmetic are evaluated; functions are not supported.`,
        );
      throw error;
    }
  }
  let out = '';
  let rest = value;
  for (;;) {
    const at = rest.indexOf('${');
    if (at < 0) break;
    if (at > 0 && rest[at - 1] === '$') {
      out += rest.slice(0, at - 1) + '${';
      rest = rest.slice(at + 2);
      continue;
    }
    const end = rest.indexOf('}', at);
    if (end < 0) break;
    const inner = rest.slice(at + 2, end);
    out += rest.slice(0, at);
    if (RUNTIME.test(inner)) out += `\${${inner}}`;
    else {
      let v: Json;
      try {
        v = evalExpr(inner, scope, where);
      } catch (error) {
        if (error instanceof UnsupportedExpression)
          throw badRequest(
            `Unsupported expression "${inner.trim()}" at ${where}: only variables (var.x), locals (local.x), literals and arithmetic are evaluated; functions are not supported.`,
          );
        throw error;
      }
      out += typeof v === 'string' ? v : JSON.stringify(v);
    }
    rest = rest.slice(end + 1);
  }
  return out + rest;
}

function resolve(v: Json, scope: Scope, where: string): Json {
  if (typeof v === 'string') return v.includes('${') ? interpolate(v, scope, where) : v;
  if (Array.isArray(v)) return v.map((x, i) => resolve(x, scope, `${where}[${i}]`));
  if (isObj(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, scope, `${where}.${k}`)]));
  return v;
}

function duration(v: Json, where: string): number {
  const ns = parseDuration(v);
  if (ns === undefined)
    throw badRequest(
      `Invalid duration ${JSON.stringify(v)} at ${where}: expected a value such as "30s", "5m" or "1h30m".`,
    );
  return ns;
}

/** Converts one HCL body (already resolved) into Job-shaped fields. */
function convertBody(body: Obj, context: string, where: string): Obj {
  const out: Obj = {};
  for (const [key, raw] of Object.entries(body)) {
    const here = `${where}.${key}`;
    const block = BLOCKS[key];
    if (block && (Array.isArray(raw) || isObj(raw))) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (block.kind === 'raw') {
        out[block.field] = Object.assign({}, ...list.filter(isObj)) as Obj;
      } else if (block.kind === 'strmap') {
        const m: Record<string, string> = {};
        for (const o of list.filter(isObj))
          for (const [k, x] of Object.entries(o)) m[k] = typeof x === 'string' ? x : JSON.stringify(x);
        out[block.field] = m;
      } else if (block.kind === 'one') {
        const o = Object.assign({}, ...list.filter(isObj)) as Obj;
        out[block.field] = convertBody(o, key, here);
      } else if (
        isObj(raw) &&
        !Array.isArray(raw) &&
        (key === 'group' || key === 'task' || key === 'volume' || key === 'port')
      ) {
        // labelled blocks: { name: [body] }
        const items: Obj[] = [];
        for (const [label, bodies] of Object.entries(raw)) {
          const b = Object.assign({}, ...(Array.isArray(bodies) ? bodies : [bodies]).filter(isObj)) as Obj;
          const converted = convertBody(b, key, `${here}["${label}"]`);
          if (key === 'port') converted['Label'] = label;
          else converted['Name'] = label;
          items.push(converted);
        }
        if (block.kind === 'map')
          out[block.field] = Object.fromEntries(items.map((x) => [x['Name'] as string, x]));
        else out[block.field] = [...((out[block.field] as Obj[] | undefined) ?? []), ...items];
      } else {
        const items = list.filter(isObj).map((o, i) => convertBody(o, key, `${here}[${i}]`));
        out[block.field] = key === 'constraint' || key === 'affinity' ? items.map(constraintOf) : items;
      }
      continue;
    }
    const name = RENAMES[context]?.[key] ?? RENAMES['*']?.[key] ?? pascal(key);
    if (Array.isArray(raw) && raw.length > 0 && raw.every(isObj)) {
      // An unknown block (e.g. a `telemetry` block): converted like the known ones, one -> object.
      const items = raw.map((o, i) => convertBody(o, key, `${here}[${i}]`));
      out[name] = items.length === 1 ? items[0] : items;
      continue;
    }
    out[name] = DURATIONS.has(key) ? duration(raw, here) : raw;
  }
  if (context === 'network' && Array.isArray(out['Ports'])) {
    const ports = out['Ports'] as Obj[];
    delete out['Ports'];
    out['ReservedPorts'] = ports
      .filter((p) => p['Static'] !== undefined)
      .map((p) => ({
        Label: p['Label'],
        Value: p['Static'],
        To: p['To'] ?? 0,
        HostNetwork: p['HostNetwork'] ?? '',
      }));
    out['DynamicPorts'] = ports
      .filter((p) => p['Static'] === undefined)
      .map((p) => ({ Label: p['Label'], Value: 0, To: p['To'] ?? 0, HostNetwork: p['HostNetwork'] ?? '' }));
  }
  if (context === 'spread' && isObj(out['Target'])) {
    const targets = out['Target'] as Obj;
    delete out['Target'];
    out['SpreadTarget'] = Object.entries(targets).map(([value, bodies]) => {
      const b = Object.assign({}, ...(Array.isArray(bodies) ? bodies : [bodies]).filter(isObj)) as Obj;
      return { Value: value, Percent: typeof b['percent'] === 'number' ? b['percent'] : 0 };
    });
  }
  if (context === 'periodic') {
    if (out['Cron'] !== undefined) {
      out['Spec'] = out['Cron'];
      delete out['Cron'];
    }
    if (Array.isArray(out['Crons'])) {
      out['Spec'] = (out['Crons'] as string[])[0] ?? '';
      delete out['Crons'];
    }
    out['SpecType'] ??= 'cron';
  }
  if (context === 'parameterized') {
    for (const k of ['MetaRequired', 'MetaOptional']) if (out[k] === undefined) out[k] = null;
  }
  return out;
}

/** Turns a converted constraint/affinity block into LTarget/RTarget/Operand. */
function constraintOf(c: Obj): Obj {
  const out: Obj = {};
  if (c['Weight'] !== undefined) out['Weight'] = c['Weight'];
  const str = (v: Json): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
  out['LTarget'] = str(c['Attribute']);
  out['RTarget'] = str(c['Value']);
  out['Operand'] = typeof c['Operator'] === 'string' ? c['Operator'] : '=';
  for (const op of ['Version', 'Semver', 'Regexp', 'SetContains', 'SetContainsAny', 'SetContainsAll']) {
    if (c[op] !== undefined) {
      out['Operand'] = op.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
      out['RTarget'] = str(c[op]);
    }
  }
  if (c['DistinctHosts'] !== undefined) {
    out['Operand'] = 'distinct_hosts';
    out['RTarget'] = str(c['DistinctHosts']);
  }
  if (c['DistinctProperty'] !== undefined) {
    out['Operand'] = 'distinct_property';
    out['LTarget'] = str(c['DistinctProperty']);
    out['RTarget'] = c['Value'] === undefined ? '' : str(c['Value']);
  }
  return out;
}

/** Deepest nesting accepted: the WebAssembly parser overflows the stack (and dies) on thousands of levels. */
export const MAX_HCL_NESTING = 100;

/**
 * The deepest nesting of brackets, braces and interpolations in HCL text (strings and comments
 * skipped, `${` inside strings counted), with its line.
 */
export function hclNesting(text: string): { depth: number; line: number } {
  let depth = 0;
  let max = 0;
  let line = 1;
  let maxLine = 1;
  let inString = false;
  let interp = 0;
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString && interp === 0) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      else if (c === '$' && text[i + 1] === '{') {
        i++;
        interp++;
        stack.push(interp);
        depth++;
      }
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      line++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop - 1;
    } else if (c === '"') {
      if (interp > 0) {
        // a string inside an interpolation: skip it simply
        i++;
        while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      } else inString = true;
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
      stack.push(0);
    } else if (c === ')' || c === ']' || c === '}') {
      const top = stack.pop();
      depth = Math.max(0, depth - 1);
      if (top !== undefined && top > 0) {
        interp--;
      }
    }
    if (depth > max) {
      max = depth;
      maxLine = line;
    }
  }
  return { depth: max, line: maxLine };
}

type HclParse = (name: string, text: string) => Promise<unknown>;
const require = createRequire(import.meta.url);
let hclParse: HclParse | undefined;

/** Loads (or reloads, after the WebAssembly runtime died) the HCL parser. */
function parser(fresh = false): HclParse {
  if (fresh || !hclParse) {
    if (fresh) {
      for (const key of Object.keys(require.cache))
        if (key.includes('@cdktf/hcl2json')) delete require.cache[key];
    }
    const mod = require('@cdktf/hcl2json') as { parse: HclParse };
    hclParse = mod.parse;
  }
  return hclParse;
}

async function parseHcl(name: string, text: string): Promise<Obj> {
  const nesting = hclNesting(text);
  if (nesting.depth > MAX_HCL_NESTING)
    throw badRequest(
      `Failed to parse ${name}: line ${nesting.line} is nested ${nesting.depth} levels deep; at most ${MAX_HCL_NESTING} are accepted.`,
    );
  let result: unknown;
  try {
    result = await parser()(name, text);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    if (!raw.startsWith('parse config:')) {
      // Not a diagnostic of the file: the parser itself failed; start a fresh one for the next call.
      parser(true);
      throw new Error(`The HCL parser failed: ${raw}`, { cause: error });
    }
    const message = raw.replace(/^parse config: \[/, '').replace(/\]$/, '');
    throw badRequest(`Failed to parse ${name}: ${message}`);
  }
  return isObj(result) ? result : {};
}

function parseVarValue(text: string): Json {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  return text;
}

/**
 * Parses HCL2 job text into a Job with the reference HCL library (compiled to WebAssembly, through
 * `@cdktf/hcl2json`), then maps blocks and attributes onto the Job's fields.
 * @throws a 400 ClusterError with the parser's position (`job.hcl:3,7-8: ...`) for bad HCL, for
 *   unknown variables, unsupported expressions and invalid durations, and for `hclV1`.
 */
export async function parseJobHcl(input: ParseJobInput, options: { region: string }): Promise<Job> {
  if (input.hclV1)
    throw badRequest(
      'The HCLv1 (legacy) job parser is not supported by this server: submit the job in HCL2 with HCLv1 false.',
    );
  if (input.hcl.trim() === '') throw badRequest('JobHCL is empty: expected the text of a job file.');
  const root = await parseHcl('job.hcl', input.hcl);
  // Variables: defaults < var-file content < flags.
  const declared: Obj = {};
  const varBlocks = isObj(root['variable']) ? root['variable'] : {};
  for (const [name, bodies] of Object.entries(varBlocks)) {
    const body = Object.assign({}, ...(Array.isArray(bodies) ? bodies : [bodies]).filter(isObj)) as Obj;
    declared[name] = body['default'];
  }
  const vars: Obj = { ...declared };
  if (input.variables && input.variables.trim() !== '') {
    const file = await parseHcl('variables.hcl', input.variables);
    for (const [k, v] of Object.entries(file)) {
      if (!(k in declared))
        throw badRequest(
          `Variable "${k}" set in Variables is not declared in the job: declare it with a variable block.`,
        );
      vars[k] = v;
    }
  }
  for (const [k, v] of Object.entries(input.variableFlags ?? {})) {
    if (!(k in declared))
      throw badRequest(
        `Variable "${k}" set in VariableFlags is not declared in the job: declare it with a variable block.`,
      );
    vars[k] = typeof declared[k] === 'number' || typeof declared[k] === 'boolean' ? parseVarValue(v) : v;
  }
  for (const [k, v] of Object.entries(vars))
    if (v === undefined)
      throw badRequest(
        `Required variable "${k}" is not set: give it a default, or set it in Variables or VariableFlags.`,
      );
  const scope: Scope = { vars, locals: {} };
  const localsBlocks = Array.isArray(root['locals'])
    ? root['locals']
    : isObj(root['locals'])
      ? [root['locals']]
      : [];
  for (const l of localsBlocks.filter(isObj))
    for (const [k, v] of Object.entries(l)) scope.locals[k] = resolve(v, scope, `locals.${k}`);

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
  if (input.canonicalize)
    return canonicalize(job, { region: options.region, namespace: input.namespace ?? 'default' });
  return job as unknown as Job;
}
