import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from './config.js';
import { createMemorySecretsStore } from './store.js';
import {
  SYSTEM_DEFAULT_TTL,
  addressAllowed,
  issueToken,
  hashToken,
  lookupToken,
  lookupView,
  tokenLifetime,
  useToken,
} from './tokens.js';

const grant = { policies: ['default'], username: 'alice', mountPath: 'auth/ldap' };

describe('tokenLifetime', () => {
  it.each([
    [{}, SYSTEM_DEFAULT_TTL],
    [{ token_ttl: 60 }, 60],
    [{ token_ttl: 600, token_max_ttl: 0 }, 600],
    [{ token_max_ttl: 120 }, 120],
    [{ token_period: 30, token_ttl: 600 }, 30],
    [{ token_ttl: 600, token_explicit_max_ttl: 90 }, 90],
    [{ token_period: 600, token_explicit_max_ttl: 90 }, 90],
  ])('%j gives %i s', (settings, seconds) => {
    expect(tokenLifetime({ ...DEFAULT_SETTINGS, ...settings })).toBe(seconds);
  });

  describe('properties', () => {
    test.prop([fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), fc.nat(10_000)])(
      'never exceeds a set explicit max TTL or max TTL',
      (ttl, max, explicit, period) => {
        const life = tokenLifetime({
          ...DEFAULT_SETTINGS,
          token_ttl: ttl,
          token_max_ttl: max,
          token_explicit_max_ttl: explicit,
          token_period: period,
        });
        if (explicit > 0) expect(life).toBeLessThanOrEqual(explicit);
        if (period === 0 && max > 0) expect(life).toBeLessThanOrEqual(max);
        expect(life).toBeGreaterThan(0);
      },
    );
  });
});

describe('issueToken and useToken', () => {
  it('issues distinct random secrets stored by hash only', () => {
    const store = createMemorySecretsStore();
    const a = issueToken(store.tokens, DEFAULT_SETTINGS, grant, 0);
    const b = issueToken(store.tokens, DEFAULT_SETTINGS, grant, 0);
    expect(a.secret).not.toBe(b.secret);
    expect(a.secret).toMatch(/^sks\.[A-Za-z0-9_-]{32}$/);
    expect(JSON.stringify(a.record)).not.toContain(a.secret);
    expect(useToken(store.tokens, a.secret, '127.0.0.1', 1)?.meta).toEqual({ username: 'alice' });
    expect(useToken(store.tokens, `${a.secret}x`, '127.0.0.1', 1)).toBeUndefined();
  });

  it('expires', () => {
    const store = createMemorySecretsStore();
    const { secret } = issueToken(store.tokens, { ...DEFAULT_SETTINGS, token_ttl: 10 }, grant, 1000);
    expect(lookupView(useToken(store.tokens, secret, undefined, 5000)!, 5000).ttl).toBe(6);
    expect(useToken(store.tokens, secret, undefined, 11_000)).toBeUndefined();
    expect(store.tokens.size).toBe(0);
  });

  it('counts uses and is gone after the last', () => {
    const store = createMemorySecretsStore();
    const { secret } = issueToken(store.tokens, { ...DEFAULT_SETTINGS, token_num_uses: 2 }, grant, 0);
    expect(useToken(store.tokens, secret, undefined, 1)?.numUses).toBe(1);
    expect(useToken(store.tokens, secret, undefined, 1)).toBeDefined();
    expect(useToken(store.tokens, secret, undefined, 1)).toBeUndefined();
  });

  it('is refused from outside its CIDR blocks', () => {
    const store = createMemorySecretsStore();
    const { secret } = issueToken(
      store.tokens,
      { ...DEFAULT_SETTINGS, token_bound_cidrs: ['10.0.0.0/8'] },
      grant,
      0,
    );
    expect(useToken(store.tokens, secret, '127.0.0.1', 1)).toBeUndefined();
    expect(useToken(store.tokens, secret, '::ffff:10.1.2.3', 1)).toBeDefined();
  });

  it('sweeps expired tokens', () => {
    const store = createMemorySecretsStore();
    issueToken(store.tokens, { ...DEFAULT_SETTINGS, token_ttl: 1 }, grant, 0);
    issueToken(store.tokens, { ...DEFAULT_SETTINGS, token_ttl: 100 }, grant, 0);
    expect(store.tokens.sweep(5000)).toBe(1);
    expect(store.tokens.size).toBe(1);
  });
});

describe('addressAllowed', () => {
  it.each([
    [[], '1.2.3.4', true],
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.0/8'], '::ffff:127.9.9.9', true],
    [['10.0.0.0/8'], '127.0.0.1', false],
    [['::1/128'], '::1', true],
    [['10.0.0.0/8'], undefined, false],
  ])('%j allows %s: %s', (cidrs, address, allowed) => {
    expect(addressAllowed(cidrs, address)).toBe(allowed);
  });
});

describe('lookupToken (a token handed to the scheduling service)', () => {
  const root = hashToken('the-root');
  it('gives the policies without using the token, root for the root token, and says expired or unknown', () => {
    const store = createMemorySecretsStore();
    const settings = {
      ...DEFAULT_SETTINGS,
      token_ttl: 60,
      token_num_uses: 1,
      token_bound_cidrs: ['10.0.0.0/8'],
    };
    const { secret } = issueToken(store.tokens, settings, { ...grant, policies: ['default', 'web'] }, 1000);
    expect(lookupToken(store.tokens, root, secret, 2000)).toEqual({
      status: 'valid',
      policies: ['default', 'web'],
    });
    // neither the one use nor the CIDR block applies to a lookup: the token is still there for its holder
    expect(lookupToken(store.tokens, root, secret, 2000).status).toBe('valid');
    expect(useToken(store.tokens, secret, '10.1.2.3', 2000)).toBeDefined();
    expect(lookupToken(store.tokens, root, secret, 2000)).toEqual({ status: 'unknown' });
    const { secret: short } = issueToken(store.tokens, { ...DEFAULT_SETTINGS, token_ttl: 1 }, grant, 1000);
    expect(lookupToken(store.tokens, root, short, 2000)).toEqual({ status: 'expired' });
    expect(lookupToken(store.tokens, root, 'the-root', 2000)).toEqual({
      status: 'valid',
      policies: ['root'],
    });
    expect(lookupToken(store.tokens, root, 'sks.nothing', 2000)).toEqual({ status: 'unknown' });
  });
});
