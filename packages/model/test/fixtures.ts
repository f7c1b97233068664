/**
 * Example bodies of the spec, one JSON file each in `test/fixtures/`, with the schema each must match.
 */
import { readFileSync, readdirSync } from 'node:fs';

import Type, { type TSchema } from 'typebox';

import * as M from '../src/index.js';

/** Fixture file name (without `.json`) -> the schema it must match. */
export const fixtureSchemas: Readonly<Record<string, TSchema>> = {
  'job-input': M.JobInput,
  job: M.Job,
  'job-summary': M.JobSummary,
  'job-list': Type.Array(M.JobListStub),
  'job-submission': M.JobSubmission,
  evaluation: M.Evaluation,
  'evaluation-blocked': M.Evaluation,
  deployment: M.Deployment,
  'job-register-request': M.JobRegisterRequest,
  'job-update-request': M.JobRegisterRequest,
  'job-register-response': M.JobRegisterResponse,
  'job-eval-response': M.JobEvalResponse,
  'job-parse-request': M.JobParseRequest,
  'job-dispatch-request': M.JobDispatchRequest,
  'job-dispatch-response': M.JobDispatchResponse,
  'job-revert-request': M.JobRevertRequest,
  'job-stability-request': M.JobStabilityRequest,
  'job-stability-response': M.JobStabilityResponse,
  'job-evaluate-request': M.JobEvaluateRequest,
  'job-plan-request': M.JobPlanRequest,
  'job-plan-response': M.JobPlanResponse,
  'job-versions-response': M.JobVersionsResponse,
  'job-periodic-force-response': M.JobPeriodicForceResponse,
  allocation: M.Allocation,
  'allocation-list': Type.Array(M.Allocation),
  'alloc-stop-response': M.AllocStopResponse,
  'alloc-signal-request': M.AllocSignalRequest,
  'alloc-signal-request-signal-only': M.AllocSignalRequest,
  'alloc-restart-request': M.AllocRestartRequest,
  'empty-response': M.EmptyResponse,
  'task-state-all-events': M.TaskState,
  'volume-list': Type.Array(M.CsiVolumeListStub),
  volume: M.CsiVolume,
  'volume-register-request': M.CsiVolumeRegisterRequest,
  'exec-client-auth': M.ExecClientFrame,
  'exec-client-stdin': M.ExecClientFrame,
  'exec-client-stdin-close': M.ExecClientFrame,
  'exec-client-tty-size': M.ExecClientFrame,
  'exec-client-heartbeat': M.ExecClientFrame,
  'exec-server-stdout': M.ExecServerFrame,
  'exec-server-stdout-close': M.ExecServerFrame,
  'exec-server-stderr': M.ExecServerFrame,
  'exec-server-stderr-close': M.ExecServerFrame,
  'exec-server-exited': M.ExecServerFrame,
  'exec-server-heartbeat': M.ExecServerFrame,
  node: M.Node,
  'event-envelope-node': M.EventEnvelope,
  'event-envelope-heartbeat': M.EventEnvelope,
  'event-envelope-heartbeat-empty': M.EventEnvelope,
  'event-envelope-job': M.EventEnvelope,
  'ldap-config-request': M.LdapConfigRequest,
  'ldap-config-request-min': M.LdapConfigRequest,
  'ldap-config-response': M.LdapConfigResponse,
  'ldap-group-list-response': M.LdapListResponse,
  'ldap-group-response': M.LdapGroupResponse,
  'ldap-group-write-request': M.LdapGroupWriteRequest,
  'ldap-user-list-response': M.LdapListResponse,
  'ldap-user-response': M.LdapUserResponse,
  'ldap-user-write-request': M.LdapUserWriteRequest,
  'ldap-login-request': M.LdapLoginRequest,
  'ldap-login-response': M.LdapLoginResponse,
  peering: M.Peering,
  'peering-list': Type.Array(M.Peering),
  'peering-generate-token-request': M.PeeringGenerateTokenRequest,
  'peering-generate-token-response': M.PeeringGenerateTokenResponse,
  'peering-establish-request': M.PeeringEstablishRequest,
  'peering-establish-response': M.PeeringEstablishResponse,
};

const directory = new URL('./fixtures/', import.meta.url);

/** Names of every fixture file present (without `.json`). */
export function fixtureNames(): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

/** Reads and parses one fixture. */
export function readFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`${name}.json`, directory), 'utf8')) as unknown;
}
