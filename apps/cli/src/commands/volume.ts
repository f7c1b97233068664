import type { CsiVolumeInput } from '@sked/model';
import { extname } from 'node:path';

import { Command } from 'commander';

import { schedulerContext } from '../context.js';
import { CliError } from '../errors.js';
import { handler } from '../handler.js';
import { isRecord, looksLikeJson, parseJson, readInput } from '../job-file.js';
import { keyValues, table, toJson } from '../output.js';
import { allocTable } from './job-read.js';

/** The volumes of a file: a bare volume, `{"Volume": ...}` or `{"Volumes": [...]}`. */
export function volumesOf(value: unknown, name: string): CsiVolumeInput[] {
  let list: unknown[];
  if (isRecord(value) && Array.isArray(value['Volumes'])) list = value['Volumes'];
  else if (isRecord(value) && isRecord(value['Volume'])) list = [value['Volume']];
  else list = [value];
  if (list.length === 0) throw new CliError(`${name} holds no volume.`);
  return list.map((v, i) => {
    if (!isRecord(v) || typeof v['ID'] !== 'string' || v['ID'] === '')
      throw new CliError(`${name}: volume ${i} has no ID (a non-empty string "ID" is required).`);
    return v as CsiVolumeInput;
  });
}

async function status(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string | undefined];
  const { filter } = command.opts<{ filter?: string }>();
  if (id === undefined) {
    const volumes = [];
    for await (const v of ctx.client.volumes.list.items(filter === undefined ? {} : { filter }))
      volumes.push(v);
    if (ctx.output.json) return ctx.output.out(toJson(volumes));
    if (volumes.length === 0) return ctx.output.out('No CSI volumes');
    return ctx.output.out(
      table(
        ['ID', 'Name', 'Namespace', 'Plugin ID', 'Schedulable', 'Access Mode'],
        volumes.map((v) => [v.ID, v.Name, v.Namespace, v.PluginID, v.Schedulable, v.AccessMode]),
      ),
    );
  }
  const { data: v } = await ctx.client.volumes.read(id);
  if (ctx.output.json) return ctx.output.out(toJson(v));
  const allocs = v.Allocations ?? [];
  ctx.output.out(
    [
      keyValues([
        ['ID', v.ID],
        ['Name', v.Name],
        ['Namespace', v.Namespace],
        ['External ID', v.ExternalID],
        ['Plugin ID', v.PluginID],
        ['Provider', v.Provider],
        ['Version', v.Version],
        ['Schedulable', v.Schedulable],
        ['Controllers Healthy', v.ControllersHealthy],
        ['Controllers Expected', v.ControllersExpected],
        ['Nodes Healthy', v.NodesHealthy],
        ['Nodes Expected', v.NodesExpected],
        ['Access Mode', v.AccessMode],
        ['Attachment Mode', v.AttachmentMode],
      ]),
      '',
      'Allocations',
      allocs.length === 0 ? 'No allocations placed' : allocTable(allocs),
    ].join('\n'),
  );
}

const VOLUME_JSON_HINT =
  'Write the volume as JSON: {"ID": "db-data", "Name": "db-data", "PluginID": "disk", "AccessMode": "single-node-writer", ' +
  '"AttachmentMode": "file-system"}, {"Volume": ...} or {"Volumes": [...]} (`sked volume status ID --json` prints one), ' +
  'or as an HCL volume specification (.hcl or .volume).';

/**
 * The volumes of a volume file's text. `.json`, or content starting with `{` or `[` (and not a
 * `.hcl`/`.volume` name), is JSON: a volume, `{"Volume": ...}` or `{"Volumes": [...]}`. Anything
 * else is one volume specification in HCL, parsed here (the spec has no volume parse endpoint).
 */
export async function parseVolumeFile(content: string, name: string): Promise<CsiVolumeInput[]> {
  if (content.trim() === '') throw new CliError(`${name} is empty.`, { hint: VOLUME_JSON_HINT });
  const ext = extname(name).toLowerCase();
  const json = ext === '.json' || (ext !== '.hcl' && ext !== '.volume' && looksLikeJson(content));
  if (json) return volumesOf(parseJson(content, name, VOLUME_JSON_HINT), name);
  const { parseVolumeHcl } = await import('../volume-hcl.js');
  return [await parseVolumeHcl(content, name)];
}

async function register(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [path] = command.processedArgs as [string];
  const name = path === '-' ? 'stdin' : path;
  const volumes = await parseVolumeFile(await readInput(path, 'volume file'), name);
  for (const volume of volumes) {
    await ctx.client.volumes.register(volume);
    if (!ctx.output.json) ctx.output.out(`Created CSI volume: ${volume.ID}`);
  }
  if (ctx.output.json) ctx.output.out(toJson(volumes.map((v) => v.ID)));
}

async function deregister(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id] = command.processedArgs as [string];
  const { force } = command.opts<{ force?: boolean }>();
  await ctx.client.volumes.delete(id, force ? { force: true } : {});
  ctx.output.out(ctx.output.json ? toJson({ ID: id }) : `Successfully deregistered volume "${id}"`);
}

async function detach(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  const [id, node] = command.processedArgs as [string, string];
  await ctx.client.volumes.detach(id, node);
  ctx.output.out(
    ctx.output.json
      ? toJson({ ID: id, Node: node })
      : `Successfully detached volume "${id}" from node "${node}"`,
  );
}

/** The `volume` command and its subcommands. */
export function volumeCommand(): Command {
  return new Command('volume')
    .description('CSI volumes: status, register, deregister, detach')
    .addCommand(
      new Command('status')
        .description('List CSI volumes, or show one with its allocations')
        .argument('[id]', 'volume ID')
        .option('--filter <expr>', 'filter expression for the list (server side)')
        .addHelpText('after', '\nExample:\n  $ sked volume status\n  $ sked volume status db-data')
        .action(handler(status)),
    )
    .addCommand(
      new Command('register')
        .description(
          'Register CSI volumes from an HCL volume specification or a JSON file (a volume, {"Volume": ...} or {"Volumes": [...]})',
        )
        .argument('<file>', 'HCL (.hcl, .volume, or not starting with {) or JSON file; - reads stdin')
        .addHelpText(
          'after',
          '\nExample:\n  $ sked volume register db-data.hcl\n  $ sked volume register - < db-data.json',
        )
        .action(handler(register)),
    )
    .addCommand(
      new Command('deregister')
        .description('Deregister a CSI volume that no allocation uses')
        .argument('<id>', 'volume ID')
        .option('--force', 'also drop the claims of finished allocations')
        .addHelpText('after', '\nExample:\n  $ sked volume deregister db-data')
        .action(handler(deregister)),
    )
    .addCommand(
      new Command('detach')
        .description('Detach a CSI volume from a node')
        .argument('<id>', 'volume ID')
        .argument('<node>', 'node ID')
        .addHelpText('after', '\nExample:\n  $ sked volume detach db-data 0b1f2c3d-...')
        .action(handler(detach)),
    );
}
