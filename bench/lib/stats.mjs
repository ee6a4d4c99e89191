// Small statistics and formatting helpers shared by the benchmark sections.

/**
 * Median of a list of numbers (the mean of the two middle values for even lengths).
 * @param {readonly number[]} values
 */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const at = (/** @type {number} */ i) => /** @type {number} */ (sorted[i]);
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * Geometric mean: the right average for ratios (a 10× win and a 10× loss cancel out).
 * @param {readonly number[]} values
 */
export function geomean(values) {
  if (values.length === 0) return Number.NaN;
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

/** @param {readonly number[]} values */
export function min(values) {
  return values.length ? Math.min(...values) : Number.NaN;
}

/** @param {readonly number[]} values */
export function max(values) {
  return values.length ? Math.max(...values) : Number.NaN;
}

/**
 * Rounds for JSON output: enough digits to compare runs, not so many that diffs are noise.
 * @param {number} value
 */
export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return null;
  const p = 10 ** Math.max(0, digits - Math.ceil(Math.log10(Math.abs(value) + 1e-12)));
  return Math.round(value * p) / p;
}

/** @param {number} ns */
export function formatNs(ns) {
  if (!Number.isFinite(ns)) return "n/a";
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 2 : 1)} µs`;
  return `${(ns / 1_000_000).toFixed(2)} ms`;
}

/**
 * @param {number} ms
 * @returns {string}
 */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 0) return `−${formatMs(-ms)}`;
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** @param {number} bytes */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return "n/a";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** @param {number} ratio */
export function formatRatio(ratio) {
  if (!Number.isFinite(ratio)) return "n/a";
  return ratio >= 100 ? `${ratio.toFixed(0)}×` : `${ratio.toFixed(ratio >= 10 ? 1 : 2)}×`;
}
