#!/usr/bin/env node
// Experiment, not part of `npm run bench`: ajv's `inlineRefs`, which copies a referenced
// definition's checks into every validator that refers to it instead of calling its function.
//
// Compiles the v1 stable validators as generator/emit/validators.ts does (same prepare rules,
// same createStandaloneAjv, same rewrites of ajv's output), with `inlineRefs` at 2 (what the
// generator uses: checked to reproduce its validators.js byte for byte), at ajv's default
// (true), off, and at other keyword-count limits (ajv inlines a referenced schema with fewer
// keywords than the number). Each variant replaces v1/validators.js in a copy of the generated package and is
// measured: the file, the esbuild bundles of the benchmark's client app and of everything from
// the stable entry point (bench/lib/size.mjs), and validation speed, all variants interleaved in
// one process (variant-speed.mjs), with the generator's compiled twice to show the noise.
// Every variant must give the generator's verdict and issues (keyword and path) on every corpus item,
// valid and invalid.
//
//   npm run build && node bench/experiments/inline-refs.mjs [--pkg DIR] [--limits 4,8] [--runs N]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated);
// --runs: speed children, one after another (each one interleaves all variants; 0: sizes only).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatBytes, formatRatio } from "../lib/stats.mjs";
import { validatorVariants } from "./validator-variants.mjs";
import { variantSpeed } from "./variant-speed.mjs";

const { values: args } = parseArgs({
  options: {
    pkg: { type: "string" },
    limits: { type: "string", default: "4,8" },
    runs: { type: "string", default: "1" },
  },
});
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

const tmp = mkdtempSync(join(tmpdir(), "acp-inline-exp-"));
try {
  const { generated, corpus, compile, measure } = await validatorVariants({
    ...(args.pkg ? { pkg: args.pkg } : {}),
    tmp,
    log,
  });
  const variants = [
    { label: "inlineRefs: 2 (the generator's)", inlineRefs: 2 },
    // The same code again: how far apart two identical variants measure (the noise).
    { label: "inlineRefs: 2 again (control)", inlineRefs: 2 },
    { label: "inlineRefs: true (ajv's default)", inlineRefs: true },
    { label: "inlineRefs: false", inlineRefs: false },
    ...args.limits
      .split(",")
      .filter(Boolean)
      .map((n) => ({ label: `inlineRefs: ${n} (fewer keywords inlined)`, inlineRefs: Number(n) })),
  ];
  const { rows, disagreements } = await measure(
    variants.map((v) => ({ label: v.label, content: compile({ inlineRefs: v.inlineRefs }) })),
  );

  const speed = variantSpeed(
    rows.map((r) => r.dir),
    { runs: Number(args.runs), tmp, log },
  );

  const first = rows[0];
  const lines = [
    `v1 stable of the SDK 2.4.0 schema; ${corpus.length} corpus items; the first variant reproduces the generator's validators.js: ${first && readFileSync(join(first.dir, "v1", "validators.js"), "utf8") === generated ? "yes" : "NO"}`,
    "",
    "| variant | validators.js | client app, minified | gzip | whole stable entry, minified | gzip | vs zod (median per message) | vs the first (median per message) | vs the first (whole corpus) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r, i) => {
      const s = speed[i];
      const runs = (/** @type {number[]} */ v) => v.map(formatRatio).join(", ") || "—";
      return `| ${r.label} | ${formatBytes(r.bytes)} | ${formatBytes(r.client.bytes)} | ${formatBytes(r.client.gzip)} | ${formatBytes(r.whole.bytes)} | ${formatBytes(r.whole.gzip)} | ${runs(s?.vsZod ?? [])} | ${runs(s?.vsFirst ?? [])} | ${runs(s?.corpusVsFirst ?? [])} |`;
    }),
    "",
    disagreements.length
      ? `DISAGREEMENTS (verdict, issue path or keyword) with the first variant: ${disagreements.join("; ")}`
      : "every variant gives the first one's verdict and issues (path, keyword) on every corpus item",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
