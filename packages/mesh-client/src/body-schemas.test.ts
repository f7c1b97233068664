/**
 * Request bodies checked against the model's schemas in `@sked/http`, before anything is sent: counted
 * at a real HTTP server.
 */
import { ValidationError } from '@sked/model';
import { startRecordingServer, type RecordingServer } from '@sked/testkit/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMeshClient, InvalidRequestError } from './index.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((request) => ({
    body: request.url.startsWith('/v1/peering/token') ? '{"PeeringToken":"e30="}' : '{}',
  }));
});
afterAll(() => server.close());

const token = Buffer.from('{"CA":null}').toString('base64');

describe('peering bodies', () => {
  it('sends bodies of the model, and refuses others before any request', async () => {
    // Arrange
    const { peerings } = createMeshClient({ address: server.url, env: false });
    const before = server.requests.length;
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'sent',
        (e: unknown) =>
          InvalidRequestError.is(e) ? [e.parameter, e.message, ValidationError.is(e.cause)] : e,
      );
    // Act
    const sent = [
      await refusal(peerings.generateToken({ PeerName: 'dc2', Meta: { team: 'a' } })),
      await refusal(peerings.establish({ PeerName: 'dc2', PeeringToken: token, Meta: null })),
    ];
    const refused = [
      await refusal(peerings.generateToken({ PeerName: 'dc2', Meta: { team: 1 as never } })),
      await refusal(peerings.establish({ PeerName: 'dc2', PeeringToken: token, Meta: ['x'] as never })),
      await refusal(peerings.generateToken('dc2' as never)),
    ];
    // Assert
    expect(sent).toEqual(['sent', 'sent']);
    expect(server.requests.slice(before).map((r) => [r.url, JSON.parse(r.body) as unknown])).toEqual([
      ['/v1/peering/token', { PeerName: 'dc2', Meta: { team: 'a' } }],
      ['/v1/peering/establish', { PeerName: 'dc2', PeeringToken: token }],
    ]);
    expect(refused).toEqual([
      [
        'Meta.team',
        'The generateToken body is not valid: Meta.team: expected a string but got the number 1.',
        true,
      ],
      [
        'Meta',
        'The establish body is not valid: Meta: expected an object or null but got an array of 1 item.',
        true,
      ],
      [
        'body',
        'The generateToken body is not valid: (root): expected an object but got the string "dc2".',
        true,
      ],
    ]);
    expect(server.requests.length - before).toBe(2);
  });
});
