/**
 * The console's clients: the published `@sked/scheduler-client`, `@sked/secrets-client` and
 * `@sked/mesh-client`, pointed at the origin that served the page. The scheduling service is that
 * origin; the secrets and mesh services are reached through it (`/ui/api/secrets`, `/ui/api/mesh`:
 * a page may only talk to its own origin). Nothing is read from an environment, nothing is logged.
 */
import { createMeshClient, type MeshClient } from '@sked/mesh-client';
import { createSchedulerClient, type SchedulerClient } from '@sked/scheduler-client';
import { createSecretsClient, type SecretsClient } from '@sked/secrets-client';

/** The fetch the transports get (`FetchLike` of `@sked/http`). */
type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Sends the secrets service's `LIST` as the `GET ?list=true` the service treats the same: a request
 * line with `LIST` does not pass the page's own listener (Node's HTTP parser knows no such method).
 * @param input - The URL.
 * @param init - The request.
 * @returns The answer.
 */
export const listAsGet: Fetch = (input, init) => {
  if (init.method !== 'LIST') return fetch(input, init);
  const url = new URL(input);
  url.searchParams.set('list', 'true');
  return fetch(url.href, { ...init, method: 'GET' });
};

const pageFetch: Fetch = (input, init) => fetch(input, init);

const cache = new Map<string, unknown>();

function memo<T>(key: string, make: () => T): T {
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as T;
}

/**
 * The scheduling service client for a token.
 * @param token - The ACL token, when ACLs are on.
 * @returns The client (one per token).
 */
export function schedulerClient(token: string | undefined): SchedulerClient {
  return memo(`scheduler\0${token ?? ''}`, () =>
    createSchedulerClient({ address: location.origin, token, env: false, fetch: pageFetch }),
  );
}

/**
 * The secrets service client for a token (through `/ui/api/secrets`).
 * @param token - The secrets service token.
 * @returns The client (one per token).
 */
export function secretsClient(token: string | undefined): SecretsClient {
  return memo(`secrets\0${token ?? ''}`, () =>
    createSecretsClient({
      address: `${location.origin}/ui/api/secrets`,
      token,
      env: false,
      fetch: listAsGet,
    }),
  );
}

/**
 * The mesh service client for a token (through `/ui/api/mesh`); the mesh service takes the
 * server's ACL tokens.
 * @param token - The ACL token, when ACLs are on.
 * @returns The client (one per token).
 */
export function meshClient(token: string | undefined): MeshClient {
  return memo(`mesh\0${token ?? ''}`, () =>
    createMeshClient({ address: `${location.origin}/ui/api/mesh`, token, env: false, fetch: pageFetch }),
  );
}
