import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError, createTransport } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'sked-http-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configError = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (ConfigError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('defaults to the local scheduling service with no token, namespace or region', () => {
    const { config } = createTransport({ env: false });
    expect(config).toEqual({
      address: 'http://127.0.0.1:4646',
      tokenHeader: 'X-Svc-Token',
      headers: {},
      timeout: 0,
      maxResponseBytes: 64 * 1024 * 1024,
    });
    expect(config.token).toBeUndefined();
  });

  it('reads SKED_ADDR, SKED_TOKEN, SKED_NAMESPACE and SKED_REGION', () => {
    const transport = createTransport({
      env: {
        SKED_ADDR: 'https://sched.example:4646/',
        SKED_TOKEN: 'tok',
        SKED_NAMESPACE: 'prod',
        SKED_REGION: 'eu',
      },
    });
    expect(transport.config).toMatchObject({
      address: 'https://sched.example:4646',
      namespace: 'prod',
      region: 'eu',
    });
    expect(transport.config.token).toBe('tok');
  });

  it('prefers options over the environment, and ignores empty variables', () => {
    const { config } = createTransport({
      address: 'http://other:1',
      namespace: 'dev',
      env: { SKED_ADDR: 'http://env:2', SKED_NAMESPACE: 'prod', SKED_REGION: '' },
    });
    expect(config).toMatchObject({ address: 'http://other:1', namespace: 'dev' });
    expect(config.region).toBeUndefined();
  });

  it('reads the variables of another prefix for the secrets and mesh clients', () => {
    const { config } = createTransport({
      envPrefix: 'SKED_SECRETS_',
      tokenHeader: 'X-Secrets-Token',
      defaultAddress: 'http://127.0.0.1:8200',
      env: { SKED_ADDR: 'http://sched:4646', SKED_TOKEN: 'sched', SKED_SECRETS_TOKEN: 'secrets-ish' },
    });
    expect(config.address).toBe('http://127.0.0.1:8200');
    expect(config.token).toBe('secrets-ish');
    expect(config.tokenHeader).toBe('X-Secrets-Token');
  });

  it('keeps the token out of logs and JSON of the configuration', () => {
    const { config } = createTransport({ token: 'very-secret', env: false });
    expect(JSON.stringify(config)).not.toContain('very-secret');
    expect(Object.keys(config)).not.toContain('token');
    expect(config.token).toBe('very-secret');
  });

  it('keeps a path prefix of the address', () => {
    const transport = createTransport({ address: 'http://proxy:8080/sched/', env: false });
    expect(transport.url('/v1/jobs').toString()).toBe('http://proxy:8080/sched/v1/jobs');
  });
});

describe('bad input', () => {
  it.each([
    ['localhost:4646', 'The address "localhost:4646" (option address) is not an http:// or https:// URL.'],
    ['not a url', 'The address "not a url" (option address) is not an http:// or https:// URL.'],
    ['ftp://files:21', 'The address "ftp://files:21" (option address) is not an http:// or https:// URL.'],
    [
      'http://user:pw@h:1/?q=1',
      'The address "http://h:1/" (option address) must not carry credentials, a query or a fragment.',
    ],
  ])('refuses the address %j', (address, message) => {
    const error = configError(() => createTransport({ address, env: false }));
    expect(error.message).toBe(message);
    expect(error.source).toBe('option address');
    expect(error.message).not.toContain('pw');
  });

  it('never quotes credentials of a malformed address', () => {
    const error = configError(() => createTransport({ address: 'ftp://user:hunter2@files:21', env: false }));
    expect(error.message).toBe(
      'The address "ftp://[REDACTED]@files:21" (option address) is not an http:// or https:// URL.',
    );
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });

  it('names SKED_ADDR when the bad address comes from the environment', () => {
    const error = configError(() => createTransport({ env: { SKED_ADDR: '127.0.0.1:4646' } }));
    expect(error.message).toBe('The address "127.0.0.1:4646" (SKED_ADDR) is not an http:// or https:// URL.');
    expect(error).toMatchObject({ name: 'ConfigError', source: 'SKED_ADDR', value: '127.0.0.1:4646' });
  });

  it.each(['maybe', 'yes', '2', 'tRuE'])('refuses SKED_SKIP_VERIFY=%j', (value) => {
    const error = configError(() => createTransport({ env: { SKED_SKIP_VERIFY: value } }));
    expect(error.message).toBe(
      `SKED_SKIP_VERIFY must be a boolean (true, false, 1, 0, t, f), got ${JSON.stringify(value)}.`,
    );
  });

  it.each([
    ['TRUE', false],
    ['1', false],
    ['t', false],
    ['F', true],
    ['false', true],
    ['0', true],
  ])('reads SKED_SKIP_VERIFY=%j', (value, rejectUnauthorized) => {
    expect(createTransport({ env: { SKED_SKIP_VERIFY: value } }).config.tls?.rejectUnauthorized).toBe(
      rejectUnauthorized,
    );
  });

  it('names a missing CA file and where it came from', () => {
    const missing = join(dir, 'nope.pem');
    const fromEnv = configError(() => createTransport({ env: { SKED_CACERT: missing } }));
    expect(fromEnv.message).toBe(
      `Could not read the CA certificate file "${missing}" (SKED_CACERT): no such file.`,
    );
    const fromOption = configError(() => createTransport({ env: false, tls: { caFile: missing } }));
    expect(fromOption.message).toBe(
      `Could not read the CA certificate file "${missing}" (option tls.caFile): no such file.`,
    );
    expect(fromOption.cause).toBeDefined();
  });

  it('refuses a CA file that holds no PEM block', () => {
    const file = join(dir, 'garbage.pem');
    writeFileSync(file, 'hello');
    expect(() => createTransport({ env: false, tls: { caFile: file } })).toThrow(
      `The CA certificate file "${file}" (option tls.caFile) holds no PEM block.`,
    );
  });

  it('refuses a client certificate without its key, and a key without its certificate', () => {
    const pem = join(dir, 'cert.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n');
    expect(() => createTransport({ env: { SKED_CLIENT_CERT: pem } })).toThrow(
      'A client certificate was given (SKED_CLIENT_CERT) without a client key (option tls.keyFile or SKED_CLIENT_KEY); mutual TLS needs both.',
    );
    expect(() => createTransport({ env: false, tls: { keyFile: pem } })).toThrow(
      'A client key was given (option tls.keyFile) without a client certificate (option tls.certFile or SKED_CLIENT_CERT); mutual TLS needs both.',
    );
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses the timeout %d', (timeout) => {
    expect(() => createTransport({ env: false, timeout })).toThrow(
      `The timeout ${String(timeout)} (option timeout) must be a non-negative number of milliseconds.`,
    );
  });

  it('refuses a token header that is not a header name', () => {
    expect(() => createTransport({ env: false, tokenHeader: 'X Svc: Token' })).toThrow(
      'The token header "X Svc: Token" (option tokenHeader) is not a valid header name.',
    );
  });

  it('refuses a token with a line break without echoing it', () => {
    const error = configError(() => createTransport({ env: false, token: 'abc\r\nX-Evil: 1' }));
    expect(error.message).toBe(
      'The token contains a line break or NUL character, which a header cannot carry.',
    );
    expect(error.message).not.toContain('abc');
    expect(error.value).toBeUndefined();
  });

  it('recognises its errors across copies by brand', () => {
    const error = configError(() => createTransport({ address: 'x', env: false }));
    expect(ConfigError.is(error)).toBe(true);
    expect(ConfigError.is(new Error('x'))).toBe(false);
    expect(ConfigError.is({ name: 'ConfigError' })).toBe(false);
  });
});
