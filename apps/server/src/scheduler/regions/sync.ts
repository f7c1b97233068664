/**
 * Membership gossip between members: each member pushes its table to every member it knows (and
 * to the `--join` addresses until one answers) and merges the table in the answer, every
 * `intervalMs` and at once after its table changed. Joining is symmetric (the joined member learns
 * the joiner from the push) and transitive (the joiner learns every member from the answer, then
 * pushes to each of them directly). A member that stops answering keeps its record and is retried,
 * less often while it keeps failing.
 */
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { MAX_MEMBERS, readMemberRecord, type MemberRecord, type MemberTable } from './table.js';

/** Path of the membership exchange on every member. */
export const SYNC_PATH = '/v1/internal/regions/sync';

/** Largest answer read from a peer's exchange, in bytes. */
export const MAX_SYNC_ANSWER = 512 * 1024;

/** Body of a membership exchange, both ways. */
export interface SyncMessage {
  /** The sender's own record. */
  readonly Self: MemberRecord;
  /** Every record the sender knows (its own included). */
  readonly Members: readonly MemberRecord[];
}

/**
 * Reads a membership exchange body (a request or an answer); records beyond {@link MAX_MEMBERS}
 * are not read.
 * @param value - The parsed JSON.
 * @returns The message, or the problem as a sentence naming the field.
 */
export function readSyncMessage(value: unknown): { message: SyncMessage } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'the body must be an object with Self and Members' };
  }
  const self = readMemberRecord(Object.hasOwn(value, 'Self') ? (value as { Self: unknown }).Self : undefined);
  if ('error' in self) return { error: `Self: ${self.error}` };
  const list = Object.hasOwn(value, 'Members') ? (value as { Members: unknown }).Members : undefined;
  if (!Array.isArray(list)) return { error: 'Members: expected an array' };
  if (list.length > MAX_MEMBERS) return { error: `Members: more than ${MAX_MEMBERS} members` };
  const members: MemberRecord[] = [];
  for (const [i, item] of list.entries()) {
    const read = readMemberRecord(item);
    if ('error' in read) return { error: `Members[${i}].${read.error}` };
    members.push(read.record);
  }
  return { message: { Self: self.record, Members: members } };
}

/** Options of {@link startMembershipSync}. */
export interface MembershipSyncOptions {
  /** The table to keep. */
  readonly table: MemberTable;
  /** Addresses to join (`--join`), pushed to until each has answered once. */
  readonly join: readonly string[];
  /** The HTTP client's connection pool. */
  readonly dispatcher: Dispatcher;
  /** Token sent with each push (a management token of the federation, when ACLs are on). */
  readonly token?: string | undefined;
  /** Interval of the periodic push, in milliseconds. @defaultValue 2000 */
  readonly intervalMs?: number | undefined;
  /** Deadline of one push, connect to last byte, in milliseconds. @defaultValue 3000 */
  readonly timeoutMs?: number | undefined;
  /** Told when a `--join` address refuses or cannot be reached (once per address and reason). */
  readonly warn?: (message: string) => void;
}

/** The running gossip. */
export interface MembershipSync {
  /** Pushes to every member now (also after each change, by itself). */
  syncNow(): void;
  /** Resolves after the next whole round (tests). */
  nextRound(): Promise<void>;
  /** Stops the timers and aborts calls in flight. */
  stop(): void;
}

/** Longest pause between pushes to a member that keeps failing. */
const MAX_BACKOFF_MS = 5000;

/**
 * Starts the gossip of a member.
 * @param options - Table, join addresses, HTTP pool, token and timing.
 * @returns The running gossip.
 */
export function startMembershipSync(options: MembershipSyncOptions): MembershipSync {
  const { table, dispatcher } = options;
  const intervalMs = options.intervalMs ?? 2000;
  const timeoutMs = options.timeoutMs ?? 3000;
  const pendingJoins = new Set(options.join);
  const warned = new Set<string>();
  const stopping = new AbortController();
  const nextTry = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const waiters: (() => void)[] = [];

  const push = async (address: string): Promise<SyncMessage> => {
    const body = JSON.stringify({ Self: table.self, Members: table.records() } satisfies SyncMessage);
    const answer = await request(`${address}${SYNC_PATH}`, {
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        ...(options.token === undefined ? {} : { 'x-svc-token': options.token }),
      },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await readLimited(answer.body, MAX_SYNC_ANSWER);
    if (answer.statusCode !== 200) {
      throw new Error(`it answered ${answer.statusCode}: ${text.slice(0, 300)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      throw new Error('its answer is not JSON');
    }
    const read = readSyncMessage(json);
    if ('error' in read) throw new Error(`its answer is not a member table: ${read.error}`);
    return read.message;
  };

  const round = async (): Promise<void> => {
    const now = Date.now();
    const calls: Promise<void>[] = [];
    for (const member of table.others()) {
      if ((nextTry.get(member.Region) ?? 0) > now) continue;
      calls.push(
        push(member.Address).then(
          (answer) => {
            nextTry.delete(member.Region);
            if (table.merge([answer.Self, ...answer.Members], answer.Self.Region)) again = true;
          },
          () => {
            table.failed(member.Region);
            const failures = table.get(member.Region)?.failures ?? 1;
            nextTry.set(member.Region, now + Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** (failures - 1)));
          },
        ),
      );
    }
    for (const address of pendingJoins) {
      calls.push(
        push(address).then(
          (answer) => {
            pendingJoins.delete(address);
            if (table.merge([answer.Self, ...answer.Members], answer.Self.Region)) again = true;
          },
          (error: unknown) => {
            const reason = error instanceof Error ? error.message : String(error);
            const key = `${address} ${reason}`;
            if (stopping.signal.aborted || warned.has(key)) return;
            warned.add(key);
            options.warn?.(`cannot join ${address} yet (retrying): ${reason}`);
          },
        ),
      );
    }
    await Promise.all(calls);
  };

  const run = (): void => {
    if (stopping.signal.aborted) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = (async () => {
      do {
        again = false;
        await round();
      } while (again && !stopping.signal.aborted);
    })().finally(() => {
      running = undefined;
      for (const wake of waiters.splice(0)) wake();
      if (!stopping.signal.aborted) timer = setTimeout(run, intervalMs).unref();
    });
  };

  queueMicrotask(run);
  return {
    syncNow: run,
    nextRound: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        run();
      }),
    stop() {
      stopping.abort();
      clearTimeout(timer);
      for (const wake of waiters.splice(0)) wake();
    },
  };
}

/**
 * Reads a body as UTF-8 text, at most `max` bytes (the rest is not read: the body is destroyed).
 * @param body - The answer's body.
 * @param max - Largest size read.
 * @returns The text.
 * @throws when the body is larger.
 */
export async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  max: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new Error(`the answer is larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
