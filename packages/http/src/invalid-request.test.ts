import { describe, expect, it } from 'vitest';

import { createTransport, InvalidRequestError, isTransport } from './index.js';

describe('InvalidRequestError', () => {
  it('carries the parameter and value, and is recognised across copies by its brand', () => {
    const error = new InvalidRequestError('PeerName "X" is not a valid peer name.', 'PeerName', 'X');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'InvalidRequestError', parameter: 'PeerName', value: 'X' });
    expect(InvalidRequestError.is(error)).toBe(true);
    const copy = Object.defineProperty(new Error('x'), Symbol.for('@sked/http/InvalidRequestError'), {
      value: true,
    });
    expect(InvalidRequestError.is(copy)).toBe(true);
    expect(InvalidRequestError.is(new Error('x'))).toBe(false);
    expect(InvalidRequestError.is(null)).toBe(false);
  });
});

describe('isTransport', () => {
  it('tells a transport from options', () => {
    expect(isTransport(createTransport({ env: false }))).toBe(true);
    expect(isTransport({ address: 'http://x' })).toBe(false);
    expect(isTransport(undefined)).toBe(false);
  });
});
