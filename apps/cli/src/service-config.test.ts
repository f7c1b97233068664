import { MESH_DEFAULT_ADDRESS } from '@sked/mesh-client';
import { SECRETS_DEFAULT_ADDRESS } from '@sked/secrets-client';
import { afterEach, describe, expect, it } from 'vitest';

import { connectionOptions, errorContext, resolvedAddress } from './service-config.js';

const saved = { secrets: { address: 'http://saved:8200', token: 'saved-token' } };
const names = ['SKED_SECRETS_ADDR', 'SKED_SECRETS_TOKEN', 'SKED_MESH_ADDR', 'SKED_ADDR'] as const;
const before = new Map(names.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const [name, value] of before) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
const clear = (): void => {
  for (const name of names) delete process.env[name];
};

describe('service configuration', () => {
  it('the saved secrets login ranks below a flag and below the environment', () => {
    clear();
    expect(connectionOptions('secrets', {}, saved)).toEqual({
      address: 'http://saved:8200',
      token: 'saved-token',
    });
    process.env['SKED_SECRETS_ADDR'] = 'http://env:8200';
    expect(connectionOptions('secrets', {}, saved)).toEqual({ token: 'saved-token' });
    expect(connectionOptions('secrets', { address: 'http://flag:1', token: 't' }, saved)).toEqual({
      address: 'http://flag:1',
      token: 't',
    });
    expect(connectionOptions('secrets', {}, saved, false)).toEqual({});
  });

  it('other services ignore the saved secrets login', () => {
    clear();
    expect(connectionOptions('mesh', { timeout: 5 }, saved)).toEqual({ timeout: 5 });
  });

  it('the address errors name is the one the client resolves: flag, environment, client default', () => {
    clear();
    expect(resolvedAddress('mesh', {})).toBe(MESH_DEFAULT_ADDRESS);
    expect(resolvedAddress('secrets', {})).toBe(SECRETS_DEFAULT_ADDRESS);
    process.env['SKED_MESH_ADDR'] = 'http://mesh.env:8501/';
    expect(resolvedAddress('mesh', {})).toBe('http://mesh.env:8501');
    expect(resolvedAddress('mesh', { address: 'http://flag:2' })).toBe('http://flag:2');
    expect(resolvedAddress('scheduler', { address: 'not a url' })).toBe('not a url');
    expect(errorContext('mesh', 'http://x:1')).toEqual({
      service: 'mesh service',
      addressVar: 'SKED_MESH_ADDR',
      tokenVar: 'SKED_MESH_TOKEN',
      address: 'http://x:1',
    });
  });
});
