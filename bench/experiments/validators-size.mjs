#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what each change to the text of the validators is
// worth, in bytes on disk, in an application's bundle and in speed.
//
// Compiles the v1 stable validators the way generator/emit/validators.ts does, first as ajv
// writes them (messages on, none of generator/emit/ajv-output.ts's rewrites), then with each
// change added on top of the previous one; the last variant is checked to reproduce the
// generator's validators.js byte for byte. Each variant replaces v1/validators.js in a copy of
// the generated package and is measured: the file, the esbuild bundle (minified, gzip) of the
// benchmark's client app (bench/lib/size.mjs) and of everything from the stable entry point,
// and (with --speed) validation speed, accepting the corpus's messages and rejecting its invalid
// variants, every variant and zod interleaved in one process (variant-speed.mjs). Every variant must give the first one's verdict and issues (keyword and
// path) on every corpus item.
//
//   npm run build && node bench/experiments/validators-size.mjs [--pkg DIR] [--speed]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatBytes, formatRatio } from "../lib/stats.mjs";
import { dist, validatorVariants } from "./validator-variants.mjs";
import { variantSpeed } from "./variant-speed.mjs";

const { COMPACTIONS } = await dist("emit/ajv-output.js");

const { values: args } = parseArgs({
  options: { pkg: { type: "string" }, speed: { type: "boolean", default: false } },
});
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const tmp = mkdtempSync(join(tmpdir(), "acp-size-exp-"));

try {
  const { generated, corpus, compile, measure } = await validatorVariants({
    ...(args.pkg ? { pkg: args.pkg } : {}),
    tmp,
    log,
  });
  // ajv's messages on or off, then the first `steps` rewrites of its output.
  const variants = [
    { label: "ajv's output (messages on, no rewrites)", messages: true, steps: 0 },
    { label: "+ messages: false", messages: false, steps: 0 },
    ...COMPACTIONS.map((/** @type {{ name: string }} */ c, /** @type {number} */ i) => ({
      label: `+ ${c.name}`,
      messages: false,
      steps: i + 1,
    })),
  ];
  const { rows, disagreements } = await measure(
    variants.map((v) => ({
      label: v.label,
      content: compile({ messages: v.messages }, COMPACTIONS.slice(0, v.steps)),
    })),
  );

  const dirs = rows.map((r) => r.dir);
  const speed = args.speed ? variantSpeed(dirs, { runs: 1, tmp, log }) : [];
  const rejecting = args.speed ? variantSpeed(dirs, { runs: 1, tmp, rejecting: true, log }) : [];

  const last = rows.at(-1);
  const lines = [
    `v1 stable of the SDK 2.4.0 schema; ${corpus.length} corpus items; the last variant reproduces the generator's validators.js: ${last?.content === generated ? "yes" : "NO"}`,
    "",
    "| variant | validators.js | client app, minified | gzip | whole stable entry, minified | gzip | vs zod (median per message) | vs ajv's output (median per message) | rejecting: vs zod | rejecting: vs ajv's output |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r, i) => {
      const s = speed[i];
      const ratio = (/** @type {number | undefined} */ v) =>
        v === undefined ? "—" : formatRatio(v);
      return `| ${r.label} | ${formatBytes(r.bytes)} | ${formatBytes(r.client.bytes)} | ${formatBytes(r.client.gzip)} | ${formatBytes(r.whole.bytes)} | ${formatBytes(r.whole.gzip)} | ${ratio(s?.vsZod[0])} | ${ratio(s?.vsFirst[0])} | ${ratio(rejecting[i]?.vsZod[0])} | ${ratio(rejecting[i]?.vsFirst[0])} |`;
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
