import { parseGoDuration } from '@sked/model';

import type { GcOptions } from '../scheduler/core/index.js';
import type { StartServerOptions } from './server.js';

/** The `parseArgs` options of the durable-state and garbage-collection flags. */
export const STATE_FLAGS = {
  'data-dir': { type: 'string' },
  'gc-interval': { type: 'string' },
  'eval-gc-threshold': { type: 'string' },
  'batch-eval-gc-threshold': { type: 'string' },
  'job-gc-threshold': { type: 'string' },
  'deployment-gc-threshold': { type: 'string' },
  'set-aside-unreadable': { type: 'boolean' },
} as const;

/** Usage lines of those flags. */
export const STATE_USAGE = `  --data-dir DIR          Keep the state (scheduling state, mesh peerings) in DIR (created when
                          absent) and restore it at start; without it the state is in memory only
  --set-aside-unreadable  With --data-dir: move stored records that cannot be read aside (kept in
                          the data dir, named at start) instead of refusing to start
  --gc-interval DUR       Interval between garbage collections (default 5m)
  --eval-gc-threshold DUR Age of terminal evaluations and allocations collected (default 1h)
  --batch-eval-gc-threshold DUR
                          The same for batch jobs that still exist (default 24h)
  --job-gc-threshold DUR  Age of dead batch jobs and stopped jobs collected (default 4h)
  --deployment-gc-threshold DUR
                          Age of finished deployments collected (default 1h)
`;

const GC_FLAGS: readonly [keyof typeof STATE_FLAGS, keyof GcOptions][] = [
  ['gc-interval', 'intervalMs'],
  ['eval-gc-threshold', 'evalThresholdMs'],
  ['batch-eval-gc-threshold', 'batchEvalThresholdMs'],
  ['job-gc-threshold', 'jobThresholdMs'],
  ['deployment-gc-threshold', 'deploymentThresholdMs'],
];

/** Largest duration accepted (a year): beyond it a timer would mean "never". */
const MAX_MS = 366 * 86_400_000;

/**
 * Reads `--data-dir` and the garbage collection flags into `options`.
 * @param values - The parsed flag values.
 * @param options - The options being built.
 * @returns an error message, or undefined.
 */
export function parseStateFlags(
  values: Partial<Record<keyof typeof STATE_FLAGS, string | boolean>>,
  options: { -readonly [K in keyof StartServerOptions]: StartServerOptions[K] },
): string | undefined {
  const dir = values['data-dir'];
  if (values['set-aside-unreadable'] === true) {
    if (typeof dir !== 'string')
      return '--set-aside-unreadable requires --data-dir (it acts on stored records)';
    options.setAsideUnreadable = true;
  }
  if (typeof dir === 'string') {
    if (dir.trim() === '') return '--data-dir expects a directory';
    options.dataDir = dir;
  }
  const gc: { -readonly [K in keyof GcOptions]?: number } = {};
  for (const [flag, key] of GC_FLAGS) {
    const text = values[flag];
    if (typeof text !== 'string') continue;
    const parsed = parseGoDuration(text.trim());
    const ms = parsed.ok ? parsed.ns / 1e6 : undefined;
    if (ms === undefined || ms < 1 || ms > MAX_MS) {
      return `--${flag} expects a duration from 1ms to 366 days such as 30s, 5m or 1h30m, not ${JSON.stringify(text)}`;
    }
    gc[key] = ms;
  }
  if (Object.keys(gc).length > 0) options.gc = gc;
  return undefined;
}
