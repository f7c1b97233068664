import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { text } from 'node:stream/consumers';

import type { JobInput } from '@sked/model';
import type { SchedulerClient } from '@sked/scheduler-client';

import { CliError } from './errors.js';

/** Largest job file read (the sample server's default body limit is 10 MiB). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A job read from a file: the job and how it was written. */
export interface JobFile {
  readonly job: JobInput;
  readonly source: string;
  readonly format: 'hcl2' | 'json';
}

/** Reads FILE, or stdin when FILE is `-`, refusing files too large to submit. */
export async function readInput(file: string, what = 'file'): Promise<string> {
  if (file === '-') {
    // On a terminal, waiting for stdin looks like a hang: say what it waits for.
    if (process.stdin.isTTY) process.stderr.write(`Reading the ${what} from stdin; end it with Ctrl-D.\n`);
    const content = await text(process.stdin);
    if (Buffer.byteLength(content) > MAX_FILE_BYTES)
      throw new CliError(`The ${what} on stdin is larger than ${MAX_FILE_BYTES} bytes.`);
    return content;
  }
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError(`${file} is a directory, not a ${what}.`);
    size = info.size;
  } catch (error) {
    if (CliError.is(error)) throw error;
    throw new CliError(`Cannot read ${what} ${file}: ${(error as Error).message}`, {
      hint: `Check the path (relative to ${process.cwd()}); - reads the ${what} from stdin.`,
      cause: error,
    });
  }
  if (size > MAX_FILE_BYTES) throw new CliError(`${file} is ${size} bytes, more than ${MAX_FILE_BYTES}.`);
  return readFile(file, 'utf8');
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
