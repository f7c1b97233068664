import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { checkConstraint, compareVersions, parseVersion, versionMatches } from './constraints.js';
import { simulatedNode } from './nodes/simulated.js';

const node = simulatedNode(0, '11111111-2222-4333-8444-555555555555', 0, {
  datacenter: 'dc1',
  drivers: ['mock'],
  region: 'global',
});
node.Attributes['os.version'] = '12.4';
node.Attributes['tags'] = 'ssd,gpu,fast';
node.Meta['rack'] = 'r1';

describe('checkConstraint', () => {
  it.each([
    ['${attr.kernel.name}', '=', 'linux', true],
    ['${attr.kernel.name}', '==', 'windows', false],
    ['${attr.kernel.name}', '!=', 'windows', true],
    ['${attr.cpu.numcores}', '>', '2', true],
    ['${attr.cpu.numcores}', '>=', '4', true],
    ['${attr.cpu.numcores}', '<', '4', false],
    ['${attr.cpu.numcores}', '<=', '10', true],
    ['${attr.kernel.name}', 'regexp', '^lin', true],
    ['${attr.kernel.name}', 'regexp', '^win', false],
    ['${attr.os.version}', 'version', '>= 12, < 13', true],
    ['${attr.os.version}', 'version', '~> 12.3', true],
    ['${attr.os.version}', 'version', '> 12.4', false],
    ['${attr.kernel.version}', 'semver', '>= 6.0.0', true],
    ['${attr.os.version}', 'semver', '>= 1.0.0', false],
    ['${attr.tags}', 'set_contains', 'ssd,gpu', true],
    ['${attr.tags}', 'set_contains', 'ssd,tpu', false],
    ['${attr.tags}', 'set_contains_any', 'tpu,gpu', true],
    ['${attr.tags}', 'set_contains_any', 'tpu', false],
    ['${meta.rack}', 'is_set', '', true],
    ['${meta.zone9}', 'is_set', '', false],
    ['${meta.zone9}', 'is_not_set', '', true],
    ['${meta.rack}', '=', 'r1', true],
    ['${node.datacenter}', '=', 'dc1', true],
    ['${node.unique.name}', '=', 'sked-node-1', true],
    ['${node.pool}', '=', 'default', true],
    ['${attr.missing}', '=', 'x', false],
  ])('%s %s %s is %s', (l, op, r, want) => {
    expect(checkConstraint({ LTarget: l, Operand: op, RTarget: r }, node)).toBe(want);
  });
});

describe('Object.prototype names as attribute and meta keys', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'meta and attr key %j are unset on a node without them',
    (name) => {
      for (const target of [`\${meta.${name}}`, `\${attr.${name}}`]) {
        expect(checkConstraint({ LTarget: target, Operand: 'is_set', RTarget: '' }, node)).toBe(false);
        expect(checkConstraint({ LTarget: target, Operand: 'is_not_set', RTarget: '' }, node)).toBe(true);
      }
    },
  );
});

const versionArb = fc
  .tuple(
    fc.nat(20),
    fc.nat(20),
    fc.nat(20),
    fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.2', '1'), { nil: undefined }),
  )
  .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre ? `-${pre}` : ''}`);

describe('properties', () => {
  test.prop([versionArb, versionArb])('version comparison is antisymmetric', (a, b) => {
    const va = parseVersion(a);
    const vb = parseVersion(b);
    expect(va && vb).toBeTruthy();
    if (!va || !vb) return;
    expect(Math.sign(compareVersions(va, vb))).toBe(-Math.sign(compareVersions(vb, va)));
  });

  test.prop([versionArb, versionArb, versionArb])('version comparison is transitive', (a, b, c) => {
    const [x, y, z] = [a, b, c].map((v) => parseVersion(v)!).sort(compareVersions);
    expect(compareVersions(x!, z!)).toBeLessThanOrEqual(0);
    expect(compareVersions(x!, y!)).toBeLessThanOrEqual(0);
  });

  test.prop([fc.nat(50), fc.nat(50), fc.nat(50)])(
    'a release version matches = itself and >= itself, not > itself',
    (a, b, c) => {
      const v = `${a}.${b}.${c}`;
      expect(versionMatches(v, `= ${v}`)).toBe(true);
      expect(versionMatches(v, `>= ${v}`)).toBe(true);
      expect(versionMatches(v, `> ${v}`)).toBe(false);
      expect(versionMatches(v, v, true)).toBe(true);
    },
  );

  test.prop([versionArb, versionArb])('> and <= partition the release versions', (a, b) => {
    if (a.includes('-') || b.includes('-')) return;
    expect(versionMatches(a, `> ${b}`)).toBe(!versionMatches(a, `<= ${b}`));
  });
});

describe('parseVersion', () => {
  it('orders pre-releases before the release', () => {
    expect(compareVersions(parseVersion('1.0.0-beta')!, parseVersion('1.0.0')!)).toBeLessThan(0);
    expect(compareVersions(parseVersion('1.0.0-alpha')!, parseVersion('1.0.0-beta')!)).toBeLessThan(0);
    expect(compareVersions(parseVersion('1.0.0-2')!, parseVersion('1.0.0-10')!)).toBeLessThan(0);
  });

  it('rejects malformed versions', () => {
    expect(parseVersion('abc')).toBeUndefined();
    expect(parseVersion('1.2', true)).toBeUndefined();
    expect(versionMatches('abc', '>= 1.0')).toBe(false);
    expect(versionMatches('1.0', 'bogus')).toBe(false);
  });
});
