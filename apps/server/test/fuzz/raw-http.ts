/**
 * A raw HTTP/1.1 client for the fuzzer: it writes the request bytes exactly as given (bad UTF-8,
 * unknown verbs, odd headers, WebSocket upgrades) over one connection, with a deadline and a size
 * limit on what it reads, and parses the answer (Content-Length, chunked or until close).
 *
 * @packageDocumentation
 */
import { connect } from 'node:net';

/** A request as bytes on the wire. */
export interface RawRequest {
  readonly method: string;
  /** The request target as sent (already escaped as the case wants it). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer | undefined;
}

/** What came back. */
export interface RawResponse {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
  /** For a `101`: the close frame the server ended the WebSocket with, when one came in time. */
  readonly close?: { readonly code: number; readonly reason: string } | undefined;
}

/** How long one exchange may take, and how much of an answer is read. */
export const DEADLINE_MS = 15_000;
const MAX_READ = 64 * 1024 * 1024;

/**
 * Sends one request on a fresh connection and reads the answer.
 * @param port - The listener's port on 127.0.0.1.
 * @param request - The request.
 * @param options - `stream`: stop after the first line of a body that does not end (the event
 *   stream); `deadlineMs`: the deadline.
 * @returns The answer.
 * @throws Error when the connection fails, the deadline passes or the answer is malformed.
 */
export function sendRaw(
  port: number,
  request: RawRequest,
  options: { stream?: boolean; deadlineMs?: number } = {},
): Promise<RawResponse> {
  const head =
    `${request.method} ${request.target} HTTP/1.1\r\n` +
    Object.entries({ host: `127.0.0.1:${port}`, connection: 'close', ...request.headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    (request.body === undefined ? '' : `content-length: ${request.body.length}\r\n`) +
    '\r\n';
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) return reject(error);
      try {
        resolve(parseResponse(Buffer.concat(chunks), options.stream !== true));
      } catch (parseError) {
        reject(parseError as Error);
      }
    };
    const timer = setTimeout(
      () => finish(new Error(`no complete answer within ${options.deadlineMs ?? DEADLINE_MS} ms`)),
      options.deadlineMs ?? DEADLINE_MS,
    );
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_READ) return finish(new Error(`answer larger than ${MAX_READ} bytes`));
      const sofar = Buffer.concat(chunks);
      if (isComplete(sofar, options.stream === true)) finish(undefined);
    });
    socket.on('error', (error) => finish(error));
    socket.on('end', () => finish(undefined));
    socket.write(Buffer.from(head, 'latin1'));
    if (request.body !== undefined) socket.write(request.body);
  });
}

function headEnd(data: Buffer): number {
  return data.indexOf('\r\n\r\n');
}

/** Whether enough has come to answer without waiting for the close. */
function isComplete(data: Buffer, stream: boolean): boolean {
  const end = headEnd(data);
  if (end < 0) return false;
  try {
    const response = parseResponse(data, false);
    if (response.status === 101) return response.close !== undefined;
    if (stream) return response.body.includes(0x0a);
    const length = response.headers.get('content-length');
    return length !== undefined && response.body.length >= Number(length);
  } catch {
    return false;
  }
}

function parseHeaders(text: string): { status: number; headers: Map<string, string> } {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (match === null) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(match[1]), headers };
}

/** Decodes a chunked body; `complete` false tolerates a body still coming. */
function dechunk(data: Buffer, complete: boolean): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const length = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(length)) throw new Error('malformed chunk size');
    if (length === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, Math.min(lineEnd + 2 + length, data.length)));
    at = lineEnd + 2 + length + 2;
    if (at > data.length) break;
  }
  if (complete) throw new Error('chunked body ended early');
  return Buffer.concat(parts);
}

/** Reads the close frame of a WebSocket (server frames are not masked). */
function closeFrame(data: Buffer): RawResponse['close'] {
  let at = 0;
  while (at + 2 <= data.length) {
    const opcode = (data[at] ?? 0) & 0x0f;
    let length = (data[at + 1] ?? 0) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > data.length) return undefined;
      length = data.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > data.length) return undefined;
      length = Number(data.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > data.length) return undefined;
    if (opcode === 8) {
      const payload = data.subarray(start, start + length);
      return {
        code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
        reason: payload.subarray(2).toString('utf8'),
      };
    }
    at = start + length;
  }
  return undefined;
}

function parseResponse(data: Buffer, complete: boolean): RawResponse {
  const end = headEnd(data);
  if (end < 0) throw new Error(`no complete answer head (${data.length} bytes came)`);
  const { status, headers } = parseHeaders(data.subarray(0, end).toString('latin1'));
  const rest = data.subarray(end + 4);
  if (status === 101) return { status, headers, body: Buffer.alloc(0), close: closeFrame(rest) };
  let body = rest;
  const length = headers.get('content-length');
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') body = dechunk(rest, complete);
  else if (length !== undefined) {
    if (rest.length < Number(length) && complete) throw new Error('body shorter than its Content-Length');
    body = rest.subarray(0, Number(length));
  }
  return { status, headers, body };
}
