import type { Peering } from '@sked/mesh-client';
import { Command } from 'commander';

import { collect, handler, parsePairs } from '../handler.js';
import { readInput } from '../job-file.js';
import { meshContext, meshErrors } from '../mesh-context.js';
import { table, toJson } from '../output.js';

function metaText(meta: Readonly<Record<string, string>> | null | undefined): string {
  return Object.entries(meta ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** One peering as the mesh service's CLI prints it. */
export function peeringText(p: Peering): string {
  const block = (title: string, lines: readonly string[]): string[] =>
    lines.length === 0 ? [`${title}: <none>`] : [`${title}:`, ...lines.map((l) => `    ${l}`)];
  const status = p.StreamStatus;
  return [
    `Name:         ${p.Name}`,
    `ID:           ${p.ID}`,
    `State:        ${p.State}`,
    ...block(
      'Meta',
      Object.entries(p.Meta ?? {}).map(([k, v]) => `${k}=${v}`),
    ),
    ...(p.DeletedAt ? [`Deleted At:   ${p.DeletedAt}`] : []),
    '',
    `Peer ID:               ${p.PeerID}`,
    `Peer Server Name:      ${p.PeerServerName}`,
    `Remote Datacenter:     ${p.Remote?.Datacenter ?? ''}`,
    `Remote Partition:      ${p.Remote?.Partition ?? ''}`,
    ...block('Peer Server Addresses', p.PeerServerAddresses ?? []),
    '',
    `Imported Services: ${status?.ImportedServices?.length ?? 0}`,
    `Exported Services: ${status?.ExportedServices?.length ?? 0}`,
    `Last Heartbeat:    ${status?.LastHeartbeat ?? '<none>'}`,
    `Last Send:         ${status?.LastSend ?? '<none>'}`,
    `Last Receive:      ${status?.LastReceive ?? '<none>'}`,
    '',
    `Create Index: ${p.CreateIndex}`,
    `Modify Index: ${p.ModifyIndex}`,
  ].join('\n');
}

async function generateToken(command: Command): Promise<void> {
  const ctx = meshContext(command);
  const [name] = command.processedArgs as [string];
  const opts = command.opts<{ meta?: string[]; serverExternalAddress?: string[] }>();
  const meta = parsePairs(opts.meta ?? [], '--meta');
  const { data } = await ctx.client.peerings.generateToken({
    PeerName: name,
    ...(Object.keys(meta).length > 0 ? { Meta: meta } : {}),
    ...(opts.serverExternalAddress ? { ServerExternalAddresses: opts.serverExternalAddress } : {}),
  });
  ctx.output.out(ctx.output.json ? toJson(data) : data.PeeringToken);
}

async function establish(command: Command): Promise<void> {
  const ctx = meshContext(command);
  const [name, token] = command.processedArgs as [string, string];
  const meta = parsePairs(command.opts<{ meta?: string[] }>().meta ?? [], '--meta');
  const peeringToken = token === '-' ? (await readInput('-', 'peering token')).trim() : token;
  await ctx.client.peerings.establish({
    PeerName: name,
    PeeringToken: peeringToken,
    ...(Object.keys(meta).length > 0 ? { Meta: meta } : {}),
  });
  ctx.output.out(ctx.output.json ? '{}' : `Successfully established peering connection with ${name}`);
}

async function list(command: Command): Promise<void> {
  const ctx = meshContext(command);
  const { data, meta } = await ctx.client.peerings.list();
  if (ctx.output.json) return ctx.output.out(toJson(data));
  if (data.length === 0) ctx.output.out('There are no peering connections.');
  else
    ctx.output.out(
      table(
        ['Name', 'State', 'Remote Datacenter', 'Imported Svcs', 'Exported Svcs', 'Meta'],
        [...data]
          .sort((a, b) => a.Name.localeCompare(b.Name))
          .map((p) => [
            p.Name,
            p.State,
            p.Remote?.Datacenter,
            p.StreamStatus?.ImportedServices?.length ?? 0,
            p.StreamStatus?.ExportedServices?.length ?? 0,
            metaText(p.Meta),
          ]),
      ),
    );
  if (meta.filteredByAcls) ctx.output.err('Some peerings are hidden: the token may not read them.');
}

async function read(command: Command): Promise<void> {
  const ctx = meshContext(command);
  const [name] = command.processedArgs as [string];
  const { data } = await ctx.client.peerings.read(name);
  ctx.output.out(ctx.output.json ? toJson(data) : peeringText(data));
}

async function remove(command: Command): Promise<void> {
  const ctx = meshContext(command);
  const [name] = command.processedArgs as [string];
  await ctx.client.peerings.delete(name);
  ctx.output.out(ctx.output.json ? '{}' : `Successfully submitted peering connection, ${name}, for deletion`);
}

/** The `peering` command. */
export function peeringCommand(): Command {
  const on = (work: (command: Command) => Promise<void>) => handler(work, meshErrors);
  return new Command('peering')
    .description('Cluster peering of the mesh service: generate-token, establish, list, read, delete')
    .addCommand(
      new Command('generate-token')
        .description('Generate a token for the cluster named NAME to establish a peering with this one')
        .argument('<name>', 'name of the peer (a lowercase DNS label)')
        .option('--server-external-address <host:port>', 'address the peer dials (repeatable)', collect)
        .option('-m, --meta <key=value>', 'metadata of the peering (repeatable)', collect)
        .addHelpText('after', '\nExample:\n  $ sked peering generate-token dc2 > dc2.token')
        .action(on(generateToken)),
    )
    .addCommand(
      new Command('establish')
        .description('Establish a peering with the cluster that generated TOKEN, naming it NAME here')
        .argument('<name>', 'name of the peer (a lowercase DNS label)')
        .argument('<token>', 'the peering token; - reads stdin')
        .option('-m, --meta <key=value>', 'metadata of the peering (repeatable)', collect)
        .addHelpText(
          'after',
          '\nExample:\n  $ sked peering establish dc1 "$(cat dc2.token)"\n  $ sked peering establish dc1 - < dc2.token',
        )
        .action(on(establish)),
    )
    .addCommand(
      new Command('list')
        .description('List the peerings: name, state, remote datacenter, services, meta')
        .addHelpText('after', '\nExample:\n  $ sked peering list')
        .action(on(list)),
    )
    .addCommand(
      new Command('read')
        .description('Show one peering: state, peer, addresses, stream status')
        .argument('<name>', 'peer name')
        .addHelpText('after', '\nExample:\n  $ sked peering read dc2')
        .action(on(read)),
    )
    .addCommand(
      new Command('delete')
        .description('Delete a peering (it turns TERMINATED on both sides, then goes)')
        .argument('<name>', 'peer name')
        .addHelpText('after', '\nExample:\n  $ sked peering delete dc2')
        .action(on(remove)),
    );
}
