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
const { COMPACTIONS } = await dist("emit/ajv-output.js");

const { values: args } = parseArgs({
  options: { pkg: { type: "string" }, speed: { type: "boolean", default: false } },
});
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const tmp = mkdtempSync(join(tmpdir(), "acp-size-exp-"));

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
   * validators.js with ajv's messages on or off and the first `steps` rewrites.
   * @param {boolean} messages
   * @param {number} steps
   */
  function compile(messages, steps) {
    const ajv = createStandaloneAjv(formats, [], defs, { messages });
    /** @type {Record<string, string>} */
    const exports = {};
    for (const def of names.definitions) exports[def.validator] = `${DEFINITION_ID}${def.key}`;
    for (const def of surface.definitions) {
      const schema = defs[def.key];
      const body =
        schema && typeof schema === "object" ? schema : schema === false ? { not: {} } : {};
      ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
    }
    const code = standaloneModule(ajv, exports, "../runtime", "validators.js", {
      compactions: COMPACTIONS.slice(0, steps),
    });
    return `${banner}${code}`;
  }

  const variants = [
    { label: "ajv's output (messages on, no rewrites)", messages: true, steps: 0 },
    { label: "+ messages: false", messages: false, steps: 0 },
    ...COMPACTIONS.map((/** @type {{ name: string }} */ c, /** @type {number} */ i) => ({
      label: `+ ${c.name}`,
      messages: false,
      steps: i + 1,
    })),
  ];

  const exchange = loadExchange();
  const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
  const schemaFile = join(SDK_SCHEMA_DIR, "v1", "schema.json");
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  const { METHODS } = await import(pathToFileURL(join(pkg, "v1", "index.js")).href);
  const { items } = buildItems({
    methods: METHODS,
    schema,
    messages: [...exchange, ...largeMessages(sessionId)],
  });
  const corpus = [...items, ...invalidItems(items, schema)];
  /** @type {string | undefined} */
  let reference;
  const disagreements = [];
  const rows = [];
  for (const [index, variant] of variants.entries()) {
    const content = compile(variant.messages, variant.steps);
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
    rows.push({ ...variant, dir, bytes: Buffer.byteLength(content), client, whole, content });
    log(`measured: ${variant.label}`);
  }

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
