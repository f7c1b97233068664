import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';

import type { JobInput } from '@sked/model';
import type { SchedulerClient } from '@sked/scheduler-client';

import { CliError } from './errors.js';

/**
 * The most `sked` reads from one file or from stdin, in bytes (16 MiB; the sample server's default
 * body limit is 10 MiB). One cap for both, so `key=-`, `--password-stdin`, `@file`, job, volume and
 * payload files all stop at the same size.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

const CAP_TEXT = `16 MiB (${MAX_INPUT_BYTES} bytes), the most sked reads from a file or stdin`;

/** A job read from a file: the job and how it was written. */
export interface JobFile {
  readonly job: JobInput;
  readonly source: string;
  readonly format: 'hcl2' | 'json';
}

/**
 * Reads a stream as UTF-8 text, at most `limit` bytes: past that it stops reading (the stream is
 * destroyed), so a source without end (`/dev/zero`, an endless pipe) costs no more than the limit.
 * @returns The text, or undefined when the stream holds more than `limit` bytes.
 */
export async function readBounded(
  stream: NodeJS.ReadableStream & { destroy?: () => void },
  limit: number = MAX_INPUT_BYTES,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) {
      stream.destroy?.();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Reads stdin, at most {@link MAX_INPUT_BYTES}; `what` names it in the error. */
export async function readStdin(what: string): Promise<string> {
  const content = await readBounded(process.stdin);
  if (content === undefined) throw new CliError(`The ${what} on stdin is larger than ${CAP_TEXT}.`);
  return content;
}

/** Reads FILE, or stdin when FILE is `-`, at most {@link MAX_INPUT_BYTES} either way. */
export async function readInput(file: string, what = 'file'): Promise<string> {
  if (file === '-') {
    // On a terminal, waiting for stdin looks like a hang: say what it waits for.
    if (process.stdin.isTTY) process.stderr.write(`Reading the ${what} from stdin; end it with Ctrl-D.\n`);
    return readStdin(what);
  }
  const cannot = (error: unknown): CliError =>
    new CliError(`Cannot read ${what} ${file}: ${(error as Error).message}`, {
      hint: `Check the path (relative to ${process.cwd()}); - reads the ${what} from stdin.`,
      cause: error,
    });
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError(`${file} is a directory, not a ${what}.`);
    size = info.size;
  } catch (error) {
    if (CliError.is(error)) throw error;
    throw cannot(error);
  }
  const tooLarge = (): CliError => new CliError(`The ${what} ${file} is larger than ${CAP_TEXT}.`);
  if (size > MAX_INPUT_BYTES) throw tooLarge();
  // a device or a pipe says size 0 and may never end: the read itself is bounded
  let content: string | undefined;
  try {
    content = await readBounded(createReadStream(file));
  } catch (error) {
    throw cannot(error);
  }
  if (content === undefined) throw tooLarge();
  return content;
}

const JOB_FILE_HINT = 'A job file is HCL (.hcl) or JSON: a Job object or {"Job": {...}}.';

/** Parses JSON, saying where it is broken and (`hint`) what the file should hold. */
export function parseJson(content: string, name: string, hint: string = JOB_FILE_HINT): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    throw new CliError(`${name} is not valid JSON: ${(error as Error).message}`, { hint, cause: error });
  }
}

/**
 * Whether a parsed JSON value is an object (not null, not an array).
 * @param value - Any value.
 * @returns Whether it is a record of fields.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Takes the job out of parsed JSON: a bare Job, or one wrapped as `{"Job": ...}`. */
export function unwrapJob(value: unknown, name: string): JobInput {
  if (!isRecord(value)) throw new CliError(`${name} must hold a JSON object (a Job, or {"Job": {...}}).`);
  const inner = isRecord(value['Job']) ? value['Job'] : value;
  if (typeof inner['ID'] !== 'string' || inner['ID'] === '')
    throw new CliError(`${name}: the job has no ID (a non-empty string "ID" is required).`);
  return inner as JobInput;
}

/** True when `content` starts like JSON (an object or an array). */
export function looksLikeJson(content: string): boolean {
  return /^\s*[{[]/.test(content);
}

/**
 * Reads a job file: `.json` (or content starting with `{`) is JSON, anything else is HCL, turned
 * into a job by the server's parse endpoint.
 */
export async function readJobFile(
  client: SchedulerClient,
  file: string,
  signal?: AbortSignal,
): Promise<JobFile> {
  const source = await readInput(file, 'job file');
  const name = file === '-' ? 'stdin' : file;
  const ext = extname(file).toLowerCase();
  const json = ext === '.json' || (ext !== '.hcl' && ext !== '.nomad' && looksLikeJson(source));
  if (json) return { job: unwrapJob(parseJson(source, name), name), source, format: 'json' };
  if (source.trim() === '') throw new CliError(`${name} is empty.`);
  const { data } = await client.jobs.parse(source, signal === undefined ? {} : { signal });
  return { job: unwrapJob(data, name), source, format: 'hcl2' };
}
