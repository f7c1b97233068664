/**
 * Requests of one keep-alive connection are applied in order (issue 21 item 1): the order law
 * over a real secrets listener, and the issue's own sequence.
 */
import { connect, type Socket } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSecrets, type SecretsHarness } from './test/harness.js';

type Kind = 'groups' | 'users';
type Op =
  | { op: 'write'; kind: Kind; name: string; method: 'POST' | 'PUT'; policies: string; chunked: boolean }
  | { op: 'read'; kind: Kind; name: string }
  | { op: 'list'; kind: Kind; verb: boolean }
  | { op: 'delete'; kind: Kind; name: string };

const NAMES = ['a', 'b'] as const;
const kindArb = fc.constantFrom<Kind>('groups', 'users');
const nameArb = fc.constantFrom(...NAMES);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('write' as const),
    kind: kindArb,
    name: nameArb,
    method: fc.constantFrom('POST' as const, 'PUT' as const),
    policies: fc.constantFrom('p1', 'p2,p3', '', 'x'.repeat(3000)),
    chunked: fc.boolean(),
  }),
  fc.record({ op: fc.constant('read' as const), kind: kindArb, name: nameArb }),
  fc.record({ op: fc.constant('list' as const), kind: kindArb, verb: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), kind: kindArb, name: nameArb }),
);

let h: SecretsHarness;
let port = 0;
beforeAll(async () => {
  h = await startSecrets();
  port = Number(new URL(h.url).port);
});

function serialize(op: Op): Buffer {
  const head = (method: string, path: string, extra: string[] = []): string =>
    [
      `${method} /v1/auth/ldap/${path} HTTP/1.1`,
      'Host: x',
      `X-Secrets-Token: ${h.root}`,
      ...extra,
      '',
      '',
    ].join('\r\n');
  switch (op.op) {
    case 'write': {
      const body = JSON.stringify({ policies: op.policies });
      if (!op.chunked) {
        return Buffer.from(
          head(op.method, `${op.kind}/${op.name}`, [`Content-Length: ${body.length}`]) + body,
        );
      }
      const half = Math.floor(body.length / 2);
      const chunks = [body.slice(0, half), body.slice(half)]
        .map((c) => `${c.length.toString(16)}\r\n${c}\r\n`)
        .join('');
      return Buffer.from(
        `${head(op.method, `${op.kind}/${op.name}`, ['Transfer-Encoding: chunked'])}${chunks}0\r\n\r\n`,
      );
    }
    case 'read':
      return Buffer.from(head('GET', `${op.kind}/${op.name}`));
    case 'list':
      return Buffer.from(op.verb ? head('LIST', op.kind) : head('GET', `${op.kind}?list=true`));
    case 'delete':
      return Buffer.from(head('DELETE', `${op.kind}/${op.name}`));
  }
}

/** Reads HTTP answers (Content-Length framed) from a socket; each as `status body`. */
function answers(socket: Socket): { next(): Promise<string> } {
  let received = Buffer.alloc(0);
  const ready: string[] = [];
  let waiting: ((answer: string) => void) | undefined;
  let failed: Error | undefined;
  const parse = (): void => {
    for (;;) {
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? '0');
      if (received.length < end + 4 + length) return;
      const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
      received = received.subarray(end + 4 + length);
      ready.push(`${head.split('\r\n')[0] ?? ''} ${body.replace(/"request_id":"[^"]*"/, '"request_id":""')}`);
    }
  };
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    parse();
    if (waiting !== undefined && ready.length > 0) waiting(ready.shift() as string);
  });
  socket.on('close', () => {
    failed = new Error('connection closed');
  });
  return {
    next: () =>
      new Promise((resolve, reject) => {
        if (ready.length > 0) resolve(ready.shift() as string);
        else if (failed !== undefined) reject(failed);
        else
          waiting = (answer) => {
            waiting = undefined;
            resolve(answer);
          };
      }),
  };
}

async function open(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

async function reset(): Promise<void> {
  for (const kind of ['groups', 'users'] as const)
    for (const name of NAMES) await h.call('DELETE', `/v1/auth/ldap/${kind}/${name}`);
}

/** Sends the operations one at a time on one connection, each after the previous answer. */
async function oneByOne(ops: readonly Op[]): Promise<string[]> {
  const socket = await open();
  const reader = answers(socket);
  const out: string[] = [];
  for (const op of ops) {
    socket.write(serialize(op));
    out.push(await reader.next());
  }
  socket.destroy();
  return out;
}

/** Sends all the operations at once on one connection, in pieces cut at `cuts`. */
async function pipelined(ops: readonly Op[], cuts: readonly number[]): Promise<string[]> {
  const bytes = Buffer.concat(ops.map(serialize));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
  const socket = await open();
  const reader = answers(socket);
  let last = 0;
  for (const point of [...points, bytes.length]) {
    socket.write(bytes.subarray(last, point));
    last = point;
  }
  const out: string[] = [];
  for (let i = 0; i < ops.length; i++) out.push(await reader.next());
  socket.destroy();
  return out;
}

describe('pipelined requests on one connection', () => {
  it("the issue's sequence: POST a group, LIST, GET, DELETE are applied in order", async () => {
    await reset();
    const ops: Op[] = [
      { op: 'write', kind: 'groups', name: 'a', method: 'POST', policies: 'p1', chunked: false },
      { op: 'list', kind: 'groups', verb: true },
      { op: 'read', kind: 'groups', name: 'a' },
      { op: 'delete', kind: 'groups', name: 'a' },
    ];
    const got = await pipelined(ops, []);
    expect(got[0]).toMatch(/^HTTP\/1\.1 204/);
    expect(got[1]).toContain('"keys":["a"]');
    expect(got[2]).toContain('"policies":["p1"]');
    expect(got[3]).toMatch(/^HTTP\/1\.1 204/);
    expect(h.service.store.groups.keys()).toEqual([]);
  });

  it('the order law on the case fast-check found before the fix: a user write, then a list', async () => {
    const ops: Op[] = [
      { op: 'write', kind: 'users', name: 'a', method: 'POST', policies: 'p1', chunked: false },
      { op: 'list', kind: 'users', verb: false },
    ];
    await reset();
    const expected = await oneByOne(ops);
    await reset();
    expect(await pipelined(ops, [])).toEqual(expected);
  });

  test.prop([fc.array(opArb, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 })], {
    numRuns: 40,
  })(
    'the order law: pipelined answers equal the answers of the same requests sent one by one',
    async (ops, cuts) => {
      await reset();
      const expected = await oneByOne(ops);
      await reset();
      expect(await pipelined(ops, cuts)).toEqual(expected);
    },
  );
});
