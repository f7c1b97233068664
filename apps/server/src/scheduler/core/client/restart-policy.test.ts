import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import type { RestartPolicy } from '../types.js';
import { decideRestart, exceededMessage, type ExitFacts } from './restart-policy.js';

const S = 1e9;
const policy = (p: Partial<RestartPolicy> = {}): RestartPolicy => ({
  Attempts: 2,
  Interval: 1800 * S,
  Delay: 15 * S,
  Mode: 'fail',
  ...p,
});
const NOW = 1_000_000;
const facts = (f: Partial<ExitFacts>): ExitFacts => ({
  policy: policy(),
  restarts: [],
  nowMs: NOW,
  success: false,
  runsToCompletion: false,
  ...f,
});

describe('decideRestart', () => {
  it.each([
    [
      'a batch task that exits 0 completes',
      facts({ success: true, runsToCompletion: true }),
      { action: 'finish', failed: false },
    ],
    [
      'a batch task that fails restarts',
      facts({ runsToCompletion: true }),
      {
        action: 'restart',
        delayMs: 15_000,
        startDelayNs: 15 * S,
        reason: 'Restart within policy',
        restarts: [NOW],
      },
    ],
    [
      'a service task that exits 0 restarts',
      facts({ success: true }),
      {
        action: 'restart',
        delayMs: 15_000,
        startDelayNs: 15 * S,
        reason: 'Restart within policy',
        restarts: [NOW],
      },
    ],
    ['no policy: a failure is final', facts({ policy: null }), { action: 'finish', failed: true }],
    [
      'no policy: a success is final',
      facts({ policy: null, success: true }),
      { action: 'finish', failed: false },
    ],
    [
      'the second attempt is within the policy',
      facts({ restarts: [NOW - 1000] }),
      {
        action: 'restart',
        delayMs: 15_000,
        startDelayNs: 15 * S,
        reason: 'Restart within policy',
        restarts: [NOW - 1000, NOW],
      },
    ],
    [
      'restarts outside the interval do not count',
      facts({ restarts: [NOW - 1801_000, NOW - 1900_000] }),
      {
        action: 'restart',
        delayMs: 15_000,
        startDelayNs: 15 * S,
        reason: 'Restart within policy',
        restarts: [NOW],
      },
    ],
    [
      'mode fail: attempts exhausted',
      facts({ restarts: [NOW - 2000, NOW - 1000] }),
      { action: 'fail', reason: 'Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"' },
    ],
    [
      'mode delay: waits for the interval to end, then starts a new one',
      facts({ policy: policy({ Mode: 'delay' }), restarts: [NOW - 600_000, NOW - 1000] }),
      {
        action: 'restart',
        delayMs: 1_200_000,
        startDelayNs: 1_200 * S,
        reason: 'Exceeded allowed attempts 2 in interval 30m0s and mode is "delay"',
        restarts: [],
      },
    ],
    [
      'mode delay: waits at least the delay',
      facts({ policy: policy({ Mode: 'delay', Interval: 20 * S }), restarts: [NOW - 19_000, NOW - 18_000] }),
      {
        action: 'restart',
        delayMs: 15_000,
        startDelayNs: 15 * S,
        reason: 'Exceeded allowed attempts 2 in interval 20s and mode is "delay"',
        restarts: [],
      },
    ],
    [
      'zero attempts in mode fail fails at once',
      facts({ policy: policy({ Attempts: 0 }) }),
      { action: 'fail', reason: 'Exceeded allowed attempts 0 in interval 30m0s and mode is "fail"' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(decideRestart(input)).toEqual(expected);
  });

  test.prop([
    fc.integer({ min: 0, max: 10 }),
    fc.array(fc.integer({ min: 0, max: 3_600_000 }), { maxLength: 12 }),
  ])('never restarts more than Attempts times per interval in mode fail', (attempts, ages) => {
    const restarts = ages.map((age) => NOW - age).sort((a, b) => a - b);
    const d = decideRestart(facts({ policy: policy({ Attempts: attempts }), restarts }));
    const recent = restarts.filter((t) => NOW - t < 1_800_000).length;
    expect(d.action).toBe(recent < attempts ? 'restart' : 'fail');
    if (d.action === 'restart')
      expect(d.restarts.filter((t) => NOW - t < 1_800_000)).toHaveLength(recent + 1);
  });

  it('names the attempts, interval and mode', () => {
    expect(exceededMessage(3, 90 * S, 'delay')).toBe(
      'Exceeded allowed attempts 3 in interval 1m30s and mode is "delay"',
    );
  });
});
