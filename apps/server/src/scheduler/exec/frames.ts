/**
 * The JSON frames of the exec WebSocket (spec document 2, "Exec Allocation"), one object per
 * WebSocket text message.
 */

import { describeJsonNesting, jsonNestingProblem } from '../../http/json-nesting.js';

/** A frame the client sends, once parsed. */
export type ExecClientMessage =
  | { readonly kind: 'auth'; readonly version: number; readonly token: string }
  | { readonly kind: 'stdin'; readonly data: Buffer }
  | { readonly kind: 'stdin-close' }
  | { readonly kind: 'resize'; readonly height: number; readonly width: number }
  | { readonly kind: 'heartbeat' };

/** The result of {@link parseClientFrame}. */
export type ParseFrameResult =
  | { readonly ok: true; readonly message: ExecClientMessage }
  | { readonly ok: false; readonly message: string };

/** Largest accepted client frame: 1 MiB of JSON (about 750 KiB of stdin per frame). */
export const MAX_CLIENT_FRAME_BYTES = 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDimension(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

/**
 * Parses one client frame. Fields other than the spec's are ignored, as the real service's JSON
 * decoder does; an object with none of them is a heartbeat.
 * @param text - The text of the WebSocket message.
 * @returns The message, or a sentence saying what is wrong with the frame.
 */
export function parseClientFrame(text: string): ParseFrameResult {
  if (text.length > MAX_CLIENT_FRAME_BYTES) {
    return { ok: false, message: `exec frame of ${text.length} bytes is larger than the limit of 1 MiB` };
  }
  // The guard of every JSON body of the listeners: nothing deeper reaches a recursive step.
  const nesting = jsonNestingProblem(text);
  if (nesting !== undefined) return { ok: false, message: `exec frame is ${describeJsonNesting(nesting)}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'exec frame is not valid JSON' };
  }
  if (!isObject(value)) return { ok: false, message: 'exec frame is not a JSON object' };
  if ('auth_token' in value || 'version' in value) {
    if (typeof value['auth_token'] !== 'string') {
      return { ok: false, message: 'authentication frame has no string auth_token' };
    }
    if (value['version'] !== 1) {
      return {
        ok: false,
        message: `authentication frame version ${JSON.stringify(value['version'])} is not supported (expected 1)`,
      };
    }
    return { ok: true, message: { kind: 'auth', version: 1, token: value['auth_token'] } };
  }
  if (value['stdin'] !== undefined && value['stdin'] !== null) {
    const stdin = value['stdin'];
    if (!isObject(stdin)) return { ok: false, message: 'stdin frame is not an object' };
    if (stdin['close'] === true) return { ok: true, message: { kind: 'stdin-close' } };
    const data = stdin['data'];
    if (typeof data !== 'string' || !BASE64.test(data) || data.length % 4 === 1) {
      return { ok: false, message: 'stdin frame data is not a base64 string' };
    }
    return { ok: true, message: { kind: 'stdin', data: Buffer.from(data, 'base64') } };
  }
  if (value['tty_size'] !== undefined && value['tty_size'] !== null) {
    const size = value['tty_size'];
    if (!isObject(size) || !isDimension(size['height']) || !isDimension(size['width'])) {
      return {
        ok: false,
        message: `tty_size frame ${JSON.stringify(size)} needs integer height and width between 1 and 65535`,
      };
    }
    return { ok: true, message: { kind: 'resize', height: size['height'], width: size['width'] } };
  }
  return { ok: true, message: { kind: 'heartbeat' } };
}

/** Server frames, as the JSON text sent. */
export const serverFrame = {
  /** `{stdout: {data}}` or `{stderr: {data}}`. */
  data: (stream: 'stdout' | 'stderr', data: Uint8Array): string =>
    JSON.stringify({ [stream]: { data: Buffer.from(data).toString('base64') } }),
  /** `{stdout: {close: true}}` or `{stderr: {close: true}}`. */
  close: (stream: 'stdout' | 'stderr'): string => JSON.stringify({ [stream]: { close: true } }),
  /** `{exited: true, result: {exit_code}}`. */
  exited: (exitCode: number): string => JSON.stringify({ exited: true, result: { exit_code: exitCode } }),
  /** `{}`. */
  heartbeat: (): string => '{}',
};
