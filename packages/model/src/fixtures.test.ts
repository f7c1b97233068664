import { describe, expect, it } from 'vitest';

import { fixtureNames, fixtureSchemas, readFixture } from '../test/fixtures.js';
import { valueOf } from '../test/results.js';
import { formatProblems, validate } from './validate.js';

describe('spec examples (test/fixtures)', () => {
  it('has a schema for every fixture file and a file for every schema entry', () => {
    expect(fixtureNames()).toEqual(Object.keys(fixtureSchemas).sort());
  });

  it.each(Object.entries(fixtureSchemas))('%s validates', (name, schema) => {
    // Arrange
    const value = readFixture(name);

    // Act
    const result = validate(schema, value);

    // Assert
    expect(result.ok ? '' : formatProblems(result.problems)).toBe('');
  });

  it.each(Object.entries(fixtureSchemas))('%s survives a JSON round trip', (name, schema) => {
    const value = readFixture(name);
    const result = validate(schema, JSON.parse(JSON.stringify(value)));
    expect(valueOf(result)).toEqual(value);
  });
});
