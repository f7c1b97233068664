import { describe, expect, it } from 'vitest';
import { parseCli, USAGE } from './cli.js';

describe('parseCli: --data-dir and garbage collection flags', () => {
  it('reads the data dir and the thresholds as milliseconds', () => {
    expect(
      parseCli([
        '--data-dir',
        '/var/lib/sked',
        '--gc-interval',
        '30s',
        '--eval-gc-threshold',
        '1h',
        '--batch-eval-gc-threshold',
        '24h',
        '--job-gc-threshold',
        '4h',
        '--deployment-gc-threshold',
        '500ms',
      ]),
    ).toEqual({
      kind: 'run',
      options: {
        dataDir: '/var/lib/sked',
        gc: {
          intervalMs: 30_000,
          evalThresholdMs: 3_600_000,
          batchEvalThresholdMs: 86_400_000,
          jobThresholdMs: 14_400_000,
          deploymentThresholdMs: 500,
        },
      },
    });
  });

  it.each([
    [['--data-dir', ' '], '--data-dir expects a directory'],
    [['--set-aside-unreadable'], '--set-aside-unreadable requires --data-dir (it acts on stored records)'],
    [['--data-dir'], "Option '--data-dir <value>' argument missing"],
    [
      ['--gc-interval', '5'],
      '--gc-interval expects a duration from 1ms to 366 days such as 30s, 5m or 1h30m, not "5"',
    ],
    [
      ['--job-gc-threshold', '0'],
      '--job-gc-threshold expects a duration from 1ms to 366 days such as 30s, 5m or 1h30m, not "0"',
    ],
    [
      ['--eval-gc-threshold', '9000h'],
      '--eval-gc-threshold expects a duration from 1ms to 366 days such as 30s, 5m or 1h30m, not "9000h"',
    ],
  ])('refuses %j with a message', (argv, message) => {
    expect(parseCli(argv)).toEqual({ kind: 'error', message });
  });

  it('lists the flags in the usage', () => {
    for (const flag of [
      '--data-dir DIR',
      '--gc-interval DUR',
      '--job-gc-threshold DUR',
      '--deployment-gc-threshold DUR',
    ])
      expect(USAGE).toContain(flag);
  });
});
