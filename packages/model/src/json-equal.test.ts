import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { jsonEqual } from './json-equal.js';

/** The same value with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      Object.defineProperty(out, key, {
        value: reordered((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

describe('jsonEqual', () => {
  it('objects are equal whatever the order of their keys', () => {
    const a = { Cpu: 100, MemoryMB: 256, Networks: [{ Mode: 'host', DynamicPorts: [{ Label: 'http' }] }] };
    const b = { Networks: [{ DynamicPorts: [{ Label: 'http' }], Mode: 'host' }], MemoryMB: 256, Cpu: 100 };
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
    expect(jsonEqual(a, b)).toBe(true);
  });

  it('absent, undefined and null read the same; an empty list or object is not null', () => {
    expect(jsonEqual({ Meta: null }, {})).toBe(true);
    expect(jsonEqual({ Meta: undefined, A: 1 }, { A: 1, Env: null })).toBe(true);
    expect(jsonEqual(null, undefined)).toBe(true);
    expect(jsonEqual({ Meta: {} }, {})).toBe(false);
    expect(jsonEqual({ Tags: [] }, { Tags: null })).toBe(false);
    expect(jsonEqual([null], [undefined])).toBe(true);
    expect(jsonEqual([null], [])).toBe(false);
  });

  it('lists are ordered, and a list is not an object with index keys', () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({ A: 1 }, { A: 1, B: 2 })).toBe(false);
    expect(jsonEqual({ A: 1, B: 2 }, { A: 1 })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(0, null)).toBe(false);
    expect(jsonEqual('', undefined)).toBe(false);
  });

  it('names every object inherits are plain keys', () => {
    const a = JSON.parse('{"__proto__": 1, "constructor": 2}') as unknown;
    expect(jsonEqual(a, JSON.parse('{"constructor": 2, "__proto__": 1}'))).toBe(true);
    expect(jsonEqual(a, { constructor: 2 })).toBe(false);
    expect(jsonEqual({}, JSON.parse('{"toString": null}'))).toBe(true);
    expect(jsonEqual({ toString: 1 }, {})).toBe(false);
  });

  test.prop([fc.jsonValue()])('a value equals itself with its keys in any order', (value) => {
    expect(jsonEqual(value, reordered(value))).toBe(true);
    expect(jsonEqual(reordered(value), value)).toBe(true);
  });

  test.prop([fc.jsonValue(), fc.jsonValue()])(
    'it agrees with comparing the canonical JSON texts, and is symmetric',
    (a, b) => {
      const canonical = (v: unknown): string => JSON.stringify(sortedWithoutNulls(v));
      expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
      expect(jsonEqual(a, b)).toBe(jsonEqual(b, a));
    },
  );
});

/** Keys sorted and null-valued keys dropped: the canonical form the equality stands for. */
function sortedWithoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => sortedWithoutNulls(v) ?? null);
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== null)
      .map((k) => [k, sortedWithoutNulls((value as Record<string, unknown>)[k])]);
    return Object.fromEntries(entries);
  }
  return value;
}
