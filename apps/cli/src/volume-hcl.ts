/**
 * A CSI volume specification written in HCL, as the reference CLI reads it, turned into the
 * model's `CsiVolumeInput`. The spec has no volume parse endpoint, so the CLI parses it itself.
 */
import { parseByteSize, type CsiVolumeInput } from '@sked/model';

import { CliError } from './errors.js';
import { childPlace, itemPlace, lineOf, parseHclText, type HclPlace } from './hcl-source.js';
import { isRecord } from './job-file.js';

/** What to try after an error in an HCL volume file. */
export const VOLUME_HCL_HINT =
  'An HCL volume file holds one CSI volume, e.g. id = "db-data", type = "csi", plugin_id = "disk", ' +
  'capability { access_mode = "single-node-writer", attachment_mode = "file-system" }.';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Volume = Mutable<CsiVolumeInput>;
type Capability = NonNullable<CsiVolumeInput['RequestedCapabilities']>[number];

const STRINGS = {
  id: 'ID',
  name: 'Name',
  namespace: 'Namespace',
  external_id: 'ExternalID',
  plugin_id: 'PluginID',
} as const;
const MAPS = { secrets: 'Secrets', parameters: 'Parameters', context: 'Context' } as const;
const OTHERS = ['type', 'capacity_min', 'capacity_max', 'capability', 'mount_options', 'topology_request'];
const KNOWN = [...Object.keys(STRINGS), ...OTHERS, ...Object.keys(MAPS)];
const MISPLACED: Readonly<Record<string, string>> = {
  access_mode: 'write it in a capability block: capability { access_mode = "...", attachment_mode = "..." }',
  attachment_mode:
    'write it in a capability block: capability { access_mode = "...", attachment_mode = "..." }',
};

/** Reads the hcl2json form of one volume file, failing with the file, line and field path. */
class Reader {
  /** The volume field each converted HCL place became, for the schema's problems. */
  readonly origins = new Map<string, HclPlace>();

  constructor(
    private readonly text: string,
    private readonly name: string,
  ) {}

  fail(place: HclPlace | undefined, message: string): never {
    const line = place === undefined ? undefined : lineOf(this.text, place);
    const where = line === undefined ? this.name : `${this.name}:${line}`;
    const what = place === undefined ? message : `${place.path} ${message}`;
    throw new CliError(`${where}: ${what}`, { hint: VOLUME_HCL_HINT });
  }

  /** A string value; no message shows the value itself (it may be a secret). */
  string(value: unknown, place: HclPlace): string {
    if (typeof value !== 'string') this.fail(place, `must be a string, got ${kind(value)}.`);
    if (value.includes('${') || value.includes('%{'))
      this.fail(
        place,
        'holds an expression (${...} or %{...}): a volume file is read as written; write the value itself.',
      );
    return value;
  }

  /** A block given once (`name { ... }`, or `name = { ... }`): its body. */
  block(value: unknown, place: HclPlace): Record<string, unknown> {
    if (isRecord(value) && !Object.values(value).some(isBlockList)) return value;
    if (Array.isArray(value) && value.length === 1 && isRecord(value[0])) return value[0];
    if (Array.isArray(value) && value.length > 1 && value.every(isRecord))
      this.fail(place, `is given ${value.length} times; give it once.`);
    this.fail(
      place,
      `must be a block without a label: ${place.path.split('.').at(-1)} { ... }, got ${kind(value)}.`,
    );
  }

  /** The bodies of a repeatable block. */
  blocks(value: unknown, place: HclPlace): Record<string, unknown>[] {
    if (Array.isArray(value) && value.every(isRecord)) return value;
    return this.fail(place, `must be blocks without a label: ${place.path} { ... }, got ${kind(value)}.`);
  }

  /** Keys of `body` outside `known` are an error naming the first one. */
  onlyKnown(body: Record<string, unknown>, known: readonly string[], parent: HclPlace | undefined): void {
    for (const key of Object.keys(body)) {
      if (known.includes(key)) continue;
      const place = childPlace(parent, key);
      const extra = parent === undefined && Object.hasOwn(MISPLACED, key) ? MISPLACED[key] : undefined;
      const kindOf = isBlockList(body[key]) ? 'block' : 'attribute';
      this.fail(
        place,
        `is not a known ${kindOf}${parent === undefined ? ' of a volume' : ` of ${parent.path}`}: ${extra ?? `the known ones are ${known.join(', ')}.`}`,
      );
    }
  }

  /** A map of strings (`secrets`, `parameters`, `context`, `segments`); values are never shown. */
  stringMap(value: unknown, place: HclPlace): Record<string, string> {
    const body = this.block(value, place);
    // fromEntries: a key named __proto__ stays a key (an assignment would set the prototype).
    return Object.fromEntries(
      Object.entries(body).map(([key, v]) => [key, this.string(v, childPlace(place, key))]),
    );
  }

  /** A size string in bytes. */
  size(value: unknown, place: HclPlace): number {
    const text = this.string(value, place);
    const size = parseByteSize(text);
    if (!size.ok) this.fail(place, `"${text}" ${size.message}.`);
    return size.bytes;
  }

  capability(body: Record<string, unknown>, place: HclPlace, index: number): Capability {
    this.onlyKnown(body, ['access_mode', 'attachment_mode'], place);
    const out: Mutable<Capability> = {};
    for (const [key, field] of [
      ['access_mode', 'AccessMode'],
      ['attachment_mode', 'AttachmentMode'],
    ] as const) {
      const at = childPlace(place, key);
      if (body[key] === undefined) this.fail(at, `is required in each capability block.`);
      (out as Record<string, string>)[field] = this.string(body[key], at);
      this.origins.set(`/RequestedCapabilities/${index}/${field}`, at);
      if (index === 0) this.origins.set(`/${field}`, at);
    }
    return out;
  }

  mountOptions(value: unknown, place: HclPlace): NonNullable<CsiVolumeInput['MountOptions']> {
    const body = this.block(value, place);
    this.onlyKnown(body, ['fs_type', 'mount_flags'], place);
    const out: Mutable<NonNullable<CsiVolumeInput['MountOptions']>> = {};
    if (body['fs_type'] !== undefined)
      out.FSType = this.string(body['fs_type'], childPlace(place, 'fs_type'));
    const flags = body['mount_flags'];
    if (flags !== undefined) {
      const at = childPlace(place, 'mount_flags');
      if (!Array.isArray(flags))
        this.fail(at, `must be a list of strings, e.g. ["noatime"], got ${kind(flags)}.`);
      out.MountFlags = flags.map((flag, i) => this.string(flag, itemPlace(at, i)));
    }
    return out;
  }

  /** `topology_request { required { topology { segments { k = "v" } } ... } }`: the volume's topologies. */
  topologies(value: unknown, place: HclPlace): Record<string, string>[] {
    const body = this.block(value, place);
    if (body['preferred'] !== undefined)
      this.fail(
        childPlace(place, 'preferred'),
        'is for creating a volume; a registered volume is reachable from its required topologies only (the model keeps no preference).',
      );
    this.onlyKnown(body, ['required'], place);
    if (body['required'] === undefined)
      this.fail(childPlace(place, 'required'), 'is required in topology_request.');
    const requiredAt = childPlace(place, 'required');
    const required = this.block(body['required'], requiredAt);
    this.onlyKnown(required, ['topology'], requiredAt);
    const topologyAt = childPlace(requiredAt, 'topology');
    if (required['topology'] === undefined)
      this.fail(topologyAt, 'is required: topology { segments { key = "value" } }.');
    return this.blocks(required['topology'], topologyAt).map((topology, i) => {
      const at = childPlace(requiredAt, 'topology', i);
      this.onlyKnown(topology, ['segments'], at);
      if (topology['segments'] === undefined)
        this.fail(childPlace(at, 'segments'), 'is required in each topology.');
      return this.stringMap(topology['segments'], childPlace(at, 'segments'));
    });
  }
}

function isBlockList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length > 0 && value.every(isRecord) ? 'a block' : 'a list';
  if (isRecord(value)) return 'a map';
  return `a ${typeof value}`;
}

/** The volume of an HCL file's hcl2json form, and where each of its checked fields came from. */
export function volumeOfHcl(
  parsed: unknown,
  text: string,
  name: string,
): { volume: CsiVolumeInput; origins: ReadonlyMap<string, HclPlace> } {
  const r = new Reader(text, name);
  const top = isRecord(parsed) ? parsed : {};
  if (Object.keys(top).length === 0) r.fail(undefined, 'holds no volume (no attribute or block).');
  r.onlyKnown(top, KNOWN, undefined);
  const at = (key: string): HclPlace => childPlace(undefined, key);
  const volume: Volume = { ID: '' };
  for (const [key, field] of Object.entries(STRINGS))
    if (top[key] !== undefined) volume[field] = r.string(top[key], at(key));
  if (top['id'] === undefined || volume.ID === '') r.fail(at('id'), 'is required: id = "my-volume".');
  if (top['type'] === undefined) r.fail(at('type'), 'is required: type = "csi".');
  const type = r.string(top['type'], at('type'));
  if (type.toLowerCase() === 'host')
    r.fail(
      at('type'),
      'is "host": sked registers CSI volumes only (type = "csi"); the service API has no host volume endpoint.',
    );
  if (type.toLowerCase() !== 'csi') r.fail(at('type'), `must be "csi", got "${type}".`);
  const min = top['capacity_min'] === undefined ? undefined : r.size(top['capacity_min'], at('capacity_min'));
  const max = top['capacity_max'] === undefined ? undefined : r.size(top['capacity_max'], at('capacity_max'));
  if (min !== undefined && max !== undefined && max < min)
    r.fail(at('capacity_max'), `(${max} bytes) is less than capacity_min (${min} bytes).`);
  const capacity = min ?? max;
  if (capacity !== undefined) {
    volume.Capacity = capacity;
    r.origins.set('/Capacity', at(min === undefined ? 'capacity_max' : 'capacity_min'));
  }
  if (top['capability'] !== undefined) {
    const capabilities = r
      .blocks(top['capability'], at('capability'))
      .map((body, i) => r.capability(body, childPlace(undefined, 'capability', i), i));
    volume.RequestedCapabilities = capabilities;
    const first = capabilities[0];
    if (first?.AccessMode !== undefined) volume.AccessMode = first.AccessMode;
    if (first?.AttachmentMode !== undefined) volume.AttachmentMode = first.AttachmentMode;
  }
  if (top['mount_options'] !== undefined)
    volume.MountOptions = r.mountOptions(top['mount_options'], at('mount_options'));
  for (const [key, field] of Object.entries(MAPS))
    if (top[key] !== undefined) volume[field] = r.stringMap(top[key], at(key));
  if (top['topology_request'] !== undefined)
    volume.Topologies = r.topologies(top['topology_request'], at('topology_request'));
  return { volume, origins: r.origins };
}

/**
 * The volume of an HCL volume file's text, checked against the model's `CsiVolumeInput` schema:
 * every error names the file, the line where the parser or the key's position gives one, and the
 * field path as written in HCL. Secret values are never part of a message.
 */
export async function parseVolumeHcl(text: string, name: string): Promise<CsiVolumeInput> {
  const parsed = await parseHclText(text, name, VOLUME_HCL_HINT);
  const { volume, origins } = volumeOfHcl(parsed, text, name);
  // Loaded here only: the schemas take a while to load, and only HCL volume files need them here.
  const { CsiVolumeInput: schema, validate } = await import('@sked/model');
  const result = validate(schema, volume);
  if (result.ok) return volume;
  const lines = new Set<string>();
  for (const problem of result.problems) {
    const place = origins.get(problem.path);
    const line = place === undefined ? undefined : lineOf(text, place);
    const where = line === undefined ? name : `${name}:${line}`;
    lines.add(`${where}: ${place?.path ?? (problem.path || '(the volume)')} ${problem.message}`);
  }
  throw new CliError([...lines].join('\n'), { hint: VOLUME_HCL_HINT });
}
