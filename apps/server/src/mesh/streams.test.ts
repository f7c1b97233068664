import { describe, expect, it } from 'vitest';
import { readStreamMessage } from './streams.js';

describe('readStreamMessage', () => {
  it.each([
    ['{"type":"heartbeat"}', 'heartbeat'],
    ['{"type":"terminated"}', 'terminated'],
    ['{"type":"other"}', undefined],
    ['null', undefined],
    ['{', undefined],
    [`{"type":"heartbeat","pad":"${'x'.repeat(300)}"}`, undefined],
  ])('reads %s as %s', (text, expected) => {
    expect(readStreamMessage(Buffer.from(text), false)).toBe(expected);
  });

  it('ignores binary frames and reads fragmented ones', () => {
    expect(readStreamMessage(Buffer.from('{"type":"heartbeat"}'), true)).toBeUndefined();
    expect(readStreamMessage([Buffer.from('{"type":"hea'), Buffer.from('rtbeat"}')], false)).toBe(
      'heartbeat',
    );
  });
});
