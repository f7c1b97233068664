import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptListVerb } from './list-front.js';
import { createListRewriter } from './list-verb.js';

interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'LIST';
  path: string;
  body: string;
  chunks: number[] | undefined; // chunk sizes for a chunked body; undefined = Content-Length
}

const pathArb = fc
  .tuple(
    fc.constantFrom('/v1/auth/ldap/groups', '/v1/auth/ldap/users', '/a', '/LIST', '/x%20y'),
    fc.option(fc.constantFrom('a=1', 'list=false&b=2', 'LIST=1'), { nil: undefined }),
  )
  .map(([p, q]) => (q === undefined ? p : `${p}?${q}`));
// Bodies that look like requests: a naive rewriter would corrupt them.
const bodyArb = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 40 }),
  fc.constant('\r\nLIST /evil HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc'),
  fc.constant('0\r\n\r\nLIST / HTTP/1.1\r\n'),
);
const reqArb: fc.Arbitrary<Req> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'LIST'),
    path: pathArb,
    body: bodyArb,
    chunked: fc.boolean(),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  })
  .map(({ method, path, body, chunked, cuts }) => {
    const bytes = Buffer.byteLength(body);
    let chunks: number[] | undefined;
    if (chunked && bytes > 0) {
      const points = [...new Set(cuts.map((c) => c % bytes))].filter((c) => c > 0).sort((a, b) => a - b);
      chunks = [...points, bytes].map((p, i, all) => p - (i === 0 ? 0 : (all[i - 1] as number)));
    }
    return { method, path, body, chunks } as Req;
  });

function serialize(req: Req): Buffer {
  const body = Buffer.from(req.body);
  const head = [`${req.method} ${req.path} HTTP/1.1`, 'Host: x'];
  if (req.chunks === undefined) {
    head.push(`Content-Length: ${body.length}`);
    return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
  }
  head.push('Transfer-Encoding: chunked');
  const parts: Buffer[] = [Buffer.from(`${head.join('\r\n')}\r\n\r\n`)];
  let offset = 0;
  for (const size of req.chunks) {
    parts.push(
      Buffer.from(`${size.toString(16)}\r\n`),
      body.subarray(offset, offset + size),
      Buffer.from('\r\n'),
    );
    offset += size;
  }
  parts.push(Buffer.from('0\r\nX-Trailer: 1\r\n\r\n'));
  return Buffer.concat(parts);
}

function expected(req: Req): { method: string; url: string; body: string } {
  if (req.method !== 'LIST') return { method: req.method, url: req.path, body: req.body };
  return { method: 'GET', url: `${req.path}${req.path.includes('?') ? '&' : '?'}list=true`, body: req.body };
}

function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let last = 0;
  for (const p of points) {
    pieces.push(bytes.subarray(last, p));
    last = p;
  }
  pieces.push(bytes.subarray(last));
  return pieces;
}

describe('createListRewriter', () => {
  it('rewrites a LIST request line to GET with list=true', () => {
    const r = createListRewriter();
    expect(r.push(Buffer.from('LIST /v1/auth/ldap/users HTTP/1.1\r\nHost: x\r\n\r\n')).toString()).toBe(
      'GET /v1/auth/ldap/users?list=true HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(r.push(Buffer.from('LIST /a?b=1 HTTP/1.1\r\n\r\n')).toString()).toBe(
      'GET /a?b=1&list=true HTTP/1.1\r\n\r\n',
    );
  });

  it('leaves a LIST inside a body alone', () => {
    const r = createListRewriter();
    const input = 'POST /a HTTP/1.1\r\nContent-Length: 22\r\n\r\nLIST /x HTTP/1.1\r\n\r\n\r\n';
    expect(r.push(Buffer.from(input)).toString()).toBe(input);
  });

  it('passes malformed input through once framing is lost', () => {
    const r = createListRewriter();
    const input = 'POST /a HTTP/1.1\r\nContent-Length: nope\r\n\r\nLIST /x HTTP/1.1\r\n\r\n';
    expect(r.push(Buffer.from(input)).toString()).toBe(input);
  });

  describe('properties', () => {
    test.prop([fc.array(reqArb, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 12 })])(
      'the output does not depend on how the input is cut',
      (reqs, cuts) => {
        const bytes = Buffer.concat(reqs.map(serialize));
        const whole = createListRewriter().push(bytes);
        const r = createListRewriter();
        const pieces = split(bytes, cuts).map((piece) => r.push(piece));
        expect(Buffer.concat([...pieces, r.end()]).equals(whole)).toBe(true);
      },
    );

    test.prop([fc.array(reqArb, { minLength: 1, maxLength: 5 })])(
      'it rewrites exactly the LIST request lines',
      (reqs) => {
        const out = createListRewriter().push(Buffer.concat(reqs.map(serialize)));
        const want = Buffer.concat(
          reqs.map((req) =>
            serialize(
              req.method === 'LIST'
                ? { ...req, ...expected(req), method: 'GET', path: expected(req).url }
                : req,
            ),
          ),
        );
        expect(out.toString()).toBe(want.toString());
      },
    );
  });
});

describe('acceptListVerb over a real socket', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.stringify({
          method: req.method,
          url: req.url,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    acceptListVerb(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends the pieces one by one on one keep-alive connection and reads `count` answers. */
  async function exchange(
    pieces: readonly Buffer[],
    count: number,
  ): Promise<{ method: string; url: string; body: string }[]> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = Buffer.alloc(0);
    const answers: { method: string; url: string; body: string }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        for (;;) {
          const end = received.indexOf('\r\n\r\n');
          if (end === -1) break;
          const head = received.subarray(0, end).toString();
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 'NaN');
          if (!head.startsWith('HTTP/1.1 200') || Number.isNaN(length)) {
            reject(new Error(`unexpected answer: ${head}`));
            return;
          }
          if (received.length < end + 4 + length) break;
          answers.push(JSON.parse(received.subarray(end + 4, end + 4 + length).toString()) as never);
          received = received.subarray(end + 4 + length);
        }
        if (answers.length === count) resolve();
      });
      socket.on('error', reject);
      socket.on('close', () =>
        answers.length === count ? resolve() : reject(new Error(`closed after ${answers.length} answers`)),
      );
    });
    for (const piece of pieces) {
      socket.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    socket.destroy();
    return answers;
  }

  test.prop([fc.array(reqArb, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 8 })], {
    numRuns: 60,
  })('pipelined requests cut anywhere arrive intact, LIST as GET ?list=true', async (reqs, cuts) => {
    const bytes = Buffer.concat(reqs.map(serialize));
    const answers = await exchange(split(bytes, cuts), reqs.length);
    expect(answers).toEqual(reqs.map(expected));
  });

  it('keeps a connection alive across requests sent one after the other', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const read = (): Promise<string> =>
      new Promise((resolve) => socket.once('data', (c: Buffer) => resolve(c.toString())));
    for (const method of ['LIST', 'GET', 'LIST']) {
      const answer = read();
      socket.write(`${method} /v1/x HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(await answer).toContain(method === 'LIST' ? '"url":"/v1/x?list=true"' : '"url":"/v1/x"');
    }
    socket.destroy();
  });

  it('leaves an unknown method to Node, which answers 400', async () => {
    const socket = connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) =>
      socket.once('data', (c: Buffer) => resolve(c.toString())),
    );
    socket.write('FROB /x HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 400/);
    socket.destroy();
  });
});
