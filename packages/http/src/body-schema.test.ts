import { PeeringGenerateTokenRequest, ValidationError } from '@sked/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServer, type TestServer } from '../test/server.js';
import { createTransport, InvalidRequestError, send, type EndpointSpec } from './index.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"PeeringToken":"dG9rZW4="}');
  });
});
afterAll(() => server.close());

const generate = (body: unknown): EndpointSpec => ({
  method: 'POST',
  path: '/v1/peering/token',
  body,
  bodySchema: PeeringGenerateTokenRequest,
  bodyName: 'the generateToken body',
});

describe('a body with a schema', () => {
  it('is sent when it matches', async () => {
    const transport = createTransport({ env: false, address: server.url });
    const before = server.requests.length;
    const answer = await send(transport, generate({ PeerName: 'dc2', Meta: { team: 'a' } }));
    expect(answer.data).toEqual({ PeeringToken: 'dG9rZW4=' });
    expect(server.requests.length - before).toBe(1);
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({ PeerName: 'dc2', Meta: { team: 'a' } });
  });

  it.each([
    [
      { PeerName: 'dc2', Meta: { team: 1 } },
      'Meta.team',
      'The generateToken body is not valid: Meta.team: expected a string but got the number 1.',
    ],
    [{}, 'PeerName', 'The generateToken body is not valid: PeerName: is required but missing.'],
    [
      [1],
      'body',
      'The generateToken body is not valid: (root): expected an object but got an array of 1 item.',
    ],
  ])('%j rejects before any request, naming the path of the problem', async (body, parameter, message) => {
    // Arrange
    const transport = createTransport({ env: false, address: server.url });
    const before = server.requests.length;
    // Act
    const error = await send(transport, generate(body)).catch((e: unknown) => e);
    // Assert
    expect(InvalidRequestError.is(error)).toBe(true);
    expect([(error as InvalidRequestError).parameter, (error as Error).message]).toEqual([
      parameter,
      message,
    ]);
    expect((error as InvalidRequestError).value).toBeUndefined();
    const cause = (error as Error).cause;
    expect(ValidationError.is(cause) && cause.problems[0]?.path).toBe(
      parameter === 'body' ? '' : `/${parameter.replace('.', '/')}`,
    );
    expect(server.requests.length).toBe(before);
  });

  it('lists at most five problems in the message, every one in the cause', async () => {
    const transport = createTransport({ env: false, address: server.url });
    const Meta = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]));
    const error = (await send(transport, generate({ PeerName: 'dc2', Meta })).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/Meta\.k4: expected a string but got the number 4 \(and 3 more\)\.$/);
    expect((error.cause as ValidationError).problems).toHaveLength(8);
  });
});
