import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, applyConfigWrite, configView, CONFIG_PARAMETERS } from './config.js';
import { MAX_TIMER_MS, timerMs } from './ldap-connect.js';
import { HttpError } from '../http/errors.js';
import {
  boolParam,
  cidrsParam,
  countParam,
  durationParam,
  enumParam,
  listParam,
  paramSet,
  readParam,
  readParams,
  stringParam,
  TIMER_DURATION,
} from './params.js';

const tokenTtl = durationParam('token_ttl');
const requestTimeout = durationParam('request_timeout', TIMER_DURATION);
const starttls = boolParam('starttls');
const policies = listParam('policies');
const cidrs = cidrsParam('token_bound_cidrs');
const ttlSeconds = (value: unknown): number | undefined => readParam(tokenTtl, value);

describe('parameters', () => {
  it.each([
    [90, 90],
    ['90', 90],
    ['90s', 90],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1.5h', 5400],
    ['2d', 172_800],
    ['1500ms', 1],
    ['', 0],
  ])('token_ttl %j reads as %i seconds', (value, seconds) => {
    expect(ttlSeconds(value)).toBe(seconds);
  });

  it.each([[-1], [1.5], ['abc'], ['1x'], [true], [{}], [[]], [null]])('token_ttl refuses %j', (value) => {
    expect(() => ttlSeconds(value)).toThrow(/invalid value for "token_ttl": expected a duration/);
  });

  it('refuses a duration over its limit naming the parameter and the limit', () => {
    expect(() => readParam(requestTimeout, '25d')).toThrow(
      'invalid value for "request_timeout": at most 2147483 seconds (the longest a timer can wait, 2^31-1 ms), got "25d"',
    );
    expect(() => readParam(requestTimeout, 2_147_484)).toThrow(/at most 2147483 seconds/);
    expect(readParam(requestTimeout, 2_147_483)).toBe(2_147_483);
    expect(readParam(requestTimeout, '596h31m23s')).toBe(2_147_483);
    expect(() => ttlSeconds('900000h')).toThrow(
      'invalid value for "token_ttl": at most 3153600000 seconds (100 years), got "900000h"',
    );
    // Beyond Go's range (2^63-1 ns) a text is no duration at all, as the service's parser says.
    expect(() => ttlSeconds('99999999999999h')).toThrow('invalid value for "token_ttl": expected a duration');
  });

  test.prop([
    fc.oneof(
      fc.nat(),
      fc.nat().map(String),
      fc.tuple(fc.nat(), fc.constantFrom('s', 'm', 'h', 'd', 'ms')).map(([n, u]) => `${n}${u}`),
    ),
  ])('a duration accepted for a timer is one a timer holds', (value) => {
    let seconds: number | undefined;
    try {
      seconds = readParam(requestTimeout, value);
    } catch (error) {
      // Over the timer's limit, or (past 2^63-1 ns) past what Go's duration parser reads.
      expect((error as Error).message).toMatch(
        /^invalid value for "request_timeout": (at most 2147483 seconds|expected a duration)/,
      );
      return;
    }
    expect(seconds! * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(timerMs(seconds!)).toBe(seconds! * 1000);
  });

  it('timerMs never hands a timer more than it holds (a stored value from before the limit)', () => {
    expect(timerMs(25 * 86_400)).toBe(MAX_TIMER_MS);
    expect(timerMs(90)).toBe(90_000);
  });

  it('decodes booleans the way the service does', () => {
    expect(readParam(starttls, 'true')).toBe(true);
    expect(readParam(starttls, 'F')).toBe(false);
    expect(readParam(starttls, false)).toBe(false);
    expect(() => readParam(starttls, 'yes')).toThrow(
      'invalid value for "starttls": expected a boolean, got "yes"',
    );
    expect(() => readParam(starttls, 1)).toThrow('invalid value for "starttls": expected a boolean, got 1');
  });

  it('decodes lists from arrays and comma strings', () => {
    expect(readParam(policies, ' a, b ,,a')).toEqual(['a', 'b']);
    expect(readParam(policies, ['x', 'y'])).toEqual(['x', 'y']);
    expect(readParam(policies, null)).toBeUndefined(); // null is not sent
    expect(() => readParam(policies, [1])).toThrow(
      'invalid value for "policies": expected a list of strings or a comma-separated string, got [1]',
    );
    expect(() => readParam(policies, 'ok, a\u0000b')).toThrow(
      'invalid value for "policies": expected names without control characters, got "a\\u0000b"',
    );
    expect(() => readParam(policies, ['ok', 'x'.repeat(1025)])).toThrow(
      'an item of "policies" is longer than 1024 characters',
    );
    expect(() => readParam(policies, ','.repeat(10_000))).toThrow('"policies" has more than 10000 items');
  });

  it('decodes CIDR blocks', () => {
    expect(readParam(cidrs, '10.0.0.0/8, 127.0.0.1,::1/128')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1/128']);
    expect(() => readParam(cidrs, '10.0.0.0/8,10.0.0.0/33')).toThrow(
      'invalid value for "token_bound_cidrs": expected CIDR blocks such as "10.0.0.0/8", got "10.0.0.0/33"',
    );
    expect(() => readParam(cidrs, 'example.org')).toThrow(/CIDR blocks/);
  });

  it('reads counts, strings and one of a set, quoting at most 80 characters of a bad value', () => {
    const uses = countParam('token_num_uses');
    expect([readParam(uses, 5), readParam(uses, '12')]).toEqual([5, 12]);
    expect(() => readParam(uses, '1234567890123456')).toThrow(
      'invalid value for "token_num_uses": expected a non-negative integer, got "1234567890123456"',
    );
    expect(() => readParam(stringParam('binddn', 10), 'x'.repeat(11))).toThrow(
      '"binddn" is longer than 10 characters',
    );
    expect(() => readParam(enumParam('tls', ['tls12', 'tls13']), 'x'.repeat(100))).toThrow(
      `invalid value for "tls": expected one of "tls12", "tls13", got "${'x'.repeat(76)}...`,
    );
  });
});

describe('readParams', () => {
  const set = paramSet([starttls, policies]);
  const refusal = (body: unknown): string => {
    try {
      readParams(set, body);
    } catch (error) {
      expect(HttpError.is(error) && error.status).toBe(400);
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('decodes what is sent, leaves out a null list, and reads an empty body as no parameters', () => {
    expect([...readParams(set, { policies: 'b,a', starttls: 't' })]).toEqual([
      ['policies', ['b', 'a']],
      ['starttls', true],
    ]);
    expect([...readParams(set, { policies: null })]).toEqual([]);
    expect([...readParams(set, undefined), ...readParams(set, null)]).toEqual([]);
  });

  it.each([
    ['text', 'the request body must be a JSON object of parameters'],
    [[1], 'the request body must be a JSON object of parameters'],
    [{ starttls: 'maybe', nope: 1 }, 'unknown parameter "nope"; this endpoint accepts starttls, policies'],
    [
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, 1])),
      'unknown parameters "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"; this endpoint accepts starttls, policies',
    ],
    [
      { ['x'.repeat(80)]: 1 },
      `unknown parameter "${'x'.repeat(57)}..."; this endpoint accepts starttls, policies`,
    ],
    [
      JSON.parse('{"__proto__": 1}'),
      'unknown parameter "__proto__"; this endpoint accepts starttls, policies',
    ],
    // the first bad parameter as sent
    [
      { policies: 5, starttls: 'maybe' },
      'invalid value for "policies": expected a list of strings or a comma-separated string, got 5',
    ],
    [{ policies: 'a', starttls: 'maybe' }, 'invalid value for "starttls": expected a boolean, got "maybe"'],
  ])('refuses %j: %s', (body, message) => {
    expect(refusal(body)).toBe(message);
  });

  describe('properties', () => {
    test.prop([fc.nat(100_000), fc.nat(59), fc.nat(59)])('h/m/s strings add up', (h, m, s) => {
      expect(ttlSeconds(`${h}h${m}m${s}s`)).toBe(h * 3600 + m * 60 + s);
    });
    test.prop([fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/))])(
      'a list survives a comma string',
      (items) => {
        expect(readParam(policies, items.join(','))).toEqual([...new Set(items)]);
      },
    );
  });
});

describe('applyConfigWrite', () => {
  it('keeps what is not sent and never shows bindpass', () => {
    const a = applyConfigWrite(DEFAULT_SETTINGS, { binddn: 'cn=x', bindpass: 's3cret', token_ttl: '1h' });
    const b = applyConfigWrite(a, { userattr: 'uid' });
    expect(b.bindpass).toBe('s3cret');
    expect(b.token_ttl).toBe(3600);
    expect(configView(b)).toMatchObject({ binddn: 'cn=x', bindpass: '', userattr: 'uid', token_ttl: 3600 });
    expect(Object.keys(configView(b)).sort()).toEqual([...CONFIG_PARAMETERS].sort());
    expect(CONFIG_PARAMETERS).toHaveLength(32);
  });

  it.each([
    [{ url: 'http://x' }, /"url": "http:\/\/x" is not an ldap/],
    [{ nope: 1 }, /unknown parameter "nope"/],
    [{ tls_min_version: 'tls13', tls_max_version: 'tls12' }, /"tls_max_version" must be greater/],
    [{ certificate: 'not a pem' }, /"certificate": not an x509 PEM/],
    [{ client_tls_cert: '', client_tls_key: 'x' }, /"client_tls_key": not a PEM private key/],
    [{ token_ttl: 100, token_max_ttl: 10 }, /"token_ttl" cannot be greater than "token_max_ttl"/],
    [{ userfilter: '({{.UserDN}}=x)' }, /"userfilter": unknown variable/],
    [{ token_type: 'other' }, /"token_type": expected one of/],
    [{ request_timeout: 0 }, /at least 1 second/],
    [{ userattr: 'a b' }, /is not an attribute name/],
    ['text', /must be a JSON object/],
    [[1], /must be a JSON object/],
  ])('refuses %j', (body, message) => {
    expect(() => applyConfigWrite(DEFAULT_SETTINGS, body)).toThrow(message);
  });
});
