import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sked, startServer, type ServerProcess } from './harness.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const example = fileURLToPath(new URL('../examples/volume.hcl', import.meta.url));

let server: ServerProcess;
let dir: string;
const run = (args: string[], options: { input?: string } = {}) => sked(args, { ...options, env: server.env });

beforeAll(async () => {
  server = await startServer([]);
  dir = await mkdtemp(join(tmpdir(), 'sked-volumes-'));
});
afterAll(async () => {
  await server.close();
});

/** The IDs of the registered volumes. */
async function volumeIds(): Promise<string[]> {
  const { stdout } = await run(['volume', 'status', '--json']);
  return (JSON.parse(stdout) as { ID: string }[]).map((v) => v.ID).sort();
}

describe.concurrent('volume (JSON)', () => {
  it('registers, shows, refuses a duplicate, detaches and deregisters', async () => {
    const registered = await run(['volume', 'register', fixture('volume.json')]);
    expect(registered).toEqual({ code: 0, stdout: 'Created CSI volume: db-data\n', stderr: '' });
    const again = await run(['volume', 'register', fixture('volume.json')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Error: volume "db-data" already exists\n  HTTP 400 from PUT');
    const list = await run(['volume', 'status']);
    expect(list.stdout).toMatch(/^ID +Name +Namespace +Plugin ID +Schedulable +Access Mode\n/);
    expect(list.stdout).toMatch(/^db-data +db-data +default +disk +true +single-node-writer$/m);
    const one = await run(['volume', 'status', 'db-data']);
    expect(one.stdout).toMatch(/^ID {19}= db-data\n/);
    expect(one.stdout).toContain('External ID          = vol-0001');
    const detachUnknownNode = await run(['volume', 'detach', 'db-data', 'no-such-node']);
    expect(detachUnknownNode.code).toBe(1);
    expect(detachUnknownNode.stderr).toContain('HTTP 404');
    const gone = await run(['volume', 'deregister', 'db-data']);
    expect(gone).toEqual({ code: 0, stdout: 'Successfully deregistered volume "db-data"\n', stderr: '' });
    const missing = await run(['volume', 'status', 'db-data']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('volume not found');
  });

  it('takes a bare volume and {"Volume": ...} on stdin, and refuses a file without an ID', async () => {
    const bare = await run(['volume', 'register', '-'], {
      input: JSON.stringify({
        ID: 'v1',
        Name: 'v1',
        PluginID: 'disk',
        AccessMode: 'single-node-writer',
        AttachmentMode: 'file-system',
      }),
    });
    expect(bare.code).toBe(0);
    const wrapped = await run(['volume', 'register', '-', '--json'], {
      input: JSON.stringify({
        Volume: {
          ID: 'v2',
          Name: 'v2',
          PluginID: 'disk',
          AccessMode: 'single-node-writer',
          AttachmentMode: 'file-system',
        },
      }),
    });
    expect(JSON.parse(wrapped.stdout)).toEqual(['v2']);
    const noId = await run(['volume', 'register', '-'], { input: '{"Name": "x"}' });
    expect(noId.code).toBe(1);
    expect(noId.stderr).toContain('volume 0 has no ID');
    const broken = await run(['volume', 'register', '-'], { input: '{"ID": ' });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('stdin is not valid JSON');
    expect(broken.stderr).toContain('Try: Write the volume as JSON');
    expect(broken.stderr).not.toContain('job file');
  });
});

describe('volume (HCL)', () => {
  it('registers a full specification, and status shows it without its secrets', async () => {
    const registered = await run(['volume', 'register', example]);
    expect(registered).toEqual({ code: 0, stdout: 'Created CSI volume: pg-data\n', stderr: '' });
    const one = await run(['volume', 'status', 'pg-data']);
    expect(one.stdout).toContain('Name                 = Postgres data');
    expect(one.stdout).toContain('External ID          = vol-0abc');
    expect(one.stdout).toContain('Access Mode          = single-node-writer');
    const json = await run(['volume', 'status', 'pg-data', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ID: 'pg-data',
      Namespace: 'default',
      PluginID: 'disk',
      Capacity: 10 * 2 ** 30,
      AccessMode: 'single-node-writer',
      AttachmentMode: 'file-system',
      RequestedCapabilities: [
        { AccessMode: 'single-node-writer', AttachmentMode: 'file-system' },
        { AccessMode: 'single-node-reader-only', AttachmentMode: 'file-system' },
      ],
      MountOptions: { FSType: 'ext4', MountFlags: ['noatime'] },
      Parameters: { iops: '3000' },
      Context: { endpoint: '10.0.0.9' },
      Topologies: [{ rack: 'r1' }],
    });
    const list = await run(['volume', 'status']);
    for (const out of [registered.stdout, one.stdout, json.stdout, list.stdout])
      expect(out).not.toContain('s3cr3t');
  });

  it('sniffs HCL on stdin, and reads .volume and .hcl files as HCL', async () => {
    const onStdin = await run(['volume', 'register', '-'], {
      input: 'id = "from-stdin"\ntype = "csi"\nplugin_id = "disk"\n',
    });
    expect(onStdin).toEqual({ code: 0, stdout: 'Created CSI volume: from-stdin\n', stderr: '' });
    const dotVolume = join(dir, 'data.volume');
    await copyFile(fixture('volume.hcl'), dotVolume);
    expect((await run(['volume', 'register', dotVolume, '--json'])).stdout).toBe('[\n    "hcl-data"\n]\n');
    const jsonInHcl = join(dir, 'json.hcl');
    await writeFile(jsonInHcl, '{"ID": "json-in-hcl"}');
    const refused = await run(['volume', 'register', jsonInHcl]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${jsonInHcl} is not valid HCL: ${jsonInHcl}:1,`);
  });

  const bad: [string, string, RegExp | string][] = [
    [
      'bad syntax',
      'id = "x1"\ntype = "csi"\nplugin_id = \n',
      'stdin is not valid HCL: stdin:3,13-4,1: Invalid expression; Expected the start of an expression',
    ],
    [
      'an unknown block',
      'id = "x2"\ntype = "csi"\n\ntelemetry {\n  x = 1\n}\n',
      'Error: stdin:4: telemetry is not a known block of a volume: the known ones are id, name,',
    ],
    [
      'an unknown attribute in a block',
      'id = "x3"\ntype = "csi"\nmount_options {\n  fs_type = "ext4"\n  flags = []\n}\n',
      'Error: stdin:5: mount_options.flags is not a known attribute of mount_options: the known ones are fs_type, mount_flags.',
    ],
    [
      'a wrong type',
      'id = "x4"\ntype = "csi"\nplugin_id = 7\n',
      'Error: stdin:3: plugin_id must be a string, got a number.',
    ],
    [
      'type = "host"',
      'id = "x5"\ntype = "host"\n',
      'Error: stdin:2: type is "host": sked registers CSI volumes only (type = "csi")',
    ],
    ['no type', 'id = "x6"\n', 'Error: stdin: type is required: type = "csi".'],
    [
      'a bad size string',
      'id = "x7"\ntype = "csi"\ncapacity_min = "ten gigs"\n',
      'Error: stdin:3: capacity_min "ten gigs" is not a size: write a number and a unit, e.g. "10GiB"',
    ],
    ['an empty file', '\n\n', 'Error: stdin is empty.'],
    ['only comments', '# nothing\n', 'Error: stdin: holds no volume (no attribute or block).'],
    [
      "two volume files' worth of ids",
      'id = "x8"\ntype = "csi"\nid = "x9"\ntype = "csi"\n',
      'stdin:3,1-3: Attribute redefined; The argument "id" was already set at stdin:1,1-3.',
    ],
    [
      'an access mode the model does not know',
      'id = "x10"\ntype = "csi"\ncapability {\n  access_mode = "rw"\n  attachment_mode = "file-system"\n}\n',
      /^Error: stdin:4: capability\[0\]\.access_mode expected one of "single-node-reader-only", .* but got the string "rw"$/m,
    ],
    [
      'a preferred topology',
      'id = "x11"\ntype = "csi"\ntopology_request {\n  preferred {\n    topology { segments = { a = "b" } }\n  }\n}\n',
      'Error: stdin:4: topology_request.preferred is for creating a volume',
    ],
    [
      'a secret that is not a string',
      'id = "x12"\ntype = "csi"\nsecrets {\n  token = ["hunter2"]\n}\n',
      'Error: stdin:4: secrets.token must be a string, got a list.',
    ],
    [
      'nesting deep enough to overflow the parser (refused before it parses)',
      `id = "x13"\ntype = "csi"\nx = ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
      'Error: stdin is not valid HCL: line 3 is nested 20000 levels deep; at most 100 are accepted.',
    ],
  ];
  it.concurrent.each(bad)('refuses %s precisely and registers nothing', async (_, input, message) => {
    const result = await run(['volume', 'register', '-'], { input });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/^ {2}Try: /m);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('registered none of the refused files', async () => {
    const refused = bad.flatMap(([, input]) => [...input.matchAll(/id = "(x\d+)"/g)].map((m) => m[1]));
    const ids = await volumeIds();
    expect(refused.length).toBeGreaterThan(10);
    expect(ids.filter((id) => refused.includes(id))).toEqual([]);
  });
});
