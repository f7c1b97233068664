// The terminal library is loaded on the first tty exec only, and its absence is a clear error on
// that exec, not a crash at start-up.
import { describe, expect, it } from 'vitest';
import { ExecCommandError, loadPty } from './process.js';

describe('loadPty', () => {
  it('turns a missing terminal binary into an ExecCommandError that names the fix', () => {
    const missing = (): never => {
      throw Object.assign(new Error('Cannot find module @lydell/node-pty-linux-x64/pty.node\nmore'), {
        code: 'MODULE_NOT_FOUND',
      });
    };
    let caught: unknown;
    try {
      loadPty('sh', missing);
    } catch (error) {
      caught = error;
    }
    expect(ExecCommandError.is(caught)).toBe(true);
    const error = caught as ExecCommandError;
    expect(error.program).toBe('sh');
    expect(error.message).toContain('a terminal (tty) is not available on this server');
    expect(error.message).toContain('Cannot find module @lydell/node-pty-linux-x64/pty.node');
    expect(error.message).not.toContain('more');
    expect(error.message).toContain('exec without a tty still works');
  });

  it('loads the real library (its prebuilt binary) and keeps it', () => {
    const pty = loadPty('sh');
    expect(typeof pty.spawn).toBe('function');
    expect(loadPty('sh', () => ({}) as never)).toBe(pty);
  });
});
