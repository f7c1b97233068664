import { describe, expect, it } from 'vitest';

import { JobRegisterRequest } from './job-requests.js';
import { formatProblems, validate } from './validate.js';

describe('validate', () => {
  it('reports a wrong type with its JSON Pointer path and a sentence', () => {
    // Arrange
    const body = { Job: { ID: 'web', TaskGroups: [{ Name: 'g', Count: 'x' }] } };

    // Act
    const result = validate(JobRegisterRequest, body);

    // Assert
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: '/Job/TaskGroups/0/Count', message: 'expected an integer but got the string "x"' },
    ]);
    expect(formatProblems(result.problems)).toBe(
      'Job.TaskGroups[0].Count: expected an integer but got the string "x"',
    );
  });
});
