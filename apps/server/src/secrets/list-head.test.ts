/**
 * The framer's head limit (issue 31 item 5): an over-long request line or header is answered 431
 * as soon as the limit is passed, newline or not, whatever the chunking of the bytes.
 */
import { connect } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { HEAD_TOO_LARGE_ANSWER } from './list-front.js';
import { createListRewriter, MAX_HEAD_BYTES, type FramerOutput } from './list-verb.js';
import { startSecrets, type SecretsHarness } from './test/harness.js';

const LIMIT = 200;

interface Message {
  method: 'GET' | 'LIST' | 'POST';
  path: string;
  headers: string[];
  body: string;
}

const messageArb: fc.Arbitrary<Message> = fc.record({
  method: fc.constantFrom('GET' as const, 'LIST' as const, 'POST' as const),
  path: fc
    .string({ unit: fc.constantFrom('a', 'b', '/', '%'), minLength: 1, maxLength: 260 })
    .map((p) => `/${p}`),
  headers: fc.array(
    fc.string({ unit: fc.constantFrom('x', 'y', '-'), maxLength: 120 }).map((v) => `X-H: ${v}`),
    { maxLength: 4 },
  ),
  body: fc.string({ maxLength: 30 }),
});

function head(m: Message): string {
  const lines = [
    `${m.method} ${m.path} HTTP/1.1`,
    ...m.headers,
    `Content-Length: ${Buffer.byteLength(m.body)}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The head as the framer counts it (a LIST line rewritten). */
function countedHead(m: Message): number {
  if (m.method !== 'LIST') return Buffer.byteLength(head(m));
  return Buffer.byteLength(head(m)) + '?list=true'.length - 1;
}

/** Merges consecutive byte outputs, so that outputs of different chunkings compare. */
function normalise(items: readonly FramerOutput[]): (string | Buffer)[] {
  const out: (string | Buffer)[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item.kind !== 'bytes') out.push(item.kind);
    else if (Buffer.isBuffer(last)) out[out.length - 1] = Buffer.concat([last, item.bytes]);
    else out.push(item.bytes);
  }
  return out;
}

function cutsOf(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.subarray(last, p));
    last = p;
  }
  return pieces;
}

describe('the framer with a head limit', () => {
  test.prop([fc.array(messageArb, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 40 })])(
    'its output (bytes, request ends, refusal) does not depend on how the bytes are cut',
    (messages, cuts) => {
      const bytes = Buffer.from(messages.map((m) => head(m) + m.body).join(''));
      const whole = createListRewriter({ maxHeadBytes: LIMIT }).feed(bytes);
      const r = createListRewriter({ maxHeadBytes: LIMIT });
      const pieces = cutsOf(bytes, cuts).flatMap((piece) => r.feed(piece));
      expect(normalise(pieces)).toEqual(normalise(whole));
    },
  );

  test.prop([fc.array(messageArb, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 40 })])(
    'it refuses at the first head over the limit, after the requests before it, and holds no more than the limit',
    (messages, cuts) => {
      const bytes = Buffer.from(messages.map((m) => head(m) + m.body).join(''));
      const r = createListRewriter({ maxHeadBytes: LIMIT });
      const out: FramerOutput[] = [];
      let handed = 0;
      for (const piece of cutsOf(bytes, cuts)) {
        out.push(...r.feed(piece));
        handed += piece.length;
        const passed = out.reduce((n, o) => n + (o.kind === 'bytes' ? o.bytes.length : 0), 0);
        // what is neither passed on nor refused is at most one incomplete line under the limit
        if (!out.some((o) => o.kind === 'too-large')) expect(handed - passed).toBeLessThanOrEqual(LIMIT + 10);
      }
      const firstTooLong = messages.findIndex((m) => countedHead(m) > LIMIT);
      const ends = out.filter((o) => o.kind === 'end').length;
      const refused = out.filter((o) => o.kind === 'too-large').length;
      if (firstTooLong === -1) expect([ends, refused]).toEqual([messages.length, 0]);
      else expect([ends, refused, out.at(-1)?.kind]).toEqual([firstTooLong, 1, 'too-large']);
    },
  );

  it('copies each byte of a held line once: a 2 MB line in 256-byte pieces is refused after the limit', () => {
    const r = createListRewriter();
    const line = Buffer.alloc(2 * 1024 * 1024, 'a');
    line.write('GET /');
    const concat = vi.spyOn(Buffer, 'concat');
    const out: FramerOutput[] = [];
    try {
      for (let i = 0; i < line.length; i += 256) out.push(...r.feed(line.subarray(i, i + 256)));
    } finally {
      concat.mockRestore();
    }
    const copied = concat.mock.results.reduce((n, result) => n + (result.value as Buffer).length, 0);
    expect(out).toEqual([{ kind: 'too-large' }]);
    expect(copied).toBe(0);
  });
});

describe('the secrets listener', () => {
  let h: SecretsHarness;
  let port = 0;
  beforeAll(async () => {
    h = await startSecrets();
    port = Number(new URL(h.url).port);
  });

  /** Sends bytes and reads until the server closes the connection. */
  async function send(pieces: readonly (string | Buffer)[]): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => {
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    for (const piece of pieces) socket.write(piece);
    await closed;
    return Buffer.concat(chunks).toString('latin1');
  }

  const long = 'a'.repeat(MAX_HEAD_BYTES + 1);
  it.each([
    ['a request line without a newline', [`GET /${long}`]],
    ['a LIST request line without a newline', [`LIST /${long}`]],
    ['a header without a newline', ['GET /v1/sys/health HTTP/1.1\r\n', `X-Long: ${long}`]],
    ['a request line in 256-byte pieces', [...`GET /${long}`.matchAll(/.{1,256}/gs)].map((m) => m[0])],
    ['a header line with its newline', [`GET / HTTP/1.1\r\nX-Long: ${long}\r\n`]],
    ['many short headers', [`GET / HTTP/1.1\r\n${'X-Short: 0123456789abcdef\r\n'.repeat(3000)}`]],
  ])(
    'answers %s over the limit with 431 (the real bytes) and closes, with no newline to wait for',
    async (_name, pieces) => {
      expect(await send(pieces)).toBe(HEAD_TOO_LARGE_ANSWER);
    },
  );

  it('answers the requests before an over-long head first', async () => {
    const first = `GET /v1/auth/ldap/config HTTP/1.1\r\nHost: x\r\nX-Secrets-Token: ${h.root}\r\n\r\n`;
    const answer = await send([first, `LIST /${long}`]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.endsWith(HEAD_TOO_LARGE_ANSWER)).toBe(true);
  });

  it('serves a head just under the limit', async () => {
    const pad = 'x'.repeat(MAX_HEAD_BYTES - 200);
    const request = `GET /v1/auth/ldap/config HTTP/1.1\r\nHost: x\r\nX-Pad: ${pad}\r\nX-Secrets-Token: ${h.root}\r\nConnection: close\r\n\r\n`;
    expect(Buffer.byteLength(request)).toBeLessThan(MAX_HEAD_BYTES);
    expect(await send([request])).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
