/**
 * The servers the fuzzer attacks: one with ACLs off (the demo jobs loaded) and one with ACLs on
 * (a management token, a read-only token), each with its three listeners; the state snapshots it
 * compares around a refused write; and the probes that show a listener is alive.
 *
 * @packageDocumentation
 */
import type { Role } from './cases.js';
import type { Listener } from './openapi.js';
import { sendRaw, type RawResponse } from './raw-http.js';
import { startTestServer, type TestServer } from '../server.js';

/** The secrets root token of the fuzzed servers. */
const ROOT = 'fuzz-root-token';

/** ACL tokens of the server with ACLs on. */
const ACL_TOKENS = {
  tokens: [
    { name: 'ops', secret: 'fuzz-ops-secret', management: true },
    {
      name: 'reader',
      secret: 'fuzz-read-secret',
      namespaces: { '*': ['list-jobs', 'read-job', 'csi-list-volume', 'csi-read-volume'] },
      peering: 'read',
      node: 'read',
    },
  ],
};

/** A fuzzed server. */
export interface Target {
  readonly acl: boolean;
  readonly test: TestServer;
  readonly ports: Readonly<Record<Listener, number>>;
  /** The headers that carry a role's token to a listener. */
  tokenHeaders(listener: Listener, role: Role): Record<string, string>;
  /** A fingerprint of what users wrote to a listener (touched: the path's names to read too). */
  snapshot(listener: Listener, touched: readonly string[]): Promise<string[]>;
  /** Undefined when the listener answers its probe, else what went wrong. */
  probe(listener: Listener): Promise<string | undefined>;
  /** Existing values of path parameters (job, allocation, volume, group, user and peering names). */
  pools(): Promise<Map<string, string[]>>;
  /** A peering token generated for another name. */
  readonly peeringToken: string;
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

async function call(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawResponse> {
  return sendRaw(port, {
    method,
    target,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  });
}

function json(response: RawResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Evaluations only a user's write makes (the cluster makes others by itself: failures, deployments). */
const userTriggers = new Set(['job-register', 'job-deregister', 'alloc-stop', 'periodic-job']);

/**
 * What users wrote to the scheduler: table sizes, every job's JobModifyIndex, every volume's
 * ModifyIndex, the evaluations users caused. Not `Stable`, which the deployment watcher sets by
 * itself once a deployment is healthy.
 */
function schedulerSnapshot(test: TestServer): string[] {
  const { store } = test.server.scheduler.cluster;
  const sizes = [store.jobs, store.jobVersions, store.submissions, store.volumes].map((table) => table.size);
  const jobs = [...store.jobs.items.values({})].map(
    (job) => `${job.Namespace}/${job.ID}@${job.JobModifyIndex}`,
  );
  const volumes = [...store.volumes.items.values({})].map((volume) => `${volume.ID}@${volume.ModifyIndex}`);
  const evals = [...store.evals.items.values({})]
    // A blocked evaluation (made later by the scheduler for what did not fit) keeps the trigger of
    // the one it follows: only those without a PreviousEval are a user's.
    .filter((e) => userTriggers.has(e.TriggeredBy) && (e.PreviousEval ?? '') === '')
    .map((e) => `evaluation ${e.ID} ${e.TriggeredBy} of ${e.JobID}`);
  return [`sizes ${sizes.join(',')}`, ...jobs, ...volumes, ...evals];
}

/**
 * Starts a server to fuzz.
 * @param acl - With ACLs on.
 * @returns The target.
 */
export async function startTarget(acl: boolean): Promise<Target> {
  const test = await startTestServer({
    demo: true,
    secretsRootToken: ROOT,
    // Deleted peerings stay readable for the whole run: no state changes behind the fuzzer's back.
    meshCleanupMs: 3_600_000,
    ...(acl ? { aclConfig: ACL_TOKENS } : {}),
  });
  const ports = {
    scheduler: portOf(test.server.scheduler.url),
    secrets: portOf(test.server.secrets.url),
    mesh: portOf(test.server.mesh.url),
  };
  const secrets: Record<Role, string | undefined> = {
    good: ROOT,
    reader: 'fuzz-not-a-root-token',
    none: undefined,
    bogus: 'bogus',
  };
  const others: Record<Role, string | undefined> = {
    good: acl ? 'fuzz-ops-secret' : undefined,
    reader: acl ? 'fuzz-read-secret' : undefined,
    none: undefined,
    bogus: acl ? 'bogus' : undefined,
  };
  const tokenHeaders = (listener: Listener, role: Role): Record<string, string> => {
    const token = listener === 'secrets' ? secrets[role] : others[role];
    if (token === undefined) return {};
    if (listener === 'secrets') return { 'x-secrets-token': token };
    return listener === 'mesh' ? { 'x-mesh-token': token } : { 'x-svc-token': token };
  };
  const admin = (listener: Listener): Record<string, string> => tokenHeaders(listener, 'good');
  const generated = await call(ports.mesh, 'POST', '/v1/peering/token', admin('mesh'), {
    PeerName: 'fuzz-seed',
  });
  const peeringToken = (json(generated) as { PeeringToken?: string } | undefined)?.PeeringToken ?? '';
  // Something to read: a group, a user and a volume that exist.
  await call(ports.secrets, 'POST', '/v1/auth/ldap/groups/devs', admin('secrets'), { policies: 'read' });
  await call(ports.secrets, 'POST', '/v1/auth/ldap/users/alice', admin('secrets'), { groups: 'devs' });
  await call(ports.scheduler, 'PUT', '/v1/volume/csi/fuzz-vol', admin('scheduler'), {
    Volumes: [{ ID: 'fuzz-vol', Name: 'v', PluginID: 'p' }],
  });
  const secretsSnapshot = async (touched: readonly string[]): Promise<string[]> => {
    const reads = ['/v1/auth/ldap/config', '/v1/auth/ldap/groups?list=true', '/v1/auth/ldap/users?list=true'];
    for (const name of touched) reads.push(`/v1/auth/ldap/groups/${name}`, `/v1/auth/ldap/users/${name}`);
    const answers = await Promise.all(
      reads.map((path) => call(ports.secrets, 'GET', path, admin('secrets'))),
    );
    return answers.map((answer, i) => {
      const value = json(answer) as { data?: unknown } | undefined;
      return `${reads[i]}: ${answer.status} ${JSON.stringify(value?.data ?? value)}`;
    });
  };
  const meshSnapshot = async (): Promise<string[]> => {
    const answer = await call(ports.mesh, 'GET', '/v1/peerings', admin('mesh'));
    const peerings = (json(answer) ?? []) as {
      Name: string;
      ID: string;
      State: string;
      ModifyIndex: number;
    }[];
    return peerings.map((p) => `${p.Name} ${p.ID} ${p.State} @${p.ModifyIndex}`);
  };
  const probes: Record<Listener, [string, Record<string, string>]> = {
    scheduler: ['/v1/status/leader', {}],
    secrets: ['/v1/auth/token/lookup-self', admin('secrets')],
    mesh: ['/v1/peerings', admin('mesh')],
  };
  return {
    acl,
    test,
    ports,
    tokenHeaders,
    peeringToken,
    async snapshot(listener, touched) {
      if (listener === 'scheduler') return schedulerSnapshot(test);
      return listener === 'secrets' ? secretsSnapshot(touched) : meshSnapshot();
    },
    async probe(listener) {
      const [path, headers] = probes[listener];
      try {
        const answer = await call(ports[listener], 'GET', path, headers);
        return answer.status === 200 ? undefined : `probe GET ${path} answered ${answer.status}`;
      } catch (error) {
        return `probe GET ${path} failed: ${(error as Error).message}`;
      }
    },
    async pools() {
      const { store } = test.server.scheduler.cluster;
      const jobs = [...store.jobs.items.values({})].map((job) => job.ID);
      const allocs = [...store.allocs.items.values({})].slice(0, 20).map((alloc) => alloc.ID);
      const volumes = [...store.volumes.items.values({})].map((volume) => volume.ID);
      const list = async (path: string): Promise<string[]> => {
        const value = json(await call(ports.secrets, 'GET', path, admin('secrets'))) as
          { data?: { keys?: string[] } } | undefined;
        return value?.data?.keys ?? [];
      };
      const peerings = (
        (json(await call(ports.mesh, 'GET', '/v1/peerings', admin('mesh'))) ?? []) as {
          Name: string;
        }[]
      ).map((p) => p.Name);
      return new Map([
        ['job_id', jobs],
        ['alloc_id', allocs],
        ['volume_id', [...volumes, 'fuzz-vol']],
        ['name', [...(await list('/v1/auth/ldap/groups?list=true')), ...peerings, 'devs']],
        ['username', [...(await list('/v1/auth/ldap/users?list=true')), 'alice']],
      ]);
    },
  };
}
