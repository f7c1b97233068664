import * as M from '@sked/model';
import { describe, expect, it } from 'vitest';

import { invalidMutation, invalidMutations, replaceAt, schemaLeaves } from './mutation.js';

describe('schemaLeaves', () => {
  it('lists scalar fields through objects, arrays, records and nullable unions', () => {
    const value = {
      ID: 'web',
      Meta: { owner: 'a' },
      TaskGroups: [{ Name: 'g', ShutdownDelay: 5 }],
      Periodic: null,
    };
    expect(schemaLeaves(M.JobInput, value)).toEqual([
      { path: '/ID', accepts: ['string'] },
      { path: '/Meta/owner', accepts: ['string'] },
      { path: '/TaskGroups/0/Name', accepts: ['string'] },
      { path: '/TaskGroups/0/ShutdownDelay', accepts: ['integer', 'null'] },
    ]);
  });

  it('skips free-form fields and unknown extra fields', () => {
    const value = {
      ID: 'web',
      Extra: 'x',
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'd', Config: { a: 1 } }] }],
    };
    expect(schemaLeaves(M.JobInput, value).map((leaf) => leaf.path)).toEqual([
      '/ID',
      '/TaskGroups/0/Name',
      '/TaskGroups/0/Tasks/0/Name',
      '/TaskGroups/0/Tasks/0/Driver',
    ]);
  });
});

describe('invalidMutations', () => {
  it('makes each leaf invalid, one at a time, without touching the original', () => {
    const value = { JobID: 'web', JobVersion: 2, Stable: true };
    const mutations = invalidMutations(M.JobStabilityRequest, value);
    expect(mutations.map((mutation) => [mutation.path, mutation.replacement])).toEqual([
      ['/JobID', 12345],
      ['/JobVersion', 'not-a-valid-value'],
      ['/Stable', 'not-a-valid-value'],
    ]);
    expect(value).toEqual({ JobID: 'web', JobVersion: 2, Stable: true });
    for (const mutation of mutations) {
      const result = M.validate(M.JobStabilityRequest, mutation.value);
      expect(result.ok ? [] : result.problems.map((problem) => problem.path)).toEqual([mutation.path]);
    }
  });

  it('picks one mutation by number, or none for a value without scalars', () => {
    expect(invalidMutation(M.JobStabilityRequest, { JobID: 'a', JobVersion: 1 }, 3)?.path).toBe(
      '/JobVersion',
    );
    expect(invalidMutation(M.EmptyResponse, {}, 0)).toBeUndefined();
  });
});

describe('replaceAt', () => {
  it('replaces a nested field in a copy, "__proto__" keys included', () => {
    const value = JSON.parse('{"a":{"__proto__":{"b":1}}}') as unknown;
    const copy = replaceAt(value, '/a/__proto__/b', 2);
    expect(JSON.stringify(copy)).toBe('{"a":{"__proto__":{"b":2}}}');
    expect(JSON.stringify(value)).toBe('{"a":{"__proto__":{"b":1}}}');
    expect(replaceAt(value, '', 5)).toBe(5);
  });
});
