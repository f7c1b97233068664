import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeInsideTaskDir } from './task-dir.js';

/** Issue 22 item 2: where the payload is written, the path is checked again, symbolic links included. */

let root: string;
let dir: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sked-taskdir-'));
  dir = join(root, 'allocs', 'a1', 'task');
  outside = join(root, 'outside');
  mkdirSync(join(dir, 'local'), { recursive: true });
  mkdirSync(outside);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const data = Buffer.from('payload');

describe('writeInsideTaskDir', () => {
  it('writes a file inside the task directory, creating its directories', () => {
    writeInsideTaskDir(dir, 'local/in/put.json', data);
    expect(readFileSync(join(dir, 'local/in/put.json'), 'utf8')).toBe('payload');
  });

  it('refuses a path that climbs out (../../../../tmp/x) and writes nothing', () => {
    expect(() => writeInsideTaskDir(dir, 'local/../../../../outside/x', data)).toThrow(
      /escapes the task directory/,
    );
    expect(() => writeInsideTaskDir(dir, '/etc/x', data)).toThrow(/escapes the task directory/);
    expect(() => writeInsideTaskDir(dir, 'local/a\u0000b', data)).toThrow(/escapes the task directory/);
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });

  it('does not follow a directory symbolic link that points out of the task directory', () => {
    symlinkSync(outside, join(dir, 'local', 'link'));
    expect(() => writeInsideTaskDir(dir, 'local/link/x', data)).toThrow(/escapes the task directory/);
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });

  it('does not follow a symbolic link planted at the file name', () => {
    writeFileSync(join(outside, 'victim'), 'untouched');
    symlinkSync(join(outside, 'victim'), join(dir, 'local', 'input.json'));
    expect(() => writeInsideTaskDir(dir, 'local/input.json', data)).toThrow(/ELOOP/);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('untouched');
    expect(lstatSync(join(dir, 'local', 'input.json')).isSymbolicLink()).toBe(true);
  });
});
