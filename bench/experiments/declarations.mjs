#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what does the type-check cost of the stable entry
// point consist of, and what would smaller declarations save?
//
// Copies a generated package, rewrites its v1 declaration files in a few ways, and measures the
// benchmark's consumer project against each copy with TypeScript 5.9 in one warm process,
// standard library cached (bench/lib/typecheck-api.mjs: the low-noise measurement), next to the
// empty baseline and the official SDK.
//   A  as generated
//   B  guards.d.ts and parsers.d.ts without their per-function doc comments
//   C  the same two files as one line per definition: `export declare const isX: Guard<T.X>, …`
//   D  C, and types.d.ts without doc comments (to size the docs; not a proposal)
// It also prints the compiler's parse / bind / check durations per variant.
//
//   node bench/experiments/declarations.mjs [--pkg DIR] [--rounds N]
// --pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated).

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchTypeCheckApi, makeConsumerProject } from "../lib/consumer.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { formatBytes, formatMs, formatRatio } from "../lib/stats.mjs";

const { values: args } = parseArgs({
  options: { pkg: { type: "string" }, rounds: { type: "string", default: "15" } },
});
const tmp = mkdtempSync(join(tmpdir(), "acp-dts-exp-"));
let pkg = args.pkg;
if (!pkg) {
  pkg = join(tmp, "generated");
  const r = runNode(
    [
      CLI,
      "generate",
      "--schema-dir",
      SDK_SCHEMA_DIR,
      "--out",
      pkg,
      "--name",
      "acp-bench",
      "--quiet",
    ],
    { cwd: REPO },
  );
  if (r.status !== 0) throw new Error(r.stderr);
}

/** Drops `/** … *\/` blocks on their own lines (declaration files only: no strings to trip on). */
const stripDocs = (/** @type {string} */ text) =>
  text.replace(/^[ \t]*\/\*\*[\s\S]*?\*\/[ \t]*\n/gm, "");

/**
 * guards.d.ts: one declaration per definition instead of three documented functions.
 * @param {string} text
 */
function compactGuards(text) {
  const names = [
    ...text.matchAll(/export declare function is(\w+)\(value: unknown\): value is T\.\1;/g),
  ].map((m) => m[1]);
  const head = text.slice(0, text.indexOf("/**"));
  return `${head}/** \`is<Name>\`: strict check. \`validate<Name>\`: the issues. \`assert<Name>\`: throws a ValidationError. */
type Guard<T> = (value: unknown) => value is T;
type Validate<T> = (value: unknown) => ValidationResult<T>;
type Assert<T> = (value: unknown) => T;
${names.map((n) => `export declare const is${n}: Guard<T.${n}>, validate${n}: Validate<T.${n}>, assert${n}: Assert<T.${n}>;`).join("\n")}
`;
}

/**
 * parsers.d.ts: `parse<Name>` declarations as one line each, other declarations kept.
 * @param {string} text
 */
function compactParsers(text) {
  const body = stripDocs(text).replace(
    /^export declare function parse(\w+)\(value: unknown\): T\.\1;$/gm,
    "export declare const parse$1: Parse<T.$1>;",
  );
  return body.replace(
    'import type * as T from "./types.js";\n',
    'import type * as T from "./types.js";\n/** Reads a value leniently (x-deserialize-* annotations); throws a ValidationError. */\ntype Parse<T> = (value: unknown) => T;\n',
  );
}

/** @type {{ id: string, label: string, edit: Record<string, (text: string) => string> }[]} */
const VARIANTS = [
  { id: "A", label: "as generated", edit: {} },
  {
    id: "B",
    label: "guards.d.ts, parsers.d.ts without doc comments",
    edit: { "guards.d.ts": stripDocs, "parsers.d.ts": stripDocs },
  },
  {
    id: "C",
    label: "guards.d.ts, parsers.d.ts one line per definition",
    edit: { "guards.d.ts": compactGuards, "parsers.d.ts": compactParsers },
  },
  {
    id: "D",
    label: "C + types.d.ts without doc comments",
    edit: { "guards.d.ts": compactGuards, "parsers.d.ts": compactParsers, "types.d.ts": stripDocs },
  },
];

const rows = [];
for (const v of VARIANTS) {
  const copy = join(tmp, v.id);
  cpSync(pkg, copy, { recursive: true });
  let bytes = 0;
  for (const file of [
    "index.d.ts",
    "types.d.ts",
    "guards.d.ts",
    "parsers.d.ts",
    "methods.d.ts",
    "connection.d.ts",
  ]) {
    const path = join(copy, "v1", file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8");
    const edit = v.edit[file];
    const edited = edit ? edit(text) : text;
    writeFileSync(path, edited);
    bytes += Buffer.byteLength(edited);
  }
  const consumer = makeConsumerProject(join(tmp, `consumer-${v.id}`), copy);
  const out = benchTypeCheckApi({
    consumerDir: consumer,
    rounds: Number(args.rounds),
    log: (line) => process.stderr.write(`${v.id}${line}\n`),
    phases: true,
  });
  if (Object.keys(out.errors).length) throw new Error(`${v.id}: ${JSON.stringify(out.errors)}`);
  rows.push({
    ...v,
    bytes,
    share: out.ms.ours - out.ms.baseline,
    sdkShare: out.ms.sdk - out.ms.baseline,
    phases: out.phases,
  });
}

const lines = [
  `TypeScript 5.9 API, warm, standard library cached; CPU time over an empty baseline, median of ${args.rounds} rounds`,
  "",
  "| variant | v1 declaration bytes | the package's share | the SDK's share (same run) | SDK ÷ ours |",
  "|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.id}: ${r.label} | ${formatBytes(r.bytes)} | ${formatMs(r.share)} | ${formatMs(r.sdkShare)} | ${formatRatio(r.sdkShare / r.share)} |`,
  ),
  "",
  "Compiler phases (ts.performance, wall ms, median; the standard library is cached, so these are the packages' files):",
  "",
  "| variant | ours: parse / bind / check | SDK: parse / bind / check |",
  "|---|---|---|",
  ...rows.map((r) => {
    const f = (/** @type {{ Parse: number, Bind: number, Check: number }} */ p) =>
      `${p.Parse.toFixed(0)} / ${p.Bind.toFixed(0)} / ${p.Check.toFixed(0)}`;
    return `| ${r.id} | ${f(r.phases.ours)} | ${f(r.phases.sdk)} |`;
  }),
];
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(tmp, { recursive: true, force: true });
