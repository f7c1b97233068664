/**
 * The region endpoints of every member: `GET /v1/regions` (every known region, sorted; no token
 * needed, as the service's), `GET /v1/agent/members` (the members and how they last answered;
 * `node:read`) and the membership exchange between members (`POST /v1/internal/regions/sync`; a
 * management token when ACLs are on).
 */
import type { FastifyInstance } from 'fastify';
import { checkRegion, type Query } from '../../http/conventions.js';
import { sendJson } from '../../http/app.js';
import { badRequest } from '../../http/errors.js';
import { requireManagement, requireNode, type Acl } from '../acl/index.js';
import { readSyncMessage, SYNC_PATH, type SyncMessage } from './sync.js';
import type { MemberTable } from './table.js';

/** What the region routes need. */
export interface RegionRoutesContext {
  /** This member's region. */
  readonly region: string;
  /** The membership table. */
  readonly table: MemberTable;
  /** The server's ACL. */
  readonly acl: Acl;
  /** Told after a peer's exchange changed the table (push the news to the others). */
  readonly changed: () => void;
}

/** One member in `GET /v1/agent/members`, in the service's shape. */
export interface AgentMember {
  readonly Name: string;
  readonly Addr: string;
  readonly Port: number;
  readonly Status: 'alive' | 'failed' | 'unknown';
  readonly Tags: { readonly region: string; readonly dc: string; readonly address: string };
}

function agentMember(
  record: { Name: string; Address: string; Region: string; Datacenter: string },
  status: AgentMember['Status'],
): AgentMember {
  const url = new URL(record.Address);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return {
    Name: record.Name,
    Addr: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    Port: port,
    Status: status,
    Tags: { region: record.Region, dc: record.Datacenter, address: record.Address },
  };
}

/**
 * Registers the region endpoints.
 * @param app - The scheduling service's fastify instance.
 * @param ctx - Region, table, ACL and the change callback.
 */
export function registerRegionRoutes(app: FastifyInstance, ctx: RegionRoutesContext): void {
  app.get('/v1/regions', (request, reply) => {
    checkRegion((request.query ?? {}) as Query, ctx.region);
    return sendJson(request, reply, ctx.table.regions());
  });

  app.get('/v1/agent/members', (request, reply) => {
    checkRegion((request.query ?? {}) as Query, ctx.region);
    requireNode(ctx.acl, request, 'read');
    const self = ctx.table.self;
    const members = [
      agentMember(self, 'alive'),
      ...ctx.table.others().map((member) => agentMember(member, member.status)),
    ].sort((a, b) => (a.Tags.region < b.Tags.region ? -1 : a.Tags.region > b.Tags.region ? 1 : 0));
    return sendJson(request, reply, {
      ServerName: self.Name,
      ServerRegion: self.Region,
      ServerDC: self.Datacenter,
      Members: members,
    });
  });

  app.post(SYNC_PATH, (request, reply) => {
    if (ctx.acl.enabled) requireManagement(ctx.acl, request);
    const read = readSyncMessage(request.body);
    if ('error' in read) throw badRequest(`Invalid membership exchange: ${read.error}`);
    const { Self, Members } = read.message;
    if (ctx.table.merge([Self, ...Members], Self.Region)) ctx.changed();
    const answer: SyncMessage = { Self: ctx.table.self, Members: ctx.table.records() };
    return sendJson(request, reply, answer);
  });
}
