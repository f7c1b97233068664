import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

import { newEvaluation } from '../evals/factory.js';
import { createStore, jobKey } from './store.js';
import type { Evaluation } from '../types.js';

function evalOf(id: string, jobId: string, index: number): Evaluation {
  return newEvaluation({
    ID: id,
    Namespace: 'default',
    Priority: 50,
    Type: 'service',
    TriggeredBy: 'job-register',
    JobID: jobId,
    JobModifyIndex: index,
    CreateIndex: index,
    CreateTime: 0,
  });
}

describe('createStore', () => {
  it('starts at index 1 and advances the global index and the written table only', () => {
    // Arrange
    const store = createStore();
    expect(store.index).toBe(1);
    // Act
    store.write((tx) => tx.put('evals', evalOf('e1', 'web', tx.index)));
    // Assert
    expect(store.index).toBe(2);
    expect(store.watch.current).toBe(2);
    expect(store.evals.watch.current).toBe(2);
    expect(store.jobs.watch.current).toBe(1);
    expect(store.evals.get('e1')?.JobID).toBe('web');
    expect([...store.evals.items.values()].map((e) => e.ID)).toEqual(['e1']);
  });

  it('leaves no partial state when the write throws', () => {
    const store = createStore();
    store.write((tx) => tx.put('evals', evalOf('e1', 'web', tx.index)));
    const events: unknown[] = [];
    store.onEvents((b) => events.push(b));
    expect(() =>
      store.write((tx) => {
        tx.put('evals', evalOf('e2', 'web', tx.index));
        tx.delete('evals', 'e1');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.index).toBe(2);
    expect(store.evals.get('e1')).toBeDefined();
    expect(store.evals.get('e2')).toBeUndefined();
    expect(store.evals.items.size).toBe(1);
    expect(events).toEqual([]);
  });

  it('lets a write read its own changes, per job too', () => {
    const store = createStore();
    store.write((tx) => tx.put('evals', evalOf('e1', 'web', tx.index)));
    store.write((tx) => {
      tx.put('evals', evalOf('e2', 'web', tx.index));
      tx.delete('evals', 'e1');
      expect(tx.get('evals', 'e1')).toBeUndefined();
      expect(tx.ofJob('evals', 'default', 'web').map((e) => e.ID)).toEqual(['e2']);
      expect(tx.all('evals').map((e) => e.ID)).toEqual(['e2']);
    });
    expect(store.ofJob('evals', 'default', 'web').map((e) => e.ID)).toEqual(['e2']);
  });

  it('emits one batch per write with the commit index on every event', () => {
    const store = createStore();
    const batches: { Index: number; Events: { Index: number }[] }[] = [];
    store.onEvents((b) => batches.push(b));
    store.write((tx) => {
      tx.put('evals', evalOf('e1', 'web', tx.index));
    });
    expect(batches).toHaveLength(1);
    expect(batches[0]?.Index).toBe(2);
    expect(batches[0]?.Events[0]?.Index).toBe(2);
  });

  it('does not advance the index for a write that changes nothing', () => {
    const store = createStore();
    store.write(() => undefined);
    expect(store.index).toBe(1);
    expect(store.jobs.get(jobKey('default', 'x'))).toBeUndefined();
  });

  it('wakes a waiter of the written table', async () => {
    const store = createStore();
    const waiting = store.evals.watch.waitFor(1, { waitMs: 5000 });
    store.write((tx) => tx.put('evals', evalOf('e1', 'web', tx.index)));
    await expect(waiting).resolves.toBe(2);
  });
});

describe('properties', () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('put' as const),
      id: fc.constantFrom('a', 'b', 'c', 'd'),
      job: fc.constantFrom('x', 'y'),
    }),
    fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom('a', 'b', 'c', 'd') }),
  );
  const writes = fc.array(fc.record({ ops: fc.array(op, { maxLength: 5 }), fail: fc.boolean() }), {
    maxLength: 12,
  });

  test.prop([writes])(
    'a failing write changes nothing; the store equals a model of the successful writes',
    (ws) => {
      const store = createStore();
      const model = new Map<string, string>();
      let index = 1;
      for (const w of ws) {
        const run = (): void =>
          store.write((tx) => {
            for (const o of w.ops) {
              if (o.kind === 'put') tx.put('evals', evalOf(o.id, o.job, tx.index));
              else tx.delete('evals', o.id);
            }
            if (w.fail) throw new Error('fail');
          });
        if (w.fail) expect(run).toThrow('fail');
        else {
          run();
          if (w.ops.length > 0) index++;
          for (const o of w.ops) {
            if (o.kind === 'put') model.set(o.id, o.job);
            else model.delete(o.id);
          }
        }
        expect(store.index).toBe(index);
        expect(Object.fromEntries([...store.evals.items.values()].map((e) => [e.ID, e.JobID]))).toEqual(
          Object.fromEntries(model),
        );
        for (const job of ['x', 'y'])
          expect(
            store
              .ofJob('evals', 'default', job)
              .map((e) => e.ID)
              .sort(),
          ).toEqual(
            [...model]
              .filter(([, j]) => j === job)
              .map(([id]) => id)
              .sort(),
          );
      }
    },
  );
});
