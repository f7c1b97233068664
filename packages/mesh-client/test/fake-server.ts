import type { FetchInit, FetchLike } from '@sked/http';

/** One request the fake fetch received. */
export interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: unknown;
}

/** An answer of the fake fetch. */
export interface Answer {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A fetch that records requests and answers with `respond` (JSON bodies, or text for strings). */
export function recorder(respond: (seen: Seen) => Answer | Promise<Answer> = () => ({ body: {} })): {
  fetch: FetchLike;
  seen: Seen[];
} {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (input: string, init: FetchInit) => {
    const text = typeof init.body === 'string' ? init.body : '';
    const request: Seen = {
      method: init.method ?? 'GET',
      url: new URL(input),
      headers: new Headers(init.headers as ConstructorParameters<typeof Headers>[0]),
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    seen.push(request);
    const answer = await respond(request);
    const isText = typeof answer.body === 'string';
    return new Response(
      answer.body === undefined ? null : isText ? (answer.body as string) : JSON.stringify(answer.body),
      {
        status: answer.status ?? 200,
        headers: { 'content-type': isText ? 'text/plain' : 'application/json', ...answer.headers },
      },
    );
  };
  return { fetch, seen };
}

/** A peering token of the right shape (base64 of JSON). */
export const TOKEN = Buffer.from(
  JSON.stringify({
    CA: null,
    ServerAddresses: ['127.0.0.1:8503'],
    ServerName: 'server.dc1.peering.x.mesh',
    PeerID: '00000000-0000-4000-8000-000000000000',
    EstablishmentSecret: 'secret',
    Remote: { Partition: 'default', Datacenter: 'dc1' },
  }),
).toString('base64');
