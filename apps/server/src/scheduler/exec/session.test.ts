import { EventEmitter } from 'node:events';

import { describe, expect, it } from 'vitest';

import { serveExecSession, type ExecSocket } from './session.js';

const ALLOC = '5b1f6d3e-9f0a-4c5e-8d7b-2a9c0e1f3b4d';

describe('serveExecSession without ACLs', () => {
  it('refuses a connection that did not arrive over loopback, before running anything', async () => {
    // Arrange: a socket double, as a connection to a non-loopback address would give
    const emitter = new EventEmitter();
    let closed: { code?: number; reason?: string } | undefined;
    const sent: string[] = [];
    const socket: ExecSocket = {
      readyState: 1,
      bufferedAmount: 0,
      send: (data) => void sent.push(data),
      close: (code, reason) => {
        closed = { ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) };
      },
      on: emitter.on.bind(emitter) as ExecSocket['on'],
    };
    let looked = false;
    // Act
    const session = serveExecSession(
      socket,
      {
        allocId: ALLOC,
        query: { command: '["touch","should-not-exist"]', task: 'web' },
        headers: {},
        localAddress: '192.0.2.2',
      },
      {
        findAllocation: () => {
          looked = true;
          return undefined;
        },
      },
    );
    await session.done;
    // Assert
    expect(closed).toEqual({ code: 1008, reason: 'exec is only allowed over loopback while ACLs are off' });
    expect(sent).toEqual([]);
    expect(looked).toBe(false);
  });
});
