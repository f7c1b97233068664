/**
 * The scheduling service's query parameters and the shapes of its read and write endpoints, for the
 * routing table in `scheduler.ts`.
 *
 * @packageDocumentation
 */
import type { EndpointSpec, QueryParameterSpec } from './types.js';

const bool = (description: string): QueryParameterSpec => ({ description, schema: { type: 'boolean' } });
const text = (description: string): QueryParameterSpec => ({ description, schema: { type: 'string' } });
const int = (description: string): QueryParameterSpec => ({
  description,
  schema: { type: 'integer', minimum: 0 },
});

export const parameters: Record<string, QueryParameterSpec> = {
  namespace: text(
    'Target namespace (default `default`); `*` on lists means every namespace the token may read.',
  ),
  region: text("Target region (default: the serving agent's region)."),
  pretty: {
    description: 'Indented JSON (present, or any value but `false`/`0`).',
    schema: { type: 'string' },
  },
  stale: { description: 'Let any server answer the read.', schema: { type: 'string' } },
  index: int('Blocking query: wait until the index of what is read passes this value.'),
  wait: {
    description:
      'Longest blocking time, a duration such as `10s` or `5m` (default 5m, at most 10m, plus up to wait/16).',
    schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h)$' },
  },
  filter: text(
    'Filter expression, evaluated on the server against the whole stored object; not with `prefix`.',
  ),
  per_page: { description: 'Page size.', schema: { type: 'integer', minimum: 1 } },
  next_token: text('The `X-Svc-NextToken` of the previous page.'),
  reverse: bool('Reverse the order.'),
  prefix: text('ID prefix (hex prefixes need an even number of characters); not with `filter`.'),
  meta: bool("Add each job's Meta to the list items."),
  all: bool('Include the allocations/deployments of an earlier job with the same ID.'),
  diffs: bool('Fill Diffs with the structured diff between each version and the previous one.'),
  version: int('The job version.'),
  resources: bool('Include AllocatedResources.'),
  task_states: bool('Include TaskStates (default true; `false` shrinks large answers).'),
  type: text('Volume type: only `csi` is supported; omitted, the list is empty.'),
  node_id: text('Node ID prefix (even number of hex characters).'),
  plugin_id: text('Plugin ID prefix (a plain string prefix: plugin IDs are names such as `ebs0`).'),
  force: bool('Deregister at once, dropping the claims of terminal allocations.'),
  node: text('The node to detach the volume from.'),
  eval_priority: int('Overrides the priority of the evaluation.'),
  global: bool('Stop a multi-region job in every region.'),
  purge: bool('Remove the job at once instead of leaving it to garbage collection.'),
  no_shutdown_delay: bool('Ignore the group and task shutdown_delay.'),
  IdempotencyToken: text('Prevents more than one dispatch for the same token.'),
  topic: {
    description: '`Topic` or `Topic:key`, repeatable (default `*:*`).',
    schema: { type: 'array', items: { type: 'string' } },
  },
  command: text('JSON-encoded array of the command and its arguments.'),
  task: text('The task to run the command in.'),
  tty: bool('Allocate a terminal.'),
  ws_handshake: bool('The first WebSocket frame carries the token (`{version: 1, auth_token}`).'),
};

export const read = (
  path: string,
  operationId: string,
  summary: string,
  response: EndpointSpec['response'],
  extra: Partial<EndpointSpec> = {},
): EndpointSpec => ({
  methods: ['get'],
  path,
  operationId,
  summary,
  response,
  blocking: true,
  acl: 'namespace:read-job',
  errors: [404],
  ...extra,
});

export const write = (
  path: string,
  operationId: string,
  summary: string,
  body: EndpointSpec['body'],
  response: EndpointSpec['response'],
  extra: Partial<EndpointSpec> = {},
): EndpointSpec => ({
  methods: ['post', 'put'],
  path,
  operationId,
  summary,
  body,
  response,
  acl: 'namespace:submit-job',
  errors: [404],
  ...extra,
});
