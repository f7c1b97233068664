import { describeEndpoints, type EndpointCase } from '../test/endpoint-suite.js';

const allocId = '5456bd7a-9fc0-c0dd-6131-cbee77f57577';

// Every allocation and volume endpoint of spec documents 1 and 2, with the request it must send.
const cases: EndpointCase[] = [
  {
    name: 'allocations.list',
    call: (c) => c.allocations.list(),
    method: 'GET',
    path: '/v1/allocations',
    query: {},
  },
  {
    name: 'allocations.list with every parameter',
    call: (c) =>
      c.allocations.list({
        namespace: '*',
        prefix: '5456bd7a',
        perPage: 5,
        nextToken: '5456bd7a-9fc0-c0dd-6131-cbee77f57577',
        reverse: true,
        resources: true,
        taskStates: false,
      }),
    method: 'GET',
    path: '/v1/allocations',
    query: {
      namespace: '*',
      prefix: '5456bd7a',
      per_page: '5',
      next_token: '5456bd7a-9fc0-c0dd-6131-cbee77f57577',
      reverse: 'true',
      resources: 'true',
      task_states: 'false',
    },
  },
  {
    name: 'allocations.list with taskStates true sends the default (nothing)',
    call: (c) => c.allocations.list({ taskStates: true }),
    method: 'GET',
    path: '/v1/allocations',
    query: {},
  },
  {
    name: 'allocations.read',
    call: (c) => c.allocations.read(allocId),
    method: 'GET',
    path: `/v1/allocation/${allocId}`,
    query: {},
  },
  {
    name: 'allocations.stop',
    call: (c) => c.allocations.stop(allocId, { noShutdownDelay: true }),
    method: 'POST',
    path: `/v1/allocation/${allocId}/stop`,
    query: { no_shutdown_delay: 'true' },
  },
  {
    name: 'allocations.signal',
    call: (c) => c.allocations.signal(allocId, 'SIGHUP', { task: 'web' }),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/signal`,
    query: {},
    body: { Signal: 'SIGHUP', Task: 'web' },
  },
  {
    name: 'allocations.restart',
    call: (c) => c.allocations.restart(allocId, { task: 'web' }),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/restart`,
    query: {},
    body: { Task: 'web' },
  },
  {
    name: 'allocations.restart of every task',
    call: (c) => c.allocations.restart(allocId),
    method: 'POST',
    path: `/v1/client/allocation/${allocId}/restart`,
    query: {},
    body: {},
  },
  {
    name: 'volumes.list sends type=csi',
    call: (c) => c.volumes.list(),
    method: 'GET',
    path: '/v1/volumes',
    query: { type: 'csi' },
  },
  {
    name: 'volumes.list with node and plugin prefixes',
    call: (c) => c.volumes.list({ nodeId: 'ab12', pluginId: 'ebs', prefix: 'vol', perPage: 2 }),
    method: 'GET',
    path: '/v1/volumes',
    query: { type: 'csi', node_id: 'ab12', plugin_id: 'ebs', prefix: 'vol', per_page: '2' },
  },
  {
    name: 'volumes.read',
    call: (c) => c.volumes.read('vol-1'),
    method: 'GET',
    path: '/v1/volume/csi/vol-1',
    query: {},
  },
  {
    name: 'volumes.register',
    call: (c) =>
      c.volumes.register({ ID: 'vol-1', Name: 'data', Namespace: 'prod', PluginID: 'ebs' } as never),
    method: 'PUT',
    path: '/v1/volume/csi/vol-1',
    query: { namespace: 'prod' },
    body: { Volumes: [{ ID: 'vol-1', Name: 'data', Namespace: 'prod', PluginID: 'ebs' }] },
  },
  {
    name: 'volumes.delete',
    call: (c) => c.volumes.delete('vol-1', { force: true }),
    method: 'DELETE',
    path: '/v1/volume/csi/vol-1',
    query: { force: 'true' },
  },
  {
    name: 'volumes.detach',
    call: (c) => c.volumes.detach('vol-1', 'node-1'),
    method: 'DELETE',
    path: '/v1/volume/csi/vol-1/detach',
    query: { node: 'node-1' },
  },
];

describeEndpoints('every allocation and volume endpoint', cases);
