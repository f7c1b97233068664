/**
 * The filter package's behaviour, checked inside headless Chromium from the browser bundle:
 * parse, compile, evaluate, print (round trip as a property), build, complete, and the errors with
 * their positions.
 */
import fc from 'fast-check';
import {
  FilterSyntaxError,
  compileFilter,
  completeFilter,
  evaluateFilter,
  filter,
  filterItems,
  parseFilter,
  printFilter,
} from '@sked/filter';
import { assertEqual, assertThrows, runChecks } from './harness.ts';

const jobs = [
  { ID: 'web', Status: 'running', Priority: 50, Datacenters: ['dc1'], Meta: { owner: 'team-a' } },
  { ID: 'batch', Status: 'pending', Priority: 70, Datacenters: ['dc2'], Meta: { owner: 'team-b' } },
  { ID: 'cache', Status: 'running', Priority: 30, Datacenters: ['dc1', 'dc2'], Meta: {} },
];

runChecks({
  'compileFilter selects what the server would': () => {
    const keep = compileFilter('Status == "running" and "dc1" in Datacenters');
    assertEqual(
      jobs.filter(keep).map((j) => j.ID),
      ['web', 'cache'],
      'selected',
    );
  },
  'filterItems, matches and emptiness': () => {
    assertEqual(
      filterItems('Priority != 50', jobs).map((j) => j.ID),
      ['batch', 'cache'],
      'priority',
    );
    assertEqual(
      filterItems('ID matches "^c"', jobs).map((j) => j.ID),
      ['cache'],
      'regex (re2js)',
    );
    assertEqual(
      filterItems('Meta is empty', jobs).map((j) => j.ID),
      ['cache'],
      'empty',
    );
    assertEqual(evaluateFilter('Meta.owner == "team-b"', jobs[1]), true, 'map key');
  },
  'parseFilter reports a syntax error with its position': () => {
    const result = parseFilter('Name = "x"');
    if (result.ok) throw new Error('parsed a single =');
    assertEqual([result.diagnostics[0]?.line, result.diagnostics[0]?.column], [1, 6], 'position');
    assertThrows(() => compileFilter('Name = "x"'), 'Comparisons are written', 'compile');
    try {
      compileFilter('(');
    } catch (error) {
      assertEqual(FilterSyntaxError.is(error), true, 'error class across the bundle');
    }
  },
  'the builder quotes any string so the filter reads back to the same value': () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (value, key) => {
        const text = printFilter(filter.eq(['Meta', key], value));
        return (
          evaluateFilter(text, { Meta: { [key]: value } }) &&
          !evaluateFilter(text, { Meta: { [key]: `${value}x` } })
        );
      }),
      { numRuns: 200 },
    );
  },
  'printing a parsed filter parses back to the same text': () => {
    for (const text of [
      'a == 1 and not (b != "x" or c is empty)',
      '"v" in Tags',
      'Meta["a b"] matches `^x`',
    ]) {
      const first = parseFilter(text);
      if (!first.ok) throw new Error(`did not parse ${text}`);
      const printed = printFilter(first.ast);
      const second = parseFilter(printed);
      if (!second.ok) throw new Error(`printed text does not parse: ${printed}`);
      assertEqual(printFilter(second.ast), printed, text);
    }
  },
  'completion offers operators after a selector': () => {
    const labels = completeFilter('Status ', 7).items.map((item) => item.label);
    if (!labels.includes('==') || !labels.includes('contains'))
      throw new Error(`labels: ${labels.join(' ')}`);
  },
});
