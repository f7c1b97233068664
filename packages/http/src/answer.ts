/** Reading an answer: the body of a success, the message of a failure, and what a request body is. */
import { readText, TooLargeError } from './bounded.js';
import { ApiError } from './errors.js';
import { type QueryMeta, readMeta } from './meta.js';
import type { ApiResponse, ParseMode } from './transport.js';

/** What reading an answer needs from the request that asked for it. */
export interface AnswerContext {
  readonly method: string;
  readonly parse: ParseMode;
  /** The redacted URL of the request. */
  readonly shown: () => string;
  readonly redact: (text: string) => string;
  /** Clears the request's timeout once the body is read (or handed over as a stream). */
  readonly stop: () => void;
  readonly log: (outcome: string) => void;
  /** Most bytes of the body to read (`0`: no limit). */
  readonly maxBytes: number;
}

/** The body as text within the request's limit, or an `ApiError` saying the limit was passed. */
async function boundedText(response: Response, context: AnswerContext): Promise<string> {
  try {
    return await readText(response, context.maxBytes);
  } catch (error) {
    if (!(error instanceof TooLargeError)) throw error;
    context.stop();
    context.log(`${response.status} too large`);
    const { method, shown } = context;
    throw new ApiError({
      status: response.status,
      method,
      url: shown(),
      message: `The answer to ${method} ${shown()} is larger than the limit of ${error.limit} bytes (${
        error.declared ? `Content-Length ${error.seen}` : 'reading stopped there'
      }); raise maxResponseBytes to read it.`,
      cause: error,
    });
  }
}

/**
 * The `{ data, meta }` of an answer, or an {@link ApiError} for a status outside 2xx, unreadable
 * `X-Svc-*` metadata or a body that is not the JSON it should be.
 */
export async function readAnswer<T>(response: Response, context: AnswerContext): Promise<ApiResponse<T>> {
  const { method, parse, shown, redact, stop, log } = context;
  if (response.status < 200 || response.status > 299) {
    const text = await boundedText(response, context);
    stop();
    const meta = readMeta(response.headers, false) as QueryMeta;
    const { message, body: errorBody } = errorMessage(response, redact(text), method, shown());
    log(String(response.status));
    throw new ApiError({
      status: response.status,
      method,
      url: shown(),
      message,
      body: errorBody,
      meta,
    });
  }
  const meta = readMeta(response.headers, true);
  if ('problem' in meta) {
    stop();
    await response.body?.cancel().catch(() => undefined);
    log(`${response.status} unreadable`);
    throw new ApiError({ status: response.status, method, url: shown(), message: meta.problem });
  }
  let data: unknown;
  if (parse === 'stream') {
    stop();
    data = response.body;
  } else {
    const text = await boundedText(response, context);
    stop();
    if (parse === 'text') data = text;
    else if (text.trim() === '') data = undefined;
    else {
      try {
        data = JSON.parse(text);
      } catch {
        log(`${response.status} unreadable`);
        throw new ApiError({
          status: response.status,
          method,
          url: shown(),
          message: `The answer to ${method} ${shown()} is not valid JSON: ${JSON.stringify(redact(text.slice(0, 80)))}.`,
          body: redact(text),
          meta,
        });
      }
    }
  }
  log(String(response.status));
  return { data: data as T, meta };
}

export function isRawBody(body: unknown): boolean {
  return (
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    body instanceof ReadableStream ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

export function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const pick = (value: unknown): string | undefined => {
    if (value instanceof Error && value.message !== '') return value.message;
    const code = (value as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  };
  return (pick(cause) ?? pick(error) ?? String(error)).replace(/\.$/, '');
}

function errorMessage(
  response: Response,
  text: string,
  method: string,
  url: string,
): { message: string; body: unknown } {
  const trimmed = text.trim();
  const fallback = `The request ${method} ${url} failed with status ${response.status}${
    response.statusText === '' ? '' : ` ${response.statusText}`
  } and no message.`;
  if (trimmed === '') return { message: fallback, body: undefined };
  const looksJson =
    (response.headers.get('content-type') ?? '').includes('json') ||
    trimmed.startsWith('{') ||
    trimmed.startsWith('[');
  if (looksJson) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return { message: jsonMessage(parsed) ?? fallback, body: parsed };
    } catch {
      // Not JSON after all: the text is the message.
    }
  }
  return { message: trimmed, body: text };
}

function jsonMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record['errors'])) {
    const parts = record['errors']
      .map((e) =>
        typeof e === 'string' ? e : ((e as { message?: unknown } | null)?.message as string | undefined),
      )
      .filter((e): e is string => typeof e === 'string' && e !== '');
    return parts.length === 0 ? undefined : parts.join('; ');
  }
  for (const field of ['message', 'error', 'Message', 'Error']) {
    if (typeof record[field] === 'string' && record[field] !== '') return record[field];
  }
  return undefined;
}
