/**
 * The scheduling service's routing table for the OpenAPI description: every endpoint of spec
 * documents 1 and 2, with the model's schemas for its bodies. Conventions (parameters, headers,
 * errors) follow `design/BEHAVIOUR.md`.
 *
 * @packageDocumentation
 */
import {
  AllocRestartRequest,
  AllocSignalRequest,
  AllocStopResponse,
  EmptyResponse,
} from '../alloc-requests.js';
import { Allocation } from '../allocation.js';
import { Deployment } from '../deployment.js';
import { Evaluation } from '../evaluation.js';
import { EventEnvelope } from '../event.js';
import { ExecClientFrame, ExecServerFrame } from '../exec.js';
import { Job } from '../job.js';
import { JobListStub, JobSubmission, JobSummary } from '../job-reads.js';
import { CsiVolume, CsiVolumeListStub, CsiVolumeRegisterRequest, CsiVolumeWriteResponse } from '../volume.js';
import Type from 'typebox';
import * as requests from '../job-requests.js';
import { blockingReadHeaders, type EndpointSpec, type ServiceSpec } from './types.js';
import { parameters, read, write } from './scheduler-parameters.js';

const endpoints: EndpointSpec[] = [
  read('/v1/jobs', 'listJobs', 'List jobs', Type.Array(JobListStub), {
    paginated: true,
    query: ['meta'],
    acl: 'namespace:list-jobs',
    errors: [],
  }),
  write(
    '/v1/jobs',
    'createJob',
    'Create (register) a job',
    requests.JobRegisterRequest,
    requests.JobRegisterResponse,
    {
      errors: [],
    },
  ),
  write(
    '/v1/jobs/parse',
    'parseJob',
    'Parse a job file into a Job',
    requests.JobParseRequest,
    requests.JobParseResponse,
    {
      acl: 'namespace:parse-job or namespace:submit-job (either suffices, as the service checks)',
      errors: [],
    },
  ),
  read('/v1/job/{job_id}', 'readJob', 'Read a job', Job),
  write(
    '/v1/job/{job_id}',
    'updateJob',
    'Register a new version of a job',
    requests.JobRegisterRequest,
    requests.JobEvalResponse,
  ),
  {
    methods: ['delete'],
    path: '/v1/job/{job_id}',
    operationId: 'stopJob',
    summary: 'Stop (deregister) a job',
    query: ['eval_priority', 'global', 'purge', 'no_shutdown_delay'],
    response: requests.JobDeregisterResponse,
    acl: 'namespace:submit-job',
    errors: [404],
  },
  read(
    '/v1/job/{job_id}/submission',
    'readJobSubmission',
    'Read the source a job version was submitted with',
    JobSubmission,
    {
      query: ['version'],
      requiredQuery: ['version'],
    },
  ),
  read(
    '/v1/job/{job_id}/versions',
    'listJobVersions',
    'List the versions of a job, newest first',
    requests.JobVersionsResponse,
    {
      query: ['diffs'],
    },
  ),
  read(
    '/v1/job/{job_id}/allocations',
    'listJobAllocations',
    "List a job's allocations",
    Type.Array(Allocation),
    {
      query: ['all'],
    },
  ),
  read(
    '/v1/job/{job_id}/evaluations',
    'listJobEvaluations',
    "List a job's evaluations",
    Type.Array(Evaluation),
  ),
  read(
    '/v1/job/{job_id}/deployments',
    'listJobDeployments',
    "List a job's deployments",
    Type.Array(Deployment),
    {
      query: ['all'],
    },
  ),
  read(
    '/v1/job/{job_id}/deployment',
    'readJobLatestDeployment',
    "Read a job's most recent deployment (null when none)",
    Type.Union([Deployment, Type.Null()]),
  ),
  read('/v1/job/{job_id}/summary', 'readJobSummary', "Read a job's summary", JobSummary),
  write(
    '/v1/job/{job_id}/plan',
    'planJob',
    'Dry-run the scheduler for a job',
    requests.JobPlanRequest,
    requests.JobPlanResponse,
  ),
  write(
    '/v1/job/{job_id}/dispatch',
    'dispatchJob',
    'Dispatch an instance of a parameterized job',
    requests.JobDispatchRequest,
    requests.JobDispatchResponse,
    {
      query: ['IdempotencyToken'],
      acl: 'namespace:dispatch-job',
      bodyRequired: false,
    },
  ),
  write(
    '/v1/job/{job_id}/revert',
    'revertJob',
    'Revert a job to an older version',
    requests.JobRevertRequest,
    requests.JobEvalResponse,
  ),
  write(
    '/v1/job/{job_id}/stable',
    'setJobStability',
    'Mark a job version stable or not',
    requests.JobStabilityRequest,
    requests.JobStabilityResponse,
  ),
  write(
    '/v1/job/{job_id}/evaluate',
    'evaluateJob',
    'Force a new evaluation of a job',
    requests.JobEvaluateRequest,
    requests.JobEvalResponse,
    {
      bodyRequired: false,
    },
  ),
  write(
    '/v1/job/{job_id}/periodic/force',
    'forcePeriodicJob',
    'Launch a periodic job now',
    undefined,
    requests.JobPeriodicForceResponse,
    {
      acl: 'namespace:dispatch-job or namespace:submit-job',
    },
  ),
  read('/v1/allocations', 'listAllocations', 'List allocations', Type.Array(Allocation), {
    paginated: true,
    query: ['resources', 'task_states'],
    errors: [],
  }),
  read('/v1/allocation/{alloc_id}', 'readAllocation', 'Read an allocation (full UUID)', Allocation),
  write(
    '/v1/allocation/{alloc_id}/stop',
    'stopAllocation',
    'Stop an allocation',
    undefined,
    AllocStopResponse,
    {
      acl: 'namespace:alloc-lifecycle',
      query: ['no_shutdown_delay'],
    },
  ),
  write(
    '/v1/client/allocation/{alloc_id}/signal',
    'signalAllocation',
    "Send a signal to an allocation's tasks",
    AllocSignalRequest,
    EmptyResponse,
    {
      acl: 'namespace:alloc-lifecycle',
    },
  ),
  write(
    '/v1/client/allocation/{alloc_id}/restart',
    'restartAllocation',
    "Restart an allocation's tasks",
    AllocRestartRequest,
    EmptyResponse,
    {
      acl: 'namespace:alloc-lifecycle',
      bodyRequired: false,
    },
  ),
  {
    methods: ['get'],
    path: '/v1/client/allocation/{alloc_id}/exec',
    operationId: 'execAllocation',
    summary: 'Run a command in a task of an allocation, over a WebSocket (upgrade, then JSON frames)',
    query: ['command', 'task', 'tty', 'ws_handshake'],
    requiredQuery: ['command', 'task'],
    websocket: {
      clientFrame: ExecClientFrame,
      serverFrame: ExecServerFrame,
      description:
        'Each text frame is one JSON object. Client to server: `{"version": 1, "auth_token": "<token>"}` first when `ws_handshake=true`, then `{"stdin": {"data": "<base64>"}}`, `{"stdin": {"close": true}}`, `{"tty_size": {"height": h, "width": w}}`, and `{}` heartbeats. Server to client: `{"stdout": {"data": "<base64>"}}`, `{"stdout": {"close": true}}`, the same for `stderr`, `{}` heartbeats, and last `{"exited": true, "result": {"exit_code": n}}`, after which the server closes the socket. Bad parameters, an unknown allocation or task, another region and a refused token are not HTTP errors: the upgrade succeeds and the socket is closed with 1008 and the message as the reason.',
      closeCodes: {
        1000: 'Normal: after the `exited` frame.',
        1008: 'Refused: bad parameters, unknown allocation or task, another region, missing or insufficient token (the reason says which).',
        1011: 'Server fault: the command could not be run.',
      },
    },
    acl: 'namespace:alloc-exec, and namespace:alloc-node-exec when the task uses the raw_exec driver',
    errors: [],
  },
  read('/v1/volumes', 'listVolumes', 'List volumes', Type.Array(CsiVolumeListStub), {
    paginated: true,
    query: ['type', 'node_id', 'plugin_id'],
    acl: 'namespace:csi-list-volume',
    errors: [],
  }),
  read('/v1/volume/csi/{volume_id}', 'readVolume', 'Read a volume with its allocations', CsiVolume, {
    acl: 'namespace:csi-read-volume',
  }),
  write(
    '/v1/volume/csi/{volume_id}',
    'registerVolume',
    'Register an external volume',
    CsiVolumeRegisterRequest,
    CsiVolumeWriteResponse,
    {
      methods: ['put', 'post'],
      acl: 'namespace:csi-write-volume',
      errors: [],
    },
  ),
  {
    methods: ['delete'],
    path: '/v1/volume/csi/{volume_id}',
    operationId: 'deregisterVolume',
    summary: 'Deregister a volume',
    query: ['force'],
    response: CsiVolumeWriteResponse,
    acl: 'namespace:csi-write-volume',
    errors: [404],
  },
  {
    methods: ['delete'],
    path: '/v1/volume/csi/{volume_id}/detach',
    operationId: 'detachVolume',
    summary: 'Detach a volume from a node',
    query: ['node'],
    requiredQuery: ['node'],
    response: CsiVolumeWriteResponse,
    acl: 'namespace:csi-write-volume',
    errors: [404],
  },
  {
    methods: ['get'],
    path: '/v1/event/stream',
    operationId: 'streamEvents',
    summary:
      'Follow the event stream (newline-delimited JSON: one EventEnvelope per line, `{}` for a heartbeat)',
    query: ['index', 'topic'],
    response: EventEnvelope,
    transport: 'ndjson',
    acl: 'per topic (see the spec)',
    errors: [],
  },
  {
    methods: ['get'],
    path: '/v1/status/leader',
    operationId: 'readLeader',
    security: [],
    summary: 'The address of the leader',
    response: Type.String(),
    errors: [],
  },
  {
    methods: ['put'],
    path: '/v1/system/gc',
    operationId: 'collectGarbage',
    summary: 'Force a garbage collection of everything finished (empty answer; X-Svc-Index after it)',
    acl: 'management',
    responseHeaders: {
      'X-Svc-Index': {
        description: 'The index after the collection.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    errors: [],
  },
  {
    methods: ['get'],
    path: '/v1/openapi.json',
    operationId: 'readOpenApi',
    security: [],
    summary: 'This description (OpenAPI 3.1) of the three APIs',
    response: Type.Object({ openapi: Type.String() }),
    errors: [],
  },
  {
    methods: ['get'],
    path: '/v1/status/peers',
    operationId: 'listPeers',
    security: [],
    summary: 'The addresses of the servers',
    response: Type.Array(Type.String()),
    errors: [],
  },
];

/** The scheduling service (default port 4646). */
export const schedulerService: ServiceSpec = {
  tag: 'scheduler',
  description: 'The cluster workload scheduling service: jobs, allocations, volumes, events, exec.',
  server: {
    url: 'http://127.0.0.1:4646',
    description: 'The scheduling service (sked-server --scheduler-port)',
  },
  security: ['svcToken', 'bearer'],
  error: {
    mediaType: 'text/plain',
    schema: { type: 'string', description: 'The message, one sentence.' },
    example: 'job not found',
  },
  readHeaders: blockingReadHeaders('X-Svc'),
  nextTokenHeader: 'X-Svc-NextToken',
  common: ['namespace', 'region', 'pretty'],
  blockingQuery: ['index', 'wait', 'stale'],
  pagingQuery: ['filter', 'per_page', 'next_token', 'reverse', 'prefix'],
  parameters,
  errors: [400, 403, 405, 413],
  endpoints,
};
