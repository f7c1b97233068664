import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { addressProblem, decodeToken, encodeToken, type PeeringTokenContent } from './token.js';
import { checkPeerName, isPeerName } from './names.js';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const address = fc.tuple(label, fc.integer({ min: 1, max: 65535 })).map(([host, port]) => `${host}:${port}`);
const content: fc.Arbitrary<PeeringTokenContent> = fc.record({
  CA: fc.constant(null),
  ServerAddresses: fc.array(address, { minLength: 1, maxLength: 16 }),
  ServerName: fc.string({ minLength: 1, maxLength: 100 }),
  PeerID: fc.uuid({ version: 4 }),
  EstablishmentSecret: fc.string({ minLength: 1, maxLength: 100 }),
  Remote: fc.record({
    Partition: fc.constant('default'),
    Datacenter: fc.string({ minLength: 1, maxLength: 20 }),
  }),
});

describe('properties', () => {
  test.prop([content])('decodeToken(encodeToken(c)) gives c back', (c) => {
    expect(decodeToken(encodeToken(c))).toEqual(c);
  });

  test.prop([
    fc.oneof(
      fc.string(),
      fc.base64String(),
      fc.json().map((j) => Buffer.from(j).toString('base64')),
    ),
  ])('decodeToken of any text returns a token or throws a 400, nothing else', (text) => {
    try {
      decodeToken(text);
    } catch (error) {
      expect(HttpError.is(error) && error.status === 400).toBe(true);
    }
  });

  test.prop([fc.string()])('a peer name is accepted exactly when it is a lowercase DNS label', (name) => {
    const valid = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name);
    expect(isPeerName(name)).toBe(valid);
    if (!valid) expect(() => checkPeerName(name, 'PeerName')).toThrow(/not a valid peer name/);
  });
});

describe('addressProblem', () => {
  it.each(['a:1', '127.0.0.1:8503', '[::1]:65535', 'lb.example.com:443'])('accepts %s', (text) => {
    expect(addressProblem(text)).toBeUndefined();
  });
  it.each(['a', ':1', 'a:0', 'a:65536', 'a:x', 'a b:1', '[zz]:1', 5])('refuses %j', (text) => {
    expect(addressProblem(text)).toBeTypeOf('string');
  });
});
