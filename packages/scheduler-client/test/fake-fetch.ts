import { createTransport, type FetchInit, type FetchLike } from '@sked/http';

import { createClient, type SchedulerClient } from '../src/index.js';

/** One request the fake `fetch` received. */
export interface FakeCall {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  /** The query string as an object (each parameter once). */
  readonly query: Record<string, string>;
  readonly headers: Headers;
  /** The body, parsed as JSON when it is JSON. */
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
}

/** What the fake server answers. */
export interface FakeReply {
  readonly status?: number;
  /** JSON body (ignored when `text` is set). */
  readonly json?: unknown;
  /** Plain-text body. */
  readonly text?: string;
  readonly headers?: Record<string, string>;
}

export type Responder = (call: FakeCall) => FakeReply | Promise<FakeReply>;

/** A `fetch` that records every call and answers with `respond`. */
export function fakeFetch(respond: Responder = () => ({ json: {} })): {
  fetch: FetchLike;
  calls: FakeCall[];
} {
  const calls: FakeCall[] = [];
  const fetchImpl = async (input: string, init: FetchInit): Promise<Response> => {
    const request = new Request(input, init as RequestInit);
    const url = new URL(request.url);
    const raw = await request.text();
    let body: unknown = undefined;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: FakeCall = {
      method: request.method,
      url,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body,
      signal: init.signal ?? undefined,
    };
    calls.push(call);
    init.signal?.throwIfAborted();
    const reply = await respond(call);
    // Like a real fetch: an answer that arrives after an abort is dropped.
    init.signal?.throwIfAborted();
    const headers = new Headers({
      'X-Svc-Index': '1',
      'X-Svc-LastContact': '0',
      'X-Svc-KnownLeader': 'true',
      ...reply.headers,
    });
    if (reply.text !== undefined) {
      headers.set('Content-Type', 'text/plain; charset=utf-8');
      return new Response(reply.text, { status: reply.status ?? 200, headers });
    }
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify(reply.json ?? null), { status: reply.status ?? 200, headers });
  };
  return { fetch: fetchImpl, calls };
}

export const address = 'http://sked.test:4646';

/** A client on a fake `fetch`. */
export function fakeClient(
  respond?: Responder,
  options: { token?: string; namespace?: string; region?: string } = {},
): { client: SchedulerClient; calls: FakeCall[] } {
  const { fetch, calls } = fakeFetch(respond);
  const client = createClient(createTransport({ address, fetch, env: false, ...options }));
  return { client, calls };
}
