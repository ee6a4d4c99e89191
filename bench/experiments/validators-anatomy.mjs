#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what validators.js is made of, in bytes per construct.
//
//   node bench/experiments/validators-anatomy.mjs [FILE]
// FILE defaults to generated/v1/validators.js. Relies on ajv's `lines: true` output (one
// statement per line), which is how the generator emits it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../lib/paths.mjs";
import { formatBytes } from "../lib/stats.mjs";

const file = process.argv[2] ?? join(REPO, "generated", "v1", "validators.js");
const code = readFileSync(file, "utf8");
const lines = code.split("\n");

// First matching rule wins; each line is counted once.
/** @type {[string, (line: string) => boolean][]} */
const RULES = [
  ["function headers", (l) => /^function validate\d+\(/.test(l)],
  ["error objects (built when a check fails)", (l) => /schemaPath:|__issue\(|__fail\(/.test(l)],
  [
    "error bookkeeping (vErrors push/concat/reset, errors counters)",
    (l) =>
      /^(if\(vErrors === null\)|vErrors\.push|vErrors = |errors\+\+|errors = |else \{$|\}$|if\(vErrors !== null\)|if\(_errs\d+\)|vErrors\.length = |validate\d+\.errors = |const _errs\d+ = errors;$|var _?valid\d+ = _errs\d+ === errors;$|return errors === 0;$|let vErrors = null;$|let errors = 0;$)/.test(
        l,
      ),
  ],
  [
    "`validateN.evaluated = …` statics (unevaluated* support)",
    (l) => /^validate\d+\.evaluated = |^const validate\d+_evaluated = /.test(l),
  ],
  [
    "evaluated-property bookkeeping inside functions",
    (l) => /evaluated\d|props\d+|items\d+|dynamicProps|dynamicItems/.test(l),
  ],
  ["calls to other validators", (l) => /\bvalidate\d+\(data/.test(l)],
  ["own-property checks (ownProperties: true)", (l) => /func\d+\.call\(/.test(l)],
  [
    "embedded schema constants",
    (l) => /^const (schema|formats|func)\d+ = |^const __schemaValue\d+ = /.test(l),
  ],
  ["exports and imports", (l) => /^export const |^import /.test(l)],
];

const totals = new Map(RULES.map(([name]) => [name, 0]));
let other = 0;
for (const line of lines) {
  const bytes = Buffer.byteLength(line) + 1;
  const rule = RULES.find(([, test]) => test(line));
  if (rule) totals.set(rule[0], (totals.get(rule[0]) ?? 0) + bytes);
  else other += bytes;
}
totals.set("everything else (the checks themselves, control flow)", other);

const total = Buffer.byteLength(code);
const functions = (code.match(/^function validate\d+\(/gm) ?? []).length;
const exported = (code.match(/^export const v\w+ = validate\d+;$/gm) ?? []).length;
const out = [
  `${file}: ${formatBytes(total)}, ${functions} functions for ${exported} exported definitions`,
  "",
  "| construct | bytes | share |",
  "|---|---|---|",
  ...[...totals]
    .sort((a, b) => b[1] - a[1])
    .map(
      ([name, bytes]) =>
        `| ${name} | ${formatBytes(bytes)} | ${((100 * bytes) / total).toFixed(1)}% |`,
    ),
];
process.stdout.write(`${out.join("\n")}\n`);
