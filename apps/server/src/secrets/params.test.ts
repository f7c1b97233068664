import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, applyConfigWrite, configView, CONFIG_PARAMETERS } from './config.js';
import { MAX_TIMER_MS, timerMs } from './ldap-connect.js';
import { decodeBool, decodeCidrs, decodeDuration, decodeList, TIMER_DURATION } from './params.js';

describe('decoders', () => {
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
  ])('decodeDuration(%j) is %i', (value, seconds) => {
    expect(decodeDuration('token_ttl', value)).toBe(seconds);
  });

  it.each([[-1], [1.5], ['abc'], ['1x'], [true], [{}], [[]], [null]])(
    'decodeDuration refuses %j',
    (value) => {
      expect(() => decodeDuration('token_ttl', value)).toThrow(
        /invalid value for "token_ttl": expected a duration/,
      );
    },
  );

  it('refuses a duration over its limit naming the parameter and the limit', () => {
    expect(() => decodeDuration('request_timeout', '25d', TIMER_DURATION)).toThrow(
      'invalid value for "request_timeout": at most 2147483 seconds (the longest a timer can wait, 2^31-1 ms), got "25d"',
    );
    expect(() => decodeDuration('request_timeout', 2_147_484, TIMER_DURATION)).toThrow(
      /at most 2147483 seconds/,
    );
    expect(decodeDuration('request_timeout', 2_147_483, TIMER_DURATION)).toBe(2_147_483);
    expect(decodeDuration('request_timeout', '596h31m23s', TIMER_DURATION)).toBe(2_147_483);
    expect(() => decodeDuration('token_ttl', '900000h')).toThrow(
      'invalid value for "token_ttl": at most 3153600000 seconds (100 years), got "900000h"',
    );
    // Beyond Go's range (2^63-1 ns) a text is no duration at all, as the service's parser says.
    expect(() => decodeDuration('token_ttl', '99999999999999h')).toThrow(
      'invalid value for "token_ttl": expected a duration',
    );
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
      seconds = decodeDuration('request_timeout', value, TIMER_DURATION);
    } catch (error) {
      // Over the timer's limit, or (past 2^63-1 ns) past what Go's duration parser reads.
      expect((error as Error).message).toMatch(
        /^invalid value for "request_timeout": (at most 2147483 seconds|expected a duration)/,
      );
      return;
    }
    expect(seconds * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(timerMs(seconds)).toBe(seconds * 1000);
  });

  it('timerMs never hands a timer more than it holds (a stored value from before the limit)', () => {
    expect(timerMs(25 * 86_400)).toBe(MAX_TIMER_MS);
    expect(timerMs(90)).toBe(90_000);
  });

  it('decodes booleans the way the service does', () => {
    expect(decodeBool('starttls', 'true')).toBe(true);
    expect(decodeBool('starttls', 'F')).toBe(false);
    expect(() => decodeBool('starttls', 'yes')).toThrow(
      'invalid value for "starttls": expected a boolean, got "yes"',
    );
    expect(() => decodeBool('starttls', 1)).toThrow(/expected a boolean/);
  });

  it('decodes lists from arrays and comma strings', () => {
    expect(decodeList('policies', ' a, b ,,a')).toEqual(['a', 'b']);
    expect(decodeList('policies', ['x', 'y'])).toEqual(['x', 'y']);
    expect(() => decodeList('policies', [1])).toThrow(/invalid value for "policies"/);
    expect(() => decodeList('policies', 'a\u0000b')).toThrow(/control characters/);
  });

  it('decodes CIDR blocks', () => {
    expect(decodeCidrs('token_bound_cidrs', '10.0.0.0/8, 127.0.0.1,::1/128')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1/128',
    ]);
    expect(() => decodeCidrs('token_bound_cidrs', '10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
    expect(() => decodeCidrs('token_bound_cidrs', 'example.org')).toThrow(/CIDR blocks/);
  });

  describe('properties', () => {
    test.prop([fc.nat(100_000), fc.nat(59), fc.nat(59)])('h/m/s strings add up', (h, m, s) => {
      expect(decodeDuration('x', `${h}h${m}m${s}s`)).toBe(h * 3600 + m * 60 + s);
    });
    test.prop([fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/))])(
      'a list survives a comma string',
      (items) => {
        expect(decodeList('p', items.join(','))).toEqual([...new Set(items)]);
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
