import { fc, test } from '@fast-check/vitest';
import { CsiVolumeAccessMode, CsiVolumeAttachmentMode, type CsiVolumeInput } from '@sked/model';
import { describe, expect, it } from 'vitest';

import { parseVolumeFile } from './commands/volume.js';
import { childPlace, itemPlace, lineOf } from './hcl-source.js';
import { parseVolumeHcl } from './volume-hcl.js';

/** An HCL string literal (escapes as HCL takes them). */
function quote(text: string): string {
  return `"${Array.from(text)
    .map((c) => {
      if (c === '\\' || c === '"') return `\\${c}`;
      if (c === '\n') return '\\n';
      const code = c.codePointAt(0)!;
      return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : c;
    })
    .join('')}"`;
}

const mapBody = (map: Record<string, string>, indent: string): string =>
  Object.entries(map)
    .map(([k, v]) => `${indent}${k} = ${quote(v)}\n`)
    .join('');

const UNITS = { B: 1, KB: 1000, KiB: 1024, MB: 1e6, MiB: 2 ** 20, GiB: 2 ** 30, TB: 1e12 } as const;

interface Spec {
  readonly volume: CsiVolumeInput;
  readonly hcl: string;
}

/**
 * Text HCL gives back as written: no expression (`${`, `%{`), and in Unicode NFC, since HCL
 * normalizes every string literal to NFC (as the reference HCL library does).
 */
const text = fc
  .string({ unit: 'grapheme', maxLength: 12 })
  .filter((s) => !/[$%]\{/.test(s) && s === s.normalize('NFC'));
const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/);
const stringMap = fc.dictionary(key, text, { maxKeys: 3 });
const capability = fc.record({
  AccessMode: fc.constantFrom(...Object.values(CsiVolumeAccessMode)),
  AttachmentMode: fc.constantFrom(...Object.values(CsiVolumeAttachmentMode)),
});

/** A volume input the HCL format can express, and its HCL. */
const specs: fc.Arbitrary<Spec> = fc
  .record(
    {
      id: text.filter((s) => s !== ''),
      name: text,
      namespace: text,
      externalId: text,
      pluginId: text,
      capacity: fc.tuple(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(...Object.keys(UNITS))),
      capabilities: fc.array(capability, { maxLength: 3 }),
      mount: fc.record({ fsType: text, flags: fc.array(text, { maxLength: 3 }) }, { requiredKeys: [] }),
      secrets: stringMap,
      parameters: stringMap,
      context: stringMap,
      topologies: fc.array(stringMap, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['id'] },
  )
  .map((g) => {
    const volume: Record<string, unknown> = { ID: g.id };
    let hcl = `id = ${quote(g.id)}\ntype = "csi"\n`;
    for (const [field, attr, value] of [
      ['Name', 'name', g.name],
      ['Namespace', 'namespace', g.namespace],
      ['ExternalID', 'external_id', g.externalId],
      ['PluginID', 'plugin_id', g.pluginId],
    ] as const) {
      if (value === undefined) continue;
      volume[field] = value;
      hcl += `${attr} = ${quote(value)}\n`;
    }
    if (g.capacity !== undefined) {
      const [count, unit] = g.capacity;
      volume['Capacity'] = count * UNITS[unit as keyof typeof UNITS];
      hcl += `capacity_min = "${count}${unit}"\n`;
    }
    if (g.capabilities !== undefined && g.capabilities.length > 0) {
      volume['RequestedCapabilities'] = g.capabilities;
      volume['AccessMode'] = g.capabilities[0]!.AccessMode;
      volume['AttachmentMode'] = g.capabilities[0]!.AttachmentMode;
      for (const c of g.capabilities)
        hcl += `capability {\n  access_mode = "${c.AccessMode}"\n  attachment_mode = "${c.AttachmentMode}"\n}\n`;
    }
    if (g.mount !== undefined) {
      const mount: Record<string, unknown> = {};
      hcl += 'mount_options {\n';
      if (g.mount.fsType !== undefined) {
        mount['FSType'] = g.mount.fsType;
        hcl += `  fs_type = ${quote(g.mount.fsType)}\n`;
      }
      if (g.mount.flags !== undefined) {
        mount['MountFlags'] = g.mount.flags;
        hcl += `  mount_flags = [${g.mount.flags.map(quote).join(', ')}]\n`;
      }
      volume['MountOptions'] = mount;
      hcl += '}\n';
    }
    for (const [field, block, map] of [
      ['Secrets', 'secrets', g.secrets],
      ['Parameters', 'parameters', g.parameters],
      ['Context', 'context', g.context],
    ] as const) {
      if (map === undefined) continue;
      volume[field] = map;
      hcl += `${block} {\n${mapBody(map, '  ')}}\n`;
    }
    if (g.topologies !== undefined) {
      volume['Topologies'] = g.topologies;
      const topologies = g.topologies.map(
        (t) => `    topology {\n      segments {\n${mapBody(t, '        ')}      }\n    }\n`,
      );
      hcl += `topology_request {\n  required {\n${topologies.join('')}  }\n}\n`;
    }
    return { volume: volume as CsiVolumeInput, hcl };
  });

describe('parseVolumeHcl', () => {
  test.prop([specs], { numRuns: 60 })(
    'the HCL of a volume input registers the same CsiVolumeInput as its JSON',
    async ({ volume, hcl }) => {
      const fromHcl = await parseVolumeFile(hcl, 'v.hcl');
      expect(fromHcl).toEqual([volume]);
      expect(fromHcl).toEqual(await parseVolumeFile(JSON.stringify(volume), 'v.json'));
    },
  );

  it('keeps capacity_min as the Capacity, and capacity_max alone when it is the only one', async () => {
    const base = 'id = "a"\ntype = "CSI"\n';
    expect(
      (await parseVolumeHcl(`${base}capacity_min = "1.5 GB"\ncapacity_max = "2GB"\n`, 'v')).Capacity,
    ).toBe(1_500_000_000);
    expect((await parseVolumeHcl(`${base}capacity_max = "1KiB"\n`, 'v')).Capacity).toBe(1024);
    await expect(parseVolumeHcl(`${base}capacity_min = "2GB"\ncapacity_max = "1GB"\n`, 'v')).rejects.toThrow(
      'v:4: capacity_max (1000000000 bytes) is less than capacity_min (2000000000 bytes).',
    );
    await expect(parseVolumeHcl(`${base}capacity_min = "10 GiBs"\n`, 'v')).rejects.toThrow(
      'v:3: capacity_min "10 GiBs" has an unknown unit "GiBs"',
    );
  });

  it('never shows a secret value in an error', async () => {
    const secret = 'hunter2-x';
    for (const body of [
      `secrets {\n  password = "${secret}\n}\n`,
      `secrets {\n  password = ${secret}\n}\n`,
      `secrets {\n  password = ["${secret}"]\n}\n`,
      `secrets {\n  password = "\${${secret}}"\n}\n`,
      `secrets {\n  password = "${secret}" "x"\n}\n`,
    ]) {
      const failure = await parseVolumeHcl(`id = "a"\ntype = "csi"\n${body}`, 'v.hcl').catch((e: Error) => e);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).not.toContain('hunter2');
    }
  });

  it('normalizes strings to Unicode NFC, as HCL does', async () => {
    const volume = await parseVolumeHcl('id = "a"\ntype = "csi"\nname = "e\u0301"\n', 'v');
    expect(volume.Name).toBe('\u00e9');
  });

  it('names an unknown attribute called like an object property as unknown', async () => {
    for (const key of ['constructor', 'toString', '__proto__'])
      await expect(parseVolumeHcl(`id = "a"\ntype = "csi"\n${key} = "x"\n`, 'v')).rejects.toThrow(
        `v:3: ${key} is not a known attribute of a volume: the known ones are id,`,
      );
  });

  it('keeps a map key named __proto__ as a key', async () => {
    const volume = await parseVolumeHcl('id = "a"\ntype = "csi"\nparameters {\n  __proto__ = "x"\n}\n', 'v');
    expect(Object.entries(volume.Parameters ?? {})).toEqual([['__proto__', 'x']]);
  });
});

describe('lineOf', () => {
  const hcl = [
    '# comment with capability {',
    'id = "a" // id = "b"',
    'capability {',
    '  access_mode = "x"',
    '}',
    '/* capability {',
    '*/',
    'capability { access_mode = "y" }',
    'secrets {',
    '  "quoted" = "{"',
    '  k = "v"',
    '}',
  ].join('\n');
  it('finds a key at its depth, the nth repeated block, and falls back to the enclosing block', () => {
    expect(lineOf(hcl, childPlace(undefined, 'id'))).toBe(2);
    expect(lineOf(hcl, childPlace(childPlace(undefined, 'capability', 0), 'access_mode'))).toBe(4);
    expect(lineOf(hcl, childPlace(childPlace(undefined, 'capability', 1), 'access_mode'))).toBe(8);
    expect(lineOf(hcl, childPlace(childPlace(undefined, 'secrets'), 'k'))).toBe(11);
    expect(lineOf(hcl, itemPlace(childPlace(childPlace(undefined, 'secrets'), 'quoted'), 0))).toBe(10);
    expect(lineOf(hcl, childPlace(undefined, 'access_mode'))).toBeUndefined();
  });
});
