import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ExecExposureError, assertExecExposureAllowed } from './bind.js';
import { MAX_CLIENT_FRAME_BYTES, parseClientFrame, serverFrame } from './frames.js';
import { parseExecParams } from './params.js';
import { closeReason, isLoopbackAddress } from './session.js';

describe('parseClientFrame', () => {
  it.each([
    ['{"version":1,"auth_token":"s3cret"}', { kind: 'auth', version: 1, token: 's3cret' }],
    ['{"stdin":{"data":"aGk="}}', { kind: 'stdin', data: Buffer.from('hi') }],
    ['{"stdin":{"close":true}}', { kind: 'stdin-close' }],
    ['{"tty_size":{"height":24,"width":80}}', { kind: 'resize', height: 24, width: 80 }],
    ['{}', { kind: 'heartbeat' }],
    ['{"something":"new"}', { kind: 'heartbeat' }],
  ])('parses %s', (text, message) => {
    expect(parseClientFrame(text)).toEqual({ ok: true, message });
  });

  it.each([
    ['not json', 'exec frame is not valid JSON'],
    ['[1]', 'exec frame is not a JSON object'],
    ['null', 'exec frame is not a JSON object'],
    ['{"version":1}', 'authentication frame has no string auth_token'],
    ['{"version":"1","auth_token":"x"}', 'authentication frame version "1" is not supported (expected 1)'],
    ['{"stdin":"hi"}', 'stdin frame is not an object'],
    ['{"stdin":{"data":"***"}}', 'stdin frame data is not a base64 string'],
    ['{"stdin":{}}', 'stdin frame data is not a base64 string'],
    [
      '{"tty_size":{"height":0,"width":80}}',
      'tty_size frame {"height":0,"width":80} needs integer height and width between 1 and 65535',
    ],
    [
      '{"tty_size":{"height":1.5,"width":80}}',
      'tty_size frame {"height":1.5,"width":80} needs integer height and width between 1 and 65535',
    ],
  ])('rejects %s with a sentence', (text, message) => {
    expect(parseClientFrame(text)).toEqual({ ok: false, message });
  });

  it('rejects a deeply nested frame with where it failed, as every body of the listeners', () => {
    const text = `{"tty_size":${'{"height":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    expect(parseClientFrame(text)).toEqual({
      ok: false,
      message:
        'exec frame is nested more than 256 levels deep in property "tty_size" at position 2562 (line 1 column 2563)',
    });
  });

  it('rejects an oversized frame without parsing it', () => {
    const text = `{"stdin":{"data":"${'A'.repeat(MAX_CLIENT_FRAME_BYTES)}"}}`;
    expect(parseClientFrame(text)).toEqual({
      ok: false,
      message: `exec frame of ${text.length} bytes is larger than the limit of 1 MiB`,
    });
  });
});

describe('serverFrame', () => {
  it('encodes every frame of the spec table', () => {
    expect(JSON.parse(serverFrame.data('stdout', Buffer.from('hi')))).toEqual({ stdout: { data: 'aGk=' } });
    expect(JSON.parse(serverFrame.data('stderr', Buffer.from('!')))).toEqual({ stderr: { data: 'IQ==' } });
    expect(JSON.parse(serverFrame.close('stdout'))).toEqual({ stdout: { close: true } });
    expect(JSON.parse(serverFrame.close('stderr'))).toEqual({ stderr: { close: true } });
    expect(JSON.parse(serverFrame.exited(3))).toEqual({ exited: true, result: { exit_code: 3 } });
    expect(JSON.parse(serverFrame.heartbeat())).toEqual({});
  });
});

describe('parseExecParams', () => {
  it('parses every parameter', () => {
    expect(
      parseExecParams({ command: '["/bin/sh","-c","ls"]', task: 'web', tty: 'true', ws_handshake: '1' }),
    ).toEqual({
      ok: true,
      params: { command: ['/bin/sh', '-c', 'ls'], task: 'web', tty: true, wsHandshake: true },
    });
  });

  it('defaults tty and ws_handshake to false and takes the last of repeated values', () => {
    expect(parseExecParams({ command: ['["a"]', '["b"]'], task: 'web' })).toEqual({
      ok: true,
      params: { command: ['b'], task: 'web', tty: false, wsHandshake: false },
    });
  });

  it.each([
    [{ command: '["a\\u0000b"]', task: 'web' }, 'command "[\\"a\\\\u0000b\\"]" contains a NUL character'],
    [{ command: 'x'.repeat(70_000), task: 'web' }, 'command is longer than the limit of 64 KiB'],
    [
      { command: '["a"]', task: 'web', ws_handshake: 'yes' },
      'ws_handshake "yes" is not a boolean (true or false)',
    ],
    [{ command: '[""]', task: 'web' }, 'command is empty: name the program to run as its first element'],
  ])('rejects %j', (query, message) => {
    expect(parseExecParams(query)).toEqual({ ok: false, message });
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['0.0.0.0', false],
    ['::', false],
    [undefined, false],
  ])('%s -> %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe('assertExecExposureAllowed', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '[::1]'])('allows %s without ACLs', (bind) => {
    expect(() => assertExecExposureAllowed({ bind, aclEnabled: false })).not.toThrow();
  });

  it('allows any address with ACLs, or with exec disabled', () => {
    expect(() => assertExecExposureAllowed({ bind: '0.0.0.0', aclEnabled: true })).not.toThrow();
    expect(() =>
      assertExecExposureAllowed({ bind: '0.0.0.0', aclEnabled: false, execEnabled: false }),
    ).not.toThrow();
  });

  it.each(['0.0.0.0', '::', '192.168.1.10'])('refuses %s without ACLs, naming the address', (bind) => {
    let error: unknown;
    try {
      assertExecExposureAllowed({ bind, aclEnabled: false });
    } catch (caught) {
      error = caught;
    }
    expect(ExecExposureError.is(error)).toBe(true);
    expect((error as ExecExposureError).bind).toBe(bind);
    expect((error as Error).message).toContain(JSON.stringify(bind));
  });
});

describe('properties', () => {
  test.prop([fc.uint8Array({ maxLength: 4096 })])(
    'stdin data survives the base64 frame round trip',
    (bytes) => {
      const frame = JSON.stringify({ stdin: { data: Buffer.from(bytes).toString('base64') } });
      expect(parseClientFrame(frame)).toEqual({
        ok: true,
        message: { kind: 'stdin', data: Buffer.from(bytes) },
      });
    },
  );

  test.prop([fc.string({ maxLength: 2000 })])('parseClientFrame never throws', (text) => {
    expect(typeof parseClientFrame(text).ok).toBe('boolean');
  });

  test.prop([fc.dictionary(fc.constantFrom('command', 'task', 'tty', 'ws_handshake'), fc.string())])(
    'parseExecParams never throws',
    (query) => {
      expect(typeof parseExecParams(query).ok).toBe('boolean');
    },
  );

  test.prop([fc.string({ maxLength: 400 })])(
    'closeReason fits in 123 bytes and keeps short reasons',
    (text) => {
      const reason = closeReason(text);
      expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
      if (Buffer.byteLength(text) <= 123) expect(reason).toBe(text);
    },
  );
});
