// Integers both sides carry exactly: within 64 bits and within what a JavaScript number holds.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { Allocation } from './allocation.js';
import { JobRegisterRequest } from './job-requests.js';
import { openApiDocument } from './openapi/document.js';
import { validate } from './validate.js';

const job = (group: Record<string, unknown>, top: Record<string, unknown> = {}): unknown => ({
  Job: {
    ID: 'web',
    Name: 'web',
    Type: 'service',
    Datacenters: ['dc1'],
    ...top,
    TaskGroups: [{ Name: 'g', Count: 1, ...group }],
  },
});

describe('integer fields', () => {
  it.each([
    ['Count', { Count: 1e20 }, '/Job/TaskGroups/0/Count'],
    ['Count', { Count: JSON.parse('9007199254740993') as number }, '/Job/TaskGroups/0/Count'],
    ['Count', { Count: -1e23 }, '/Job/TaskGroups/0/Count'],
  ])('refuses %s beyond 2^53 - 1 at its field', (_name, group, path) => {
    const result = validate(JobRegisterRequest, job(group));
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toContain(path);
  });

  it('says which field and what bound', () => {
    const result = validate(JobRegisterRequest, job({ Count: 1e20 }));
    expect(!result.ok && result.problems).toEqual([
      {
        path: '/Job/TaskGroups/0/Count',
        message: 'expected a number of at most 9007199254740991 but got the number 100000000000000000000',
      },
    ]);
  });

  test.prop([fc.integer({ min: 1, max: 1000 }), fc.double({ min: 2 ** 53, max: 1e300, noNaN: true })])(
    'accepts every safe count and refuses every integer beyond',
    (safe, huge) => {
      expect(validate(JobRegisterRequest, job({ Count: safe })).ok).toBe(true);
      expect(validate(JobRegisterRequest, job({ Count: Math.floor(huge) })).ok).toBe(false);
    },
  );

  it('times in nanoseconds take any 64-bit integer, nothing beyond', () => {
    const at = (CreateTime: number): boolean => {
      const schema = Allocation as unknown as { properties: { CreateTime: object } };
      return validate(schema.properties.CreateTime as never, CreateTime).ok;
    };
    expect(at(1_700_000_000_000_000_000)).toBe(true);
    expect(at(2 ** 63)).toBe(false);
    expect(at(1e20)).toBe(false);
  });

  it('the OpenAPI description states the bounds of every integer of its schemas', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema['type'] === 'integer' && !('maximum' in schema || 'exclusiveMaximum' in schema))
        unbounded.push(path);
      for (const [key, value] of Object.entries(schema)) walk(value, `${path}/${key}`);
    };
    const schemas = (openApiDocument().components as { schemas: Record<string, unknown> }).schemas;
    walk(schemas, '');
    expect(unbounded).toEqual([]);
    const count = JSON.stringify(schemas['TaskGroup'] ?? schemas['TaskGroupInput'] ?? {});
    expect(count).toContain('"maximum":9007199254740991');
  });
});
