import { afterAll } from 'vitest';
import { createSecretsService, type SecretsService, type SecretsServiceOptions } from '../index.js';

/** A secrets service listening on a free port, with request helpers. */
export interface SecretsHarness {
  readonly url: string;
  readonly service: SecretsService;
  readonly root: string;
  /** Every response body seen (to check that no secret leaks). */
  readonly seen: string[];
  call(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; json: unknown }>;
}

const open: SecretsService[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((s) => s.app.close()));
});

/**
 * Starts a secrets service on 127.0.0.1:0 with root token `root-token` (closed after the file).
 * @param options - Service options.
 * @returns The harness.
 */
export async function startSecrets(options: SecretsServiceOptions = {}): Promise<SecretsHarness> {
  const root = 'root-token';
  const service = createSecretsService({ rootToken: root, ...options });
  open.push(service);
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  const address = service.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const seen: string[] = [];
  return {
    url,
    service,
    root,
    seen,
    async call(method, path, { body, raw, token = root, headers = {} } = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...(token === null ? {} : { 'x-secrets-token': token }), ...headers },
        ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      seen.push(text);
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json };
    },
  };
}
