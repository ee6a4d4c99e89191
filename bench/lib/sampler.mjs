// Batched, interleaved micro-benchmark sampler.
//
// Why not tinybench's per-iteration timing: validating a small ACP message takes tens of
// nanoseconds, about the cost of reading the clock, so timing every call would measure the clock.
// Here each sample times a batch of calls sized to take `targetMs`, and the contenders of one
// comparison take turns within every round (in a rotating order), so drift on a shared, noisy
// machine (frequency scaling, a neighbour's burst) lands on all contenders alike and cancels
// out of their ratio. The first round is a warm-up and is discarded; the result per contender is
// the median over the remaining rounds.
//
// Batches are timed in process CPU time (process.cpuUsage, microsecond resolution), not wall
// time: on a shared machine with more runnable processes than cores, a batch is preempted at
// random and its wall time says more about the neighbours than about the code. CPU time counts
// this process's threads only, including the GC helper threads that allocation-heavy code keeps
// busy, which is a real cost of that code and is charged to it.

import { median } from "./stats.mjs";

// Results are folded into this so the optimiser cannot drop the calls as dead code.
let sink = 0;

/**
 * A fresh loop function per contender. Each `new Function` has its own type feedback, so the
 * `fn()` call site inside stays monomorphic and can be inlined; one shared loop called with
 * different functions would go megamorphic and add the same call overhead to everyone,
 * flattening the ratios of the fastest contenders.
 */
/** @typedef {(fn: () => unknown, n: number) => number} Loop */

/** @returns {Loop} */
function makeLoop() {
  return /** @type {Loop} */ (
    new Function(
      "fn",
      "n",
      "let hits = 0; for (let i = 0; i < n; i++) { if (fn()) hits++; } return hits;",
    )
  );
}

/**
 * CPU nanoseconds one batch of `n` calls takes.
 * @param {Loop} loop
 * @param {() => unknown} fn
 * @param {number} n
 */
function timeBatch(loop, fn, n) {
  const start = process.cpuUsage();
  sink += loop(fn, n);
  const used = process.cpuUsage(start);
  return (used.user + used.system) * 1000;
}

/**
 * Runs `fn` untimed until it has had WARMUP_CALLS calls or WARMUP_MS of CPU time. V8 tiers a
 * function up (interpreter → baseline → optimising compiler) after an amount of work that
 * grows with the function's bytecode size, and ajv's validators are large functions: measured
 * here, a NewSessionResponse check averages ~20 µs over its first 5,000 calls and ~2 µs after.
 * Throughput is the steady state, so it is measured after that; the cost of the first calls is
 * measured separately (cold.mjs), in fresh processes.
 */
const WARMUP_CALLS = 10_000;
const WARMUP_MS = 30;
/**
 * @param {Loop} loop
 * @param {() => unknown} fn
 */
function warmUp(loop, fn) {
  const start = process.cpuUsage();
  for (let done = 0, n = 16; done < WARMUP_CALLS; done += n, n = Math.min(n * 2, 4096)) {
    sink += loop(fn, n);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= WARMUP_MS) return;
  }
}

/**
 * Iterations per batch such that one batch takes about `targetMs`, measured on a warm
 * function (calibrating on cold calls would size the batch at a handful of calls).
 * @param {Loop} loop
 * @param {() => unknown} fn
 * @param {number} targetMs
 */
function calibrate(loop, fn, targetMs) {
  const targetNs = targetMs * 1e6;
  warmUp(loop, fn);
  let n = 1;
  for (;;) {
    const ns = timeBatch(loop, fn, n);
    // A quarter of the target is long enough to scale from without clock resolution mattering.
    if (ns >= targetNs / 4 || n >= 1 << 24) {
      return Math.max(1, Math.ceil((n * targetNs) / Math.max(ns, 1)));
    }
    n *= ns < targetNs / 64 ? 8 : 2;
  }
}

/**
 * Measures the contenders against each other.
 * @template {string} Name
 * @param {{ name: Name, fn: () => unknown }[]} contenders
 * @param {{ targetMs: number, rounds: number }} options
 * @returns {Record<Name, { nsPerOp: number, samples: number[], batch: number }>}
 */
export function compare(contenders, { targetMs, rounds }) {
  const runs = contenders.map((c) => {
    const loop = makeLoop();
    return {
      name: c.name,
      fn: c.fn,
      loop,
      batch: calibrate(loop, c.fn, targetMs),
      /** @type {number[]} */ samples: [],
    };
  });
  for (let round = 0; round <= rounds; round++) {
    for (let k = 0; k < runs.length; k++) {
      const run = /** @type {(typeof runs)[number]} */ (runs[(k + round) % runs.length]);
      const ns = timeBatch(run.loop, run.fn, run.batch) / run.batch;
      if (round > 0) run.samples.push(ns);
    }
  }
  const out =
    /** @type {Record<Name, { nsPerOp: number, samples: number[], batch: number }>} */ ({});
  for (const run of runs)
    out[run.name] = { nsPerOp: median(run.samples), samples: run.samples, batch: run.batch };
  return out;
}

/** Exposed so a caller can print it at the end; it only exists to defeat dead-code elimination. */
export function sinkValue() {
  return sink;
}
