import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobInput } from '@sked/model';
import { createClient, type SchedulerClient } from '@sked/scheduler-client';
import { startServer, type StartServerOptions } from '@sked/server';
import { jobFactory } from '@sked/testkit';

/** A sample server started in this process, and a client of it. */
export interface TestServer {
  readonly url: string;
  readonly client: SchedulerClient;
  close(): Promise<void>;
}

/** Starts the sample server on a free loopback port with `nodes` simulated nodes. */
export async function startTestServer(options: StartServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ bind: '127.0.0.1', schedulerPort: 0, nodes: 3, ...options });
  const url = server.scheduler.url;
  return {
    url,
    client: createClient({ address: url, env: false }),
    close: () => server.close(),
  };
}

const service = jobFactory({ task: { Config: { start_block_for: '10ms' } } });

/** A service job of `count` mock tasks that run until stopped (`@sked/testkit` makeJob). */
export function serviceJob(
  id: string,
  options: { count?: number; namespace?: string; meta?: Record<string, string> } = {},
): JobInput {
  return service(id, {
    Name: id,
    ...(options.namespace === undefined ? {} : { Namespace: options.namespace }),
    ...(options.meta === undefined ? {} : { Meta: options.meta }),
    group: { Count: options.count ?? 1 },
  });
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`, { cause: last });
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Reads an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The rejection of a promise (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('Expected the call to fail, but it succeeded.');
}

/** A `sked-server` running in a process of its own. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** The address its listener printed. */
  readonly url: string;
}

const serverMain = join(dirname(fileURLToPath(import.meta.resolve('@sked/server'))), 'main.js');

/**
 * Starts the built `sked-server` with `args` in a process of its own and resolves once it prints
 * `<listener> listening on URL` (its output is kept for the error when it exits or takes over
 * 20 s first).
 * @param args - Its command-line arguments.
 * @param listener - The listener whose address is wanted (`scheduler`, `mesh`, ...).
 * @param started - Told the child at once (to kill it after the tests, even when it never listens).
 */
export async function spawnServer(
  args: readonly string[],
  listener: string,
  started: (child: ChildProcess) => void,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serverMain, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const listening = new RegExp(`^${listener} listening on (http:\\/\\/\\S+)$`, 'm');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const match = listening.exec(out);
    if (match?.[1] !== undefined) return { child, url: match[1] };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`sked-server did not start: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
