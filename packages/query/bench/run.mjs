// Benchmarks of @sked/query. Run after a build: `pnpm --filter @sked/query bench`
// (node --expose-gc bench/run.mjs). Each figure is printed beside its target, as a ratio against a
// baseline measured in the same run, so the verdict does not depend on the machine's speed.
import { performance } from 'node:perf_hooks';

import { createIndexWatch, createOrderedIndex, namespaceIdOrdering, readPage } from '../dist/index.js';

const WAITERS = 10_000;
const ITEMS = 100_000;
const PAGE = 100;
const ROUNDS = 5;

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (the bench script does).');
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setImmediate(r));
  }
};
const heap = async () => {
  await settle();
  return process.memoryUsage().heapUsed;
};

/** The naive design the index watch avoids: one timer and one abort listener per waiter. */
function naiveWatch(initial) {
  let current = initial;
  const waiters = new Set();
  return {
    advance(index) {
      current = index;
      for (const w of waiters) w.wake();
    },
    waitFor(after, { waitMs, signal }) {
      return new Promise((resolve) => {
        const w = {
          wake: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', w.wake);
            waiters.delete(w);
            resolve(current);
          },
        };
        const timer = setTimeout(w.wake, waitMs + Math.random() * (waitMs / 16));
        signal?.addEventListener('abort', w.wake, { once: true });
        waiters.add(w);
      });
    },
  };
}

/** Memory per waiter and time from the write to the last waiter woken, for one implementation. */
async function waiters(make) {
  const before = await heap();
  const watch = make(1);
  const controllers = Array.from({ length: WAITERS }, () => new AbortController());
  const base = await heap(); // controllers are the request's, not the waiter's
  let last = 0;
  let woken = 0;
  const waits = controllers.map((c) =>
    watch.waitFor(1, { waitMs: 300_000, signal: c.signal }).then(() => {
      woken++;
      last = performance.now();
    }),
  );
  const after = await heap();
  const t0 = performance.now();
  watch.advance(2);
  await Promise.all(waits);
  if (woken !== WAITERS) throw new Error(`only ${woken} waiters woke`);
  void before;
  return { bytes: (after - base) / WAITERS, wakeMs: last - t0 };
}

/** Baseline for the wake time: resolving 10,000 bare pending promises. */
async function barePromises() {
  const resolvers = [];
  let last = 0;
  const waits = Array.from({ length: WAITERS }, () =>
    new Promise((r) => resolvers.push(r)).then(() => {
      last = performance.now();
    }),
  );
  await settle();
  const t0 = performance.now();
  for (const r of resolvers) r();
  await Promise.all(waits);
  return last - t0;
}

function pagingBench() {
  const jobs = createOrderedIndex(namespaceIdOrdering());
  for (let i = 0; i < ITEMS; i++) {
    const id = `job-${String((i * 7919) % ITEMS).padStart(6, '0')}`;
    jobs.upsert({
      Namespace: i % 10 === 0 ? 'prod' : 'default',
      ID: id,
      Status: i % 2 === 0 ? 'running' : 'dead',
    });
  }
  const unpaged = (filter) => {
    const t0 = performance.now();
    const { items } = readPage(jobs, { filter });
    return { ms: performance.now() - t0, count: items.length };
  };
  const paged = (filter) => {
    const t0 = performance.now();
    let count = 0;
    let pages = 0;
    let nextToken;
    do {
      const page = readPage(jobs, { perPage: PAGE, nextToken, filter });
      count += page.items.length;
      pages++;
      nextToken = page.nextToken;
    } while (nextToken !== undefined);
    return { ms: performance.now() - t0, count, pages };
  };
  const running = (j) => j.Status === 'running';
  const rows = [];
  for (const [label, filter] of [
    ['no filter', undefined],
    ['filter (1 in 2)', running],
  ]) {
    // warm up, then take medians
    unpaged(filter);
    paged(filter);
    const u = [];
    const p = [];
    let counts;
    for (let r = 0; r < ROUNDS; r++) {
      const a = unpaged(filter);
      const b = paged(filter);
      if (a.count !== b.count) throw new Error(`paged ${b.count} items, unpaged ${a.count}`);
      counts = b;
      u.push(a.ms);
      p.push(b.ms);
    }
    rows.push({ label, unpaged: median(u), paged: median(p), pages: counts.pages, count: counts.count });
  }
  return rows;
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const verdict = (ok) => (ok ? 'ok' : 'MISSED');

console.log(`@sked/query benchmarks (node ${process.version}, ${ROUNDS} rounds, medians)\n`);

// 1. Waiters
const ours = [];
const naive = [];
const bare = [];
for (let r = 0; r < ROUNDS; r++) {
  ours.push(await waiters(createIndexWatch));
  naive.push(await waiters(naiveWatch));
  bare.push(await barePromises());
}
const oursBytes = median(ours.map((x) => x.bytes));
const naiveBytes = median(naive.map((x) => x.bytes));
const oursWake = median(ours.map((x) => x.wakeMs));
const naiveWake = median(naive.map((x) => x.wakeMs));
const bareWake = median(bare);
console.log(`10,000 concurrent waiters on one index (each with its request's AbortSignal)`);
console.log(
  `  memory per waiter      ${fmt(oursBytes, 0)} B   baseline (timer per waiter) ${fmt(naiveBytes, 0)} B   ratio ${fmt(oursBytes / naiveBytes, 2)}   target <= 1.00   ${verdict(oursBytes <= naiveBytes)}`,
);
console.log(
  `  write -> last woken    ${fmt(oursWake, 2)} ms   baseline (10,000 bare promises resolved) ${fmt(bareWake, 2)} ms   ratio ${fmt(oursWake / bareWake, 2)}   target <= 5.00   ${verdict(oursWake / bareWake <= 5)}`,
);
console.log(`  (timer-per-waiter design: write -> last woken ${fmt(naiveWake, 2)} ms)\n`);

// 2. Paging
console.log(`Paging ${ITEMS.toLocaleString('en')} items in pages of ${PAGE} vs one unpaged pass`);
let allOk = oursBytes <= naiveBytes && oursWake / bareWake <= 5;
for (const row of pagingBench()) {
  const ratio = row.paged / row.unpaged;
  allOk &&= ratio <= 2;
  console.log(
    `  ${row.label.padEnd(16)} paged ${fmt(row.paged)} ms (${row.pages} pages, ${row.count} items)   baseline (unpaged) ${fmt(row.unpaged)} ms   ratio ${fmt(ratio, 2)}   target <= 2.00   ${verdict(ratio <= 2)}`,
  );
}
process.exitCode = allOk ? 0 : 1;
