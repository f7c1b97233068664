import { ApiError, ConfigError } from '@sked/http';
import { InvalidRequestError } from '@sked/scheduler-client';

import { paint, type Output } from './output.js';

/** The variable of the request timeout (see `timeout.ts`). */
const TIMEOUT_VAR = 'SKED_CLIENT_TIMEOUT';

const BRAND = Symbol.for('@sked/cli/CliError');

/** A failure the CLI reports in its own words, with the exit code to end with and what to try. */
export class CliError extends Error {
  override readonly name = 'CliError' as const;
  /** Exit code of the process. */
  readonly exitCode: number;
  /** What the user could try next, when there is something useful to say. */
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static is(value: unknown): value is CliError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}

/** Which service a command talks to, for the hints of an error. */
export interface ErrorContext {
  /** Name of the service as users call it. */
  readonly service: string;
  /** Flag and variable holding its address. */
  readonly addressVar: string;
  /** Variable holding its token. */
  readonly tokenVar: string;
  /** Address the command talked to. */
  readonly address: string;
}

function apiHint(error: ApiError, context: ErrorContext): string {
  switch (true) {
    case error.status === 0:
      return `Is the ${context.service} running at ${context.address}? Set --address or ${context.addressVar}.`;
    case error.status === 401 || error.status === 403:
      return `Check the token: --token or ${context.tokenVar}, and that it may do this in the namespace (--namespace).`;
    case error.status === 404:
      return 'Check the name or ID (and --namespace); the status or list commands show what exists.';
    case error.status === 400 || error.status === 409 || error.status === 413 || error.status === 422:
      return 'The server refused the request as given: check the arguments, flags and file.';
    case error.status >= 500:
      return 'A fault of the server: retrying is not expected to help; see the server log.';
    default:
      return 'See --help for the command.';
  }
}

/** An HTML page (a proxy's error page, a web server at the address) rather than the service's answer. */
function isHtml(error: ApiError): boolean {
  const text = typeof error.body === 'string' ? error.body : error.message;
  return /^\s*<(!doctype\s+html|html|head|body|title|h1|p)\b/i.test(text);
}

/**
 * An answer that is not one the service gives: a 2xx `sked` cannot read, or an HTML page. Said in
 * one line: nothing to add but where it came from.
 */
function unusableAnswer(error: ApiError, context: ErrorContext): string | undefined {
  if (isHtml(error)) {
    return `The answer to ${error.method} ${error.url} is an HTML page (HTTP ${error.status}), not the ${context.service}'s; is ${context.address} the ${context.service}?`;
  }
  if (error.status >= 200 && error.status <= 299) return oneLine(error.message);
  return undefined;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

/** Errors of the runtime raised while reading an answer of the wrong shape. */
function isShapeError(error: unknown): error is Error {
  return error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError;
}

/** The message of an error as printed, without the `Error:` prefix. */
function describe(
  error: unknown,
  context: ErrorContext,
): { message: string; detail?: string; hint?: string } {
  if (CliError.is(error)) return { message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (ApiError.is(error)) {
    const unusable = unusableAnswer(error, context);
    if (unusable !== undefined) return { message: unusable };
    const detail =
      error.status === 0
        ? `no answer from ${error.method} ${error.url}`
        : `HTTP ${error.status} from ${error.method} ${error.url}`;
    return { message: error.message || `HTTP ${error.status}`, detail, hint: apiHint(error, context) };
  }
  if (InvalidRequestError.is(error)) return { message: error.message, hint: 'See --help for the command.' };
  if (ConfigError.is(error))
    return {
      message: error.message,
      hint: `Check --address, --token and the ${context.addressVar} variables.`,
    };
  if (isTimeout(error)) {
    return {
      message: oneLine(error.message),
      hint: `Is the ${context.service} at ${context.address} answering? Raise --timeout or ${TIMEOUT_VAR} (0: no limit).`,
    };
  }
  if (isShapeError(error)) {
    // an answer of a shape no command expects reached code that reads it: one line, never a trace
    return {
      message: `The ${context.service} at ${context.address} sent an answer sked cannot use (${oneLine(error.message)}).`,
    };
  }
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/** True when `error` is the rejection of a request timeout. */
export function isTimeout(error: unknown): error is Error {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** Prints an error on stderr (message, HTTP status, what to try) and returns the exit code. */
export function reportError(error: unknown, output: Output, context: ErrorContext, fallbackCode = 1): number {
  const { message, detail, hint } = describe(error, context);
  const lines = [`${paint('red', 'Error:', process.stderr)} ${message}`];
  if (detail !== undefined) lines.push(`  ${detail}`);
  if (hint !== undefined) lines.push(`  Try: ${hint}`);
  output.err(lines.join('\n'));
  return CliError.is(error) ? error.exitCode : fallbackCode;
}

/** True when `error` is the rejection of an aborted signal (Ctrl-C). */
export function isAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR')
  );
}
