import { parseGoBool } from '@sked/model';

/** The query parameters of the exec WebSocket, validated. */
export interface ExecParams {
  /** The command and its arguments (`command`, a JSON array). */
  readonly command: readonly [string, ...string[]];
  /** The task to run it in (`task`). */
  readonly task: string;
  /** Whether to run it on a pseudo-terminal (`tty`). */
  readonly tty: boolean;
  /** Whether the token comes in the first frame (`ws_handshake`). */
  readonly wsHandshake: boolean;
}

/** The result of {@link parseExecParams}. */
export type ParseExecParamsResult =
  { readonly ok: true; readonly params: ExecParams } | { readonly ok: false; readonly message: string };

/** Longest accepted `command` parameter, in characters. */
export const MAX_COMMAND_LENGTH = 64 * 1024;

function single(value: unknown): unknown {
  return Array.isArray(value) ? (value.at(-1) as unknown) : value;
}

function quoted(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

function parseBool(
  name: string,
  raw: unknown,
): { ok: true; value: boolean } | { ok: false; message: string } {
  const value = single(raw);
  if (value === undefined || value === '') return { ok: true, value: false };
  const parsed = typeof value === 'string' ? parseGoBool(value) : undefined;
  if (parsed !== undefined) return { ok: true, value: parsed };
  const shown = typeof value === 'string' ? quoted(value) : JSON.stringify(value);
  return { ok: false, message: `${name} ${shown} is not a boolean (true or false)` };
}

/**
 * Validates `region`, `command`, `task`, `tty` and `ws_handshake`.
 * @param query - The request's parsed query string.
 * @param options - `region`: the region served (a request naming another is refused).
 * @returns The parameters, or the sentence to close the socket with (code 1008).
 */
export function parseExecParams(
  query: Readonly<Record<string, unknown>>,
  options: { readonly region?: string | undefined } = {},
): ParseExecParamsResult {
  const region = single(query['region']);
  if (
    options.region !== undefined &&
    typeof region === 'string' &&
    region !== '' &&
    region !== options.region
  ) {
    return { ok: false, message: `No path to region ${JSON.stringify(region)}` };
  }
  const rawCommand = single(query['command']);
  if (rawCommand === undefined || rawCommand === '') {
    return { ok: false, message: 'command is required: a JSON array such as ["/bin/sh"]' };
  }
  if (typeof rawCommand !== 'string' || rawCommand.length > MAX_COMMAND_LENGTH) {
    return { ok: false, message: 'command is longer than the limit of 64 KiB' };
  }
  let command: unknown;
  try {
    command = JSON.parse(rawCommand);
  } catch {
    return { ok: false, message: `command ${quoted(rawCommand)} is not a JSON array of strings` };
  }
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) {
    return { ok: false, message: `command ${quoted(rawCommand)} is not a JSON array of strings` };
  }
  const [file, ...args] = command as string[];
  if (file === undefined || file === '') {
    return { ok: false, message: 'command is empty: name the program to run as its first element' };
  }
  if ((command as string[]).some((part) => part.includes('\0'))) {
    return { ok: false, message: `command ${quoted(rawCommand)} contains a NUL character` };
  }
  const task = single(query['task']);
  if (typeof task !== 'string' || task === '') return { ok: false, message: 'task is required' };
  const tty = parseBool('tty', query['tty']);
  if (!tty.ok) return tty;
  const wsHandshake = parseBool('ws_handshake', query['ws_handshake']);
  if (!wsHandshake.ok) return wsHandshake;
  return {
    ok: true,
    params: { command: [file, ...args], task, tty: tty.value, wsHandshake: wsHandshake.value },
  };
}
