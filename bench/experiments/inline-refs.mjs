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

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { makeConsumerProject } from "../lib/consumer.mjs";
import { buildItems, invalidItems, largeMessages, loadExchange } from "../lib/corpus.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { BUNDLES, bundle } from "../lib/size.mjs";
import { formatBytes, formatRatio } from "../lib/stats.mjs";
import { variantSpeed } from "./variant-speed.mjs";

const { values: args } = parseArgs({
  options: {
    pkg: { type: "string" },
    limits: { type: "string", default: "4,8" },
    runs: { type: "string", default: "1" },
  },
});
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const schemaFile = join(SDK_SCHEMA_DIR, "v1", "schema.json");

/**
 * The corpus of the benchmark for the package in `pkg`: valid messages and invalid variants.
 * @param {string} pkg
 */
async function corpusOf(pkg) {
  const exchange = loadExchange();
  const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  const { METHODS } = await import(pathToFileURL(join(pkg, "v1", "index.js")).href);
  const { items } = buildItems({
    methods: METHODS,
    schema,
    messages: [...exchange, ...largeMessages(sessionId)],
  });
  return { items, invalid: invalidItems(items, schema) };
}

/**
 * The generator's compiled modules, loaded by path: untyped at this boundary.
 * @param {string} path
 * @returns {Promise<Record<string, any>>}
 */
const dist = (path) => import(pathToFileURL(join(REPO, "dist", "generator", path)).href);
const { Diagnostics } = await dist("diagnostics.js");
const { loadSchemaDir } = await dist("load/index.js");
const { buildModel } = await dist("model/build.js");
const { buildSymbols } = await dist("symbols/table.js");
const { prepareDefinition } = await dist("prepare/backends.js");
const { DEFINITION_ID } = await dist("prepare/rules.js");
const { createStandaloneAjv, loadFormats, standaloneModule } = await dist("emit/ajv.js");

const tmp = mkdtempSync(join(tmpdir(), "acp-inline-exp-"));
try {
  let pkg = args.pkg;
  if (!pkg) {
    pkg = join(tmp, "generated");
    log("generating the package…");
    const r = runNode(
      [CLI, "generate", "--schema-dir", SDK_SCHEMA_DIR, "--out", pkg, "--name", "acp-bench"],
      { cwd: REPO },
    );
    if (r.status !== 0) throw new Error(r.stderr);
  }
  const generated = readFileSync(join(pkg, "v1", "validators.js"), "utf8");
  const banner = generated.slice(0, generated.indexOf("\n") + 1);

  const diagnostics = new Diagnostics();
  const model = buildModel(loadSchemaDir(SDK_SCHEMA_DIR, SDK_SCHEMA_DIR, diagnostics));
  const surface = model.surfaces.find((/** @type {{ id: string }} */ s) => s.id === "v1");
  const names = buildSymbols(model).of(surface);
  const formats = await loadFormats();
  const input = {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics,
  };
  /** @type {Record<string, unknown>} */
  const defs = {};
  for (const def of surface.definitions)
    defs[def.key] = prepareDefinition("validators", input, def.key, def.schema);

  /**
   * v1/validators.js with `inlineRefs` set to `inlineRefs`.
   * @param {boolean | number} inlineRefs
   */
  function compile(inlineRefs) {
    const ajv = createStandaloneAjv(formats, [], defs, { inlineRefs });
    /** @type {Record<string, string>} */
    const exports = {};
    for (const def of names.definitions) exports[def.validator] = `${DEFINITION_ID}${def.key}`;
    for (const def of surface.definitions) {
      const schema = defs[def.key];
      const body =
        schema && typeof schema === "object" ? schema : schema === false ? { not: {} } : {};
      ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
    }
    return `${banner}${standaloneModule(ajv, exports, "../runtime", "validators.js")}`;
  }

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

  const { items, invalid } = await corpusOf(pkg);
  const corpus = [...items, ...invalid];
  /** @type {string | undefined} */
  let reference;
  const disagreements = [];
  const rows = [];
  for (const [index, variant] of variants.entries()) {
    const content = compile(variant.inlineRefs);
    const dir = join(tmp, `variant-${index}`);
    cpSync(pkg, dir, { recursive: true });
    writeFileSync(join(dir, "v1", "validators.js"), content);
    const validators = await import(pathToFileURL(join(dir, "v1", "validators.js")).href);
    const verdicts = JSON.stringify(
      corpus.map((item) => {
        const v = validators[`v${item.definition}`];
        if (!v) return null;
        return v(item.value)
          ? true
          : (v.errors ?? []).map((/** @type {{ instancePath: string, keyword: string }} */ e) => [
              e.instancePath,
              e.keyword,
            ]);
      }),
    );
    if (reference === undefined) reference = verdicts;
    else if (verdicts !== reference) disagreements.push(variant.label);
    const consumerDir = makeConsumerProject(join(tmp, `consumer-${index}`), dir);
    const client = await bundle(consumerDir, "client", BUNDLES.client.ours);
    const whole = await bundle(consumerDir, "whole", BUNDLES.wholeEntry.ours);
    rows.push({ ...variant, dir, bytes: Buffer.byteLength(content), client, whole });
    log(`compiled and bundled: ${variant.label}`);
  }

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
