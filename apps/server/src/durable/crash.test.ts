import { describe, expect, it } from 'vitest';

import { runCrashLoop } from '../../scripts/crash-loop.mjs';

// The bounded form of the kill -9 soak (`node scripts/crash-loop.mjs --kills 60`): as many kills
// as fit in 25 seconds (at most 50, and at least 3 however long they take on a loaded machine),
// 16 concurrent writing clients, a restart and a full check after each kill.
describe('sked-server --data-dir under kill -9', () => {
  it('keeps every acknowledged write and nothing half-written', { timeout: 180_000 }, async () => {
    const lines: string[] = [];
    const result = await runCrashLoop({
      kills: 50,
      minKills: 3,
      clients: 16,
      seconds: 25,
      log: (l) => lines.push(l),
    });
    expect(result.problems).toEqual([]);
    expect(result.kills).toBeGreaterThanOrEqual(3);
    expect(result.acked).toBeGreaterThan(0);
  });
});
