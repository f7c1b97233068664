import { nullRecord, ownValue } from '@sked/model';
import { badRequest } from '../errors.js';
import { durationNs } from '../internal/duration.js';
import { isObj, merged, type Json, type Obj } from './json.js';

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

function duration(v: Json, where: string): number {
  const ns = durationNs(v);
  if (ns === undefined)
    throw badRequest(
      `Invalid duration ${JSON.stringify(v)} at ${where}: expected a value such as "30s", "5m" or "1h30m".`,
    );
  return ns;
}

/** Converts one HCL body (already resolved) into Job-shaped fields. */
export function convertBody(body: Obj, context: string, where: string): Obj {
  const out: Obj = nullRecord();
  for (const [key, raw] of Object.entries(body)) {
    const here = `${where}.${key}`;
    const block = ownValue(BLOCKS, key);
    if (block && (Array.isArray(raw) || isObj(raw))) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (block.kind === 'raw') {
        out[block.field] = merged(list);
      } else if (block.kind === 'strmap') {
        const m = nullRecord<string>();
        for (const o of list.filter(isObj))
          for (const [k, x] of Object.entries(o)) m[k] = typeof x === 'string' ? x : JSON.stringify(x);
        out[block.field] = m;
      } else if (block.kind === 'one') {
        const o = merged(list);
        out[block.field] = convertBody(o, key, here);
      } else if (
        isObj(raw) &&
        !Array.isArray(raw) &&
        (key === 'group' || key === 'task' || key === 'volume' || key === 'port')
      ) {
        // labelled blocks: { name: [body] }
        const items: Obj[] = [];
        for (const [label, bodies] of Object.entries(raw)) {
          const b = merged(Array.isArray(bodies) ? bodies : [bodies]);
          const converted = convertBody(b, key, `${here}["${label}"]`);
          if (key === 'port') converted['Label'] = label;
          else converted['Name'] = label;
          items.push(converted);
        }
        if (block.kind === 'map') out[block.field] = nullRecord(items.map((x) => [x['Name'] as string, x]));
        else out[block.field] = [...((out[block.field] as Obj[] | undefined) ?? []), ...items];
      } else {
        const items = list.filter(isObj).map((o, i) => convertBody(o, key, `${here}[${i}]`));
        out[block.field] = key === 'constraint' || key === 'affinity' ? items.map(constraintOf) : items;
      }
      continue;
    }
    const name = ownValue(ownValue(RENAMES, context), key) ?? ownValue(RENAMES['*'], key) ?? pascal(key);
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
      const b = merged(Array.isArray(bodies) ? bodies : [bodies]);
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
  const out: Obj = nullRecord();
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
