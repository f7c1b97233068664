import { fc, test } from '@fast-check/vitest';
import { compileFilter } from '@sked/filter';
import { Job } from '@sked/model';
import { describe, expect, it } from 'vitest';
import { accept, checkFilter, MAX_SUGGESTIONS, suggest } from './filter-state.js';

describe('checkFilter', () => {
  it('accepts no filter and a valid one', () => {
    expect(checkFilter('')).toEqual({ ok: true });
    expect(checkFilter('  ')).toEqual({ ok: true });
    expect(checkFilter('Status == "running" and Meta.team == "web"')).toEqual({ ok: true });
  });

  it("gives the filter's diagnostic with its caret for a bad expression", () => {
    expect(checkFilter('Status = "running"')).toEqual({
      ok: false,
      message: '1:8: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".',
      formatted:
        '1:8: Unexpected character "=" (U+003D). Comparisons are written "==" and "!=".\nStatus = "running"\n       ^',
      offset: 7,
      length: 1,
    });
  });

  it('refuses a field the job does not have, as the server does (typed mode)', () => {
    const check = checkFilter('Prioirty == 50');
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.message).toBe(
      '1:1: An item has no field "Prioirty"; did you mean "Priority"?',
    );
  });
});

describe('suggest and accept', () => {
  it('offers Status after "Sta", and puts it in', () => {
    const found = suggest('Sta', 3, []);
    expect(found.items.map((i) => i.label)).toEqual(['Stable', 'Status', 'StatusDescription']);
    const status = found.items.find((i) => i.label === 'Status');
    expect(status && accept('Sta', found, status)).toEqual({ text: 'Status', cursor: 6 });
  });

  it('offers keys of the jobs shown after a map field', () => {
    const labels = suggest('Meta.', 5, [{ Meta: { team: 'web', owner: 'ops' } }]).items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['team', 'owner']));
  });

  it('stays closed with no word typed unless asked', () => {
    expect(suggest('Status ', 7, []).items).toEqual([]);
    expect(suggest('Status ', 7, [], true).items.map((i) => i.label)).toContain('==');
  });
});

describe('properties', () => {
  test.prop([fc.string({ maxLength: 60 })])(
    'checkFilter says ok exactly when the server would compile it',
    (text) => {
      let compiles = true;
      try {
        if (text.trim() !== '') compileFilter(text, { schema: Job });
      } catch {
        compiles = false;
      }
      expect(checkFilter(text).ok).toBe(compiles);
    },
  );

  test.prop([fc.string({ maxLength: 40 }).chain((text) => fc.tuple(fc.constant(text), fc.nat(text.length)))])(
    'suggestions replace a range before the cursor, at most a dozen, and accepting one keeps the rest',
    ([text, cursor]) => {
      const found = suggest(text, cursor, [], true);
      expect(found.items.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
      expect(0 <= found.from && found.from <= found.to && found.to <= text.length).toBe(true);
      for (const item of found.items) {
        const done = accept(text, found, item);
        expect(done.text.slice(0, found.from)).toBe(text.slice(0, found.from));
        expect(done.text.slice(done.cursor)).toBe(text.slice(found.to));
        expect(done.text.slice(found.from, done.cursor)).toBe(item.insertText);
      }
    },
  );
});
