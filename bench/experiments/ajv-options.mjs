#!/usr/bin/env node
// Experiment, not part of `npm run bench`: what would other ajv settings and two schema
// rewrites do to the generated validators?
//
// Compiles the v1 stable surface the way generator/emit/validators.ts does (same model, same
// prepare rules, same createAjv), once as is (variant A, checked to reproduce the generator's
// validators.js byte for byte) and then with each change added on top of the previous one.
// Each variant replaces v1/validators.js in a copy of the generated package, and is then
// measured by the benchmark's own children, each in a fresh process against the official SDK's
// zod schemas: steady-state throughput (throughput.mjs), one cold session (cold.mjs), the cold
// import of the entry point, and the esbuild bundle of one validator. Every variant must agree
// with A on every corpus item, valid and invalid, or the experiment says so.
//
//   npm run build && node bench/experiments/ajv-options.mjs [--schema-dir DIR] [--pkg DIR]
//
// It imports the generator's compiled internals from dist/ (an experiment may lean on them;
// the benchmark proper only uses the CLI), so it measures whatever `npm run build` last built.
// --pkg reuses a package generated from the same schema folder (else one is generated).

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { _ } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { build } from "esbuild";
import { buildItems, invalidItems, largeMessages, loadExchange } from "../lib/corpus.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { formatBytes, formatMs, formatNs, formatRatio, median } from "../lib/stats.mjs";

/** A JSON Schema node, as parsed from the schema file. @typedef {Record<string, any>} Schema */

const standaloneCode = standaloneModule.default;
/**
 * The generator's compiled modules, loaded by path: untyped at this boundary.
 * @param {string} path
 * @returns {Promise<Record<string, any>>}
 */
const dist = (path) => import(pathToFileURL(join(REPO, "dist", "generator", path)).href);
const { Diagnostics } = await dist("diagnostics.js");
const { loadSchemaDir } = await dist("load/index.js");
const { buildModel } = await dist("model/build.js");
const { applyRules, discriminatorForAjv, stripAnnotations } = await dist("prepare/rules.js");
const { createAjv, loadFormats } = await dist("emit/ajv.js");

const { values: args } = parseArgs({
  options: {
    "schema-dir": { type: "string", default: SDK_SCHEMA_DIR },
    pkg: { type: "string" },
    "target-ms": { type: "string", default: "4" },
    rounds: { type: "string", default: "9" },
    runs: { type: "string", default: "5" },
  },
});
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- candidate schema rewrites

/** @returns {v is Schema} */
const isObj = (/** @type {unknown} */ v) =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const jsonType = (/** @type {unknown} */ v) =>
  v === null ? "null" : Number.isInteger(v) ? "integer" : Array.isArray(v) ? "array" : typeof v;

/**
 * A branch that admits exactly one value: `{const}`, optionally with a `type` it satisfies.
 * @param {unknown} branch
 * @returns {{ value: unknown } | undefined}
 */
function constOf(branch) {
  if (!isObj(branch) || !Object.hasOwn(branch, "const")) return undefined;
  if (Object.keys(branch).some((k) => k !== "const" && k !== "type" && k !== "format"))
    return undefined;
  const t = jsonType(branch.const);
  if (
    branch.type !== undefined &&
    branch.type !== t &&
    !(branch.type === "number" && t === "integer")
  )
    return undefined;
  return { value: branch.const };
}

/**
 * Enum rewrite. ACP writes its enums as `oneOf`/`anyOf` of `{type, const}` branches (so each
 * value can carry a description). For validation that is a list of allowed values, but ajv
 * evaluates the branches one by one and allocates an error object for each that fails (all but
 * one, on every call). Closed enums become `enum`; open ones (consts plus one catch-all `{type}`
 * branch, under anyOf) become the catch-all alone, since every const already satisfies it.
 * A `format` on a const branch is dropped (a fixed value either passes it or the schema is
 * contradictory); a catch-all with a format is left alone.
 * @param {Schema} node
 * @returns {Schema}
 */
function enumRule(node) {
  for (const union of ["oneOf", "anyOf"]) {
    const branches = node[union];
    if (!Array.isArray(branches) || branches.length < 2) continue;
    const consts = branches.map(constOf);
    const others = branches.filter((_b, i) => !consts[i]);
    const values = consts.flatMap((c) => (c ? [c.value] : []));
    if (values.length < 2) continue;
    if (new Set(values.map((v) => JSON.stringify(v))).size !== values.length) continue;
    const { [union]: _dropped, ...rest } = node;
    if (others.length === 0) return { ...rest, enum: values };
    const [catchAll] = others;
    if (
      union === "anyOf" &&
      others.length === 1 &&
      isObj(catchAll) &&
      Object.keys(catchAll).length === 1 &&
      typeof catchAll.type === "string" &&
      values.every((v) => jsonType(v) === catchAll.type)
    ) {
      return { ...rest, type: catchAll.type };
    }
  }
  return node;
}

/**
 * `unevaluatedProperties: true` / `unevaluatedItems: true` can never fail: drop them.
 * @param {Schema} node
 */
function noopUnevaluatedRule(node) {
  if (node.unevaluatedProperties !== true && node.unevaluatedItems !== true) return node;
  const out = { ...node };
  if (out.unevaluatedProperties === true) delete out.unevaluatedProperties;
  if (out.unevaluatedItems === true) delete out.unevaluatedItems;
  return out;
}

const rule = (/** @type {string} */ name, /** @type {(node: Schema) => Schema} */ apply) => ({
  name,
  reason: name,
  apply,
});

/**
 * @param {unknown} value
 * @param {readonly string[]} keywords
 * @returns {boolean}
 */
function usesKeyword(value, keywords) {
  if (Array.isArray(value)) return value.some((v) => usesKeyword(v, keywords));
  if (!isObj(value)) return false;
  return Object.entries(value).some(([k, v]) => keywords.includes(k) || usesKeyword(v, keywords));
}

// ---------------------------------------------------------------- variants

/**
 * @typedef {{
 *   id: string, label: string, own?: boolean, enums?: boolean, lean?: boolean,
 *   inline?: boolean, ownOff?: boolean, noOptimize?: boolean,
 * }} Variant
 * @typedef {Variant & {
 *   compileMs: number, bytes: number, dir: string, reproduces?: boolean,
 *   vsZod?: number, vsJson?: number, corpusNs?: number, zodCorpusNs?: number,
 *   coldMs?: number, importMs?: number, bundle?: number,
 * }} VariantResult
 */
/** @type {Variant[]} */
const VARIANTS = [
  { id: "A", label: "as generated today" },
  { id: "B", label: "A + one $id per definition (one function each)", own: true },
  { id: "C", label: "B + enum rewrite", own: true, enums: true },
  {
    id: "D",
    label: "C + drop no-op unevaluated*, ajv unevaluated/dynamicRef off",
    own: true,
    enums: true,
    lean: true,
  },
  {
    id: "E",
    label: "D + inlineRefs: true (ajv's default)",
    own: true,
    enums: true,
    lean: true,
    inline: true,
  },
  {
    id: "G",
    label: "E + ownProperties: false (no property name is an Object.prototype member)",
    own: true,
    enums: true,
    lean: true,
    inline: true,
    ownOff: true,
  },
  { id: "F", label: "A + code.optimize: false (compile time only)", noOptimize: true },
];

/**
 * The generator sets ajv's `ownProperties: true` so that `required: ["toString"]` is not met by
 * Object.prototype. That costs a hasOwnProperty call per property on every check, and only
 * matters for property names that exist on Object.prototype; whether the schema has any is
 * known when generating.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/**
 * @param {unknown} value
 * @returns {boolean}
 */
function namesPrototypeMember(value) {
  if (Array.isArray(value)) return value.some(namesPrototypeMember);
  if (!isObj(value)) return false;
  if (isObj(value.properties) && Object.keys(value.properties).some((k) => PROTOTYPE_NAMES.has(k)))
    return true;
  if (
    Array.isArray(value.required) &&
    value.required.some((/** @type {string} */ k) => PROTOTYPE_NAMES.has(k))
  )
    return true;
  return Object.values(value).some(namesPrototypeMember);
}

/**
 * Today all definitions go into ajv as one schema (`$defs` under a single `$id`), and each is
 * exported by a JSON pointer into it. ajv then compiles a definition twice: once as the export
 * root and once more where another definition reaches it by `$ref`, because the two are
 * different schema environments to it (349 functions for 178 definitions in v1 stable). Giving
 * every definition its own `$id`, with `#/$defs/X` references rewritten to it, makes the export
 * and every reference the same compiled function.
 */
const OWN_ID = "acp-codegen:def:";
/**
 * @param {unknown} value
 * @param {string} defsKeyword
 * @returns {unknown}
 */
function ownIdRefs(value, defsKeyword) {
  if (Array.isArray(value)) return value.map((v) => ownIdRefs(v, defsKeyword));
  if (!isObj(value)) return value;
  const prefix = `#/${defsKeyword}/`;
  /** @type {Schema} */
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith(prefix)
        ? OWN_ID + v.slice(prefix.length)
        : ownIdRefs(v, defsKeyword);
  }
  return out;
}

const diagnostics = new Diagnostics();
const model = buildModel(loadSchemaDir(args["schema-dir"], args["schema-dir"], diagnostics));
/** @typedef {{ key: string, name: string, schema: Schema }} Definition */
/** @type {{ definitions: Definition[], defsKeyword: string, schemaFile: { display: string } }} */
const surface = model.surfaces.find((/** @type {{ id: string }} */ s) => s.id === "v1");
const formats = await loadFormats();
const context = {
  defs: Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
  defsKeyword: surface.defsKeyword,
  file: surface.schemaFile.display,
  at: "",
  diagnostics,
};

/** @param {Variant} v */
function compileVariant(v) {
  const rules = [stripAnnotations, discriminatorForAjv];
  if (v.enums) rules.push(rule("enum", enumRule));
  if (v.lean) rules.push(rule("noop-unevaluated", noopUnevaluatedRule));
  /** @type {Schema} */
  const defs = {};
  for (const def of surface.definitions) defs[def.key] = applyRules(def.schema, rules, context);
  const start = process.cpuUsage();
  const ajv = createAjv(formats, [], {
    code: {
      source: true,
      esm: true,
      lines: true,
      formats: _`__formats`,
      optimize: v.noOptimize ? false : 1,
    },
    ...(v.inline ? { inlineRefs: true } : {}),
    ...(v.ownOff && !namesPrototypeMember(defs) ? { ownProperties: false } : {}),
  });
  if (v.lean && !usesKeyword(defs, ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef"])) {
    // Ajv2020 switches these on unconditionally; with no keyword left that needs them, the
    // bookkeeping they add to every function (evaluated-property maps, dynamic anchors) is dead.
    ajv.opts.unevaluated = false;
    ajv.opts.dynamicRef = false;
  }
  const id = "acp-codegen:surface";
  /** @type {Record<string, string>} */
  const exports = {};
  if (v.own) {
    for (const def of surface.definitions) {
      ajv.addSchema({
        $id: OWN_ID + def.key,
        .../** @type {Schema} */ (ownIdRefs(defs[def.key], surface.defsKeyword)),
      });
      exports[`v${def.name}`] = OWN_ID + def.key;
    }
  } else {
    for (const def of surface.definitions)
      exports[`v${def.name}`] = `${id}#/${surface.defsKeyword}/${def.key}`;
    ajv.addSchema({ $id: id, [surface.defsKeyword]: defs }, id);
  }
  let code = standaloneCode(ajv, exports);
  const used = process.cpuUsage(start);
  code = code
    .replace(/^"use strict";/, "")
    .replace(/require\("ajv\/dist\/runtime\/(ucs2length|equal)"\)\.default/g, "__$1");
  const imports = [];
  for (const name of ["ucs2length", "equal"]) {
    if (code.includes(`__${name}`))
      imports.push(`import { ${name} as __${name} } from "../runtime/ajv-helpers.js";`);
  }
  if (code.includes("__formats"))
    imports.push('import { formats as __formats } from "../runtime/formats.js";');
  return { code, imports, compileMs: (used.user + used.system) / 1000 };
}

// ---------------------------------------------------------------- packages per variant

const tmp = mkdtempSync(join(tmpdir(), "acp-ajv-exp-"));
let pkg = args.pkg;
if (!pkg) {
  pkg = join(tmp, "generated");
  log("generating the package…");
  const r = runNode(
    [
      CLI,
      "generate",
      "--schema-dir",
      args["schema-dir"],
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
const original = readFileSync(join(pkg, "v1", "validators.js"), "utf8");
const banner = original.slice(0, original.indexOf("\n") + 1);

const schemaFile = join(args["schema-dir"], "v1", "schema.json");
/** @type {VariantResult[]} */
const results = [];
// Untimed first compile: the first one in a process also pays for loading and JIT-warming ajv
// itself, which would be charged to whichever variant came first.
compileVariant(/** @type {Variant} */ (VARIANTS[0]));
for (const v of VARIANTS) {
  const c = compileVariant(v);
  const content = `${banner}${c.imports.join("\n")}\n${c.code}\n`;
  const dir = join(tmp, v.id);
  cpSync(pkg, dir, { recursive: true });
  writeFileSync(join(dir, "v1", "validators.js"), content);
  /** @type {VariantResult} */
  const result = { ...v, compileMs: c.compileMs, bytes: Buffer.byteLength(content), dir };
  if (v.id === "A") result.reproduces = content === original;
  results.push(result);
  log(`compiled ${v.id} in ${formatMs(c.compileMs)} CPU`);
}

// Agreement: every variant gives A's verdict on every item (valid and invalid ones).
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
const exchange = loadExchange();
const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
/** @type {Record<string, Record<string, any>>} */
const modules = {};
for (const r of results)
  modules[r.id] = await import(pathToFileURL(join(r.dir, "v1", "index.js")).href);
const { items } = buildItems({
  methods: modules.A?.METHODS,
  schema,
  messages: [...exchange, ...largeMessages(sessionId)],
});
/** @type {string[]} */
const disagreements = [];
for (const item of [...items, ...invalidItems(items, schema)]) {
  const verdicts = results.map((r) => modules[r.id]?.[`is${item.definition}`]?.(item.value));
  if (verdicts.some((x) => x !== verdicts[0]))
    disagreements.push(
      `${item.label}: ${results.map((r, i) => `${r.id}=${verdicts[i]}`).join(" ")}`,
    );
}

for (const r of results) {
  if (r.noOptimize) continue;
  log(`measuring ${r.id}…`);
  const out = join(tmp, `throughput-${r.id}.json`);
  const t = runNode(
    [
      join(REPO, "bench", "lib", "throughput.mjs"),
      "--pkg",
      r.dir,
      "--schema",
      schemaFile,
      "--out",
      out,
      "--target-ms",
      args["target-ms"],
      "--rounds",
      args.rounds,
    ],
    { cwd: REPO },
  );
  if (t.status !== 0) throw new Error(t.stderr);
  /** @type {import("../lib/throughput.mjs").ThroughputOutput} */
  const measured = JSON.parse(readFileSync(out, "utf8"));
  const valid = measured.results.filter((x) => x.expect === "valid");
  r.vsZod = median(valid.map((x) => x.validation.sdkNs / x.validation.oursNs));
  r.vsJson = median(valid.map((x) => x.validation.jsonParseNs / x.validation.oursNs));
  r.corpusNs = valid.reduce((s, x) => s + x.validation.oursNs, 0);
  r.zodCorpusNs = valid.reduce((s, x) => s + x.validation.sdkNs, 0);

  /** @type {number[]} */
  const cold = [];
  /** @type {number[]} */
  const imports = [];
  for (let i = 0; i < Number(args.runs); i++) {
    const c = runNode(
      [
        join(REPO, "bench", "lib", "cold.mjs"),
        "--side",
        "ours",
        "--pkg",
        r.dir,
        "--schema",
        schemaFile,
      ],
      { cwd: REPO },
    );
    cold.push(JSON.parse(c.stdout).cpuMs);
    const url = pathToFileURL(join(r.dir, "v1", "index.js")).href;
    const code = `const c0 = process.cpuUsage(); await import(${JSON.stringify(url)}); const c = process.cpuUsage(c0); process.stdout.write(String((c.user + c.system) / 1000));`;
    imports.push(Number(runNode(["--input-type=module", "-e", code]).stdout));
  }
  r.coldMs = median(cold);
  r.importMs = median(imports);

  const entry = join(tmp, `bundle-${r.id}.mjs`);
  writeFileSync(
    entry,
    `import { isSessionNotification } from ${JSON.stringify(join(r.dir, "v1", "index.js"))};\nconsole.log(isSessionNotification(globalThis.m));\n`,
  );
  const b = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  r.bundle = b.outputFiles[0]?.contents.length;
}

const lines = [
  `v1 stable of ${args["schema-dir"]}; ${items.length} valid corpus messages; A reproduces the generator's validators.js: ${results[0]?.reproduces ? "yes" : "NO"}`,
  "",
  "| variant | compile (CPU) | validators.js | bundle, one validator | import (CPU) | cold session (CPU) | corpus once, warm | vs zod (median per message) | vs JSON.parse (median) |",
  "|---|---|---|---|---|---|---|---|---|",
];
for (const r of results) {
  const m = (/** @type {number | undefined} */ x, /** @type {(value: number) => string} */ f) =>
    x === undefined ? "—" : f(x);
  lines.push(
    `| ${r.id}: ${r.label} | ${formatMs(r.compileMs)} | ${formatBytes(r.bytes)} | ${m(r.bundle, formatBytes)} | ${m(r.importMs, formatMs)} | ${m(r.coldMs, formatMs)} | ${m(r.corpusNs, formatNs)} | ${m(r.vsZod, formatRatio)} | ${m(r.vsJson, formatRatio)} |`,
  );
}
lines.push(
  "",
  disagreements.length
    ? `DISAGREEMENTS:\n${disagreements.join("\n")}`
    : "every variant agrees with A on every corpus item (valid and invalid)",
);
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(tmp, { recursive: true, force: true });
