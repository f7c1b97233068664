import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { separateExecCommand } from './alloc-exec.js';

describe('separateExecCommand', () => {
  it.each([
    [
      ['alloc', 'exec', 'abc', 'sh', '-c', 'ls -t'],
      ['alloc', 'exec', 'abc', '--', 'sh', '-c', 'ls -t'],
    ],
    [
      ['alloc', 'exec', '--task', 'web', 'abc', 'ls', '--json'],
      ['alloc', 'exec', '--task', 'web', 'abc', '--', 'ls', '--json'],
    ],
    [
      ['--json', 'alloc', 'exec', '-t', 'abc', 'top'],
      ['--json', 'alloc', 'exec', '-t', 'abc', '--', 'top'],
    ],
    [
      ['alloc', 'exec', 'abc', '--', 'ls'],
      ['alloc', 'exec', 'abc', '--', 'ls'],
    ],
    [
      ['alloc', 'exec', 'abc'],
      ['alloc', 'exec', 'abc'],
    ],
    [
      ['job', 'status', 'exec', 'x', 'y'],
      ['job', 'status', 'exec', 'x', 'y'],
    ],
  ])('%j becomes %j', (input, output) => {
    expect(separateExecCommand(input)).toEqual(output);
  });

  describe('properties', () => {
    const word = fc.oneof(
      fc.constantFrom('-t', '--no-tty', '--json', '-c', '--task'),
      fc.stringMatching(/^[a-z0-9/.]{1,6}$/),
    );
    test.prop([fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 6 })])(
      'only ever inserts one --, and removing it gives the words back',
      (before, after) => {
        const argv = ['alloc', 'exec', ...before, ...after];
        const out = separateExecCommand(argv);
        const inserted = out.length - argv.length;
        expect(inserted === 0 || inserted === 1).toBe(true);
        if (inserted === 1) {
          const at = out.indexOf('--');
          expect([...out.slice(0, at), ...out.slice(at + 1)]).toEqual(argv);
        } else expect(out).toEqual(argv);
      },
    );
  });
});
