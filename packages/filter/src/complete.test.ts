import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { completeFilter } from './complete.js';

const labels = (text: string, offset = text.length, options = {}): string[] =>
  completeFilter(text, offset, options).items.map((i) => i.label);

const samples = [
  { Status: 'running', Meta: { owner: 'a', 'with space': 'b' }, TaskGroups: [{ Name: 'web' }] },
  { Name: 'x' },
];
const schema = {
  type: 'object',
  properties: {
    ID: { type: 'string' },
    Meta: { anyOf: [{ type: 'object', properties: { team: { type: 'string' } } }, { type: 'null' }] },
    Groups: { type: 'array', items: { type: 'object', properties: { Count: { type: 'number' } } } },
  },
};

describe('completeFilter', () => {
  it('offers selectors, not, parentheses and collections at the start', () => {
    const got = labels('', 0, { samples });
    expect(got).toEqual(
      expect.arrayContaining(['Meta', 'Name', 'Status', 'TaskGroups', 'not', 'any', 'all', '(']),
    );
    expect(got).not.toContain('and');
    expect(got).not.toContain('==');
  });

  it('offers operators after a selector and whitespace', () => {
    expect(labels('Status ')).toEqual(['==', '!=', 'not', 'in', 'contains', 'matches', 'is']);
    expect(labels('Status')).toEqual([]);
    expect(labels('Status is ')).toEqual(expect.arrayContaining(['not', 'empty', 'nil']));
  });

  it('offers and/or/closing tokens after a complete match', () => {
    expect(labels('(Status == "x" ')).toEqual(['and', 'or', ')']);
    expect(labels('Status == "x" ')).toEqual(['and', 'or']);
  });

  it('completes the word being typed', () => {
    expect(completeFilter('Sta', 3, { samples })).toEqual({
      from: 0,
      to: 3,
      items: [{ label: 'Status', kind: 'selector', insertText: 'Status' }],
    });
    expect(labels('Status == "x" a')).toEqual(['and']);
    expect(labels('Status == "x" an')).toEqual(['and']);
  });

  it('completes nested keys from samples and schemas', () => {
    expect(labels('Meta.', 5, { samples })).toEqual(['owner']);
    expect(completeFilter('Meta.ow', 7, { samples }).from).toBe(5);
    expect(labels('Meta.', 5, { schema })).toEqual(['team']);
    expect(labels('Groups.0.', 9, { schema })).toEqual(['Count']);
    expect(labels('', 0, { schema })).toEqual(expect.arrayContaining(['ID', 'Meta', 'Groups']));
  });

  it('follows the collection grammar', () => {
    expect(labels('any TaskGroups ')).toEqual(['as']);
    expect(labels('any TaskGroups as tg ')).toEqual(['{', ',']);
    expect(labels('A == 1 and ')).toEqual(expect.not.arrayContaining(['any']));
    expect(labels('A == 1 or ')).toEqual(expect.arrayContaining(['any', 'all']));
  });

  it('offers nothing inside a string or after an invalid prefix, and clamps the offset', () => {
    expect(labels('Status == "ru')).toEqual([]);
    expect(labels('Status >')).toEqual([]);
    expect(completeFilter('abc', 99).to).toBe(3);
    expect(completeFilter('abc', -5).to).toBe(0);
  });
});

describe('properties', () => {
  test.prop([fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: -5, max: 50 })])(
    'never throws and returns a range inside the text',
    (text, offset) => {
      const r = completeFilter(text, offset, {
        samples: [{ a: { b: 1 } }, null, 'x'],
        schema: { properties: { a: {} } },
      });
      expect(r.from).toBeGreaterThanOrEqual(0);
      expect(r.from).toBeLessThanOrEqual(r.to);
      expect(r.to).toBeLessThanOrEqual(text.length);
    },
  );
});
