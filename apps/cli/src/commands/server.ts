import { Command } from 'commander';

import { schedulerContext } from '../context.js';
import { handler } from '../handler.js';
import { table, toJson } from '../output.js';

/** One member of `GET /v1/agent/members`, as the sample server answers it. */
interface AgentMember {
  readonly Name: string;
  readonly Addr: string;
  readonly Port: number;
  readonly Status: string;
  readonly Tags?: { readonly region?: string; readonly dc?: string } | null;
}

/** The body of `GET /v1/agent/members`. */
interface AgentMembers {
  readonly ServerName?: string;
  readonly Members?: readonly AgentMember[] | null;
}

async function members(command: Command): Promise<void> {
  const ctx = schedulerContext(command);
  // the agent endpoint is not in the client's API (it is an operator's view): the transport calls
  // it with the client's address, token and region
  const { data } = await ctx.client.transport.request<AgentMembers>({
    method: 'GET',
    path: '/v1/agent/members',
  });
  if (ctx.output.json) {
    ctx.output.out(toJson(data));
    return;
  }
  const rows = (data.Members ?? []).map((m) => [
    m.Name,
    m.Addr,
    m.Port,
    m.Status,
    // each region is one server, the leader of its region
    m.Status === 'alive' ? 'true' : 'false',
    m.Tags?.dc ?? '',
    m.Tags?.region ?? '',
  ]);
  ctx.output.out(table(['Name', 'Address', 'Port', 'Status', 'Leader', 'Datacenter', 'Region'], rows));
}

/** The `server` command. */
export function serverCommand(): Command {
  return new Command('server')
    .description('Servers of the regions')
    .addCommand(
      new Command('members')
        .description('List the servers of every region the server knows, and whether each answers')
        .addHelpText('after', '\nExample:\n  $ sked server members\n  $ sked server members --json')
        .action(handler(members)),
    );
}
