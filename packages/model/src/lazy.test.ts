import { fc, test } from '@fast-check/vitest';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';

import { Job, JobListStub, validate } from './index.js';
import { lazySchema } from './internal/lazy.js';

describe('lazySchema', () => {
  it('builds nothing until first touched, then once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return Type.Object({ Name: Type.String() });
    });
    expect(builds).toBe(0);
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(['Name']);
    expect(validate(schema, { Name: 'web' }).ok).toBe(true);
    expect(validate(schema, { Name: 1 }).ok).toBe(false);
    expect(builds).toBe(1);
  });

  test.prop([fc.object(), fc.constantFrom('get', 'keys', 'in', 'descriptor', 'proto', 'json', 'spread')])(
    'is the built value whatever operation comes first',
    (value, first) => {
      const lazy = lazySchema(() => structuredClone(value));
      const touch: Record<string, () => unknown> = {
        get: () => (lazy as Record<string, unknown>)['x'],
        keys: () => Reflect.ownKeys(lazy),
        in: () => 'x' in lazy,
        descriptor: () => Object.getOwnPropertyDescriptor(lazy, 'x'),
        proto: () => Object.getPrototypeOf(lazy),
        json: () => JSON.stringify(lazy),
        spread: () => ({ ...lazy }),
      };
      touch[first]?.();
      expect(Reflect.ownKeys(lazy)).toEqual(Reflect.ownKeys(value));
      expect(Object.getPrototypeOf(lazy)).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(value)));
      expect({ ...lazy }).toEqual(value);
    },
  );

  it('keeps a frozen value frozen and its hidden properties hidden', () => {
    const built = Object.freeze(
      Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
    );
    const lazy = lazySchema(() => built);
    expect(Object.keys(lazy)).toEqual(['shown']);
    expect((lazy as unknown as { hidden: number }).hidden).toBe(2);
    expect(Object.isFrozen(lazy)).toBe(true);
    expect(() => {
      (lazy as { shown: number }).shown = 3;
    }).toThrow(TypeError);
  });

  it('leaves the exported schemas equal to the same schemas built at once', () => {
    // a schema nested in another is the same object, whichever is touched first
    expect(JobListStub.properties.JobSummary).toBeDefined();
    expect(JSON.parse(JSON.stringify(Job))).toMatchObject({ type: 'object', required: expect.any(Array) });
    expect(Object.keys(Job.properties)).toContain('TaskGroups');
    expect(validate(Job, {}).ok).toBe(false);
  });
});
