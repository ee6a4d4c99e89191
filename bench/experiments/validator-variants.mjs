// Shared by the experiments that compile v1 stable's validators.js in other ways
// (validators-size.mjs, inline-refs.mjs): the package to measure them in, the compiler set up
// as generator/emit/validators.ts sets it up, and the measurement of each variant (its file,
// the benchmark's bundles, its verdicts on the corpus against the first variant's).

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { makeConsumerProject } from "../lib/consumer.mjs";
import { buildItems, invalidItems, largeMessages, loadExchange } from "../lib/corpus.mjs";
import { CLI, REPO, SDK_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { BUNDLES, bundle } from "../lib/size.mjs";

/**
 * The generator's compiled modules, loaded by path: untyped at this boundary.
 * @param {string} path
 * @returns {Promise<Record<string, any>>}
 */
export const dist = (path) => import(pathToFileURL(join(REPO, "dist", "generator", path)).href);
const { Diagnostics } = await dist("diagnostics.js");
const { loadSchemaDir } = await dist("load/index.js");
const { buildModel } = await dist("model/build.js");
const { buildSymbols } = await dist("symbols/table.js");
const { prepareDefinition, prepareInput } = await dist("prepare/backends.js");
const { DEFINITION_ID } = await dist("prepare/rules.js");
const { createStandaloneAjv, loadFormats, standaloneModule } = await dist("emit/ajv.js");

/** @typedef {{ bytes: number, gzip: number }} Bundle */
/** @typedef {{ label: string, content: string, dir: string, bytes: number, client: Bundle, whole: Bundle }} Row */

/**
 * @param {{ pkg?: string, tmp: string, log: (line: string) => void }} options
 *   pkg: a package generated from test/fixtures/releases/2.4.0 (else one is generated in tmp).
 */
export async function validatorVariants({ pkg: given, tmp, log }) {
  let pkg = given;
  if (!pkg) {
    pkg = join(tmp, "generated");
    log("generating the package…");
    const r = runNode(
      [CLI, "generate", "--schema-dir", SDK_SCHEMA_DIR, "--out", pkg, "--name", "acp-bench"],
      { cwd: REPO },
    );
    if (r.status !== 0) throw new Error(r.stderr);
  }
  const source = pkg;
  const generated = readFileSync(join(pkg, "v1", "validators.js"), "utf8");
  const banner = generated.slice(0, generated.indexOf("\n") + 1);

  const diagnostics = new Diagnostics();
  const model = buildModel(loadSchemaDir(SDK_SCHEMA_DIR, SDK_SCHEMA_DIR, diagnostics));
  const surface = model.surfaces.find((/** @type {{ id: string }} */ s) => s.id === "v1");
  const names = buildSymbols(model).of(surface);
  const formats = await loadFormats();
  const input = prepareInput(
    {
      defsKeyword: surface.defsKeyword,
      definitions: surface.definitions,
      file: surface.schemaFile.display,
    },
    diagnostics,
  );
  /** @type {Record<string, unknown>} */
  const defs = {};
  for (const def of surface.definitions)
    defs[def.key] = prepareDefinition("validators", input, def.key, def.schema);

  const exchange = loadExchange();
  const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
  const schema = JSON.parse(readFileSync(join(SDK_SCHEMA_DIR, "v1", "schema.json"), "utf8"));
  const { METHODS } = await import(pathToFileURL(join(pkg, "v1", "index.js")).href);
  const { items } = buildItems({
    methods: METHODS,
    schema,
    messages: [...exchange, ...largeMessages(sessionId)],
  });
  const corpus = [...items, ...invalidItems(items, schema)];

  return {
    /** The generator's own v1/validators.js, which one variant should reproduce. */
    generated,
    corpus,
    /**
     * v1/validators.js compiled as the generator does, with these ajv options on top and these
     * rewrites of ajv's output (standaloneModule's default: all of them).
     * @param {Record<string, unknown>} ajvOptions
     * @param {unknown[]} [compactions]
     */
    compile(ajvOptions, compactions) {
      const ajv = createStandaloneAjv(formats, [], defs, ajvOptions);
      /** @type {Record<string, string>} */
      const exports = {};
      for (const def of names.definitions) exports[def.validator] = `${DEFINITION_ID}${def.key}`;
      for (const def of surface.definitions) {
        const schema = defs[def.key];
        const body =
          schema && typeof schema === "object" ? schema : schema === false ? { not: {} } : {};
        ajv.addSchema({ ...body, $id: `${DEFINITION_ID}${def.key}` });
      }
      const options = compactions === undefined ? {} : { compactions };
      return `${banner}${standaloneModule(ajv, exports, "../runtime", "validators.js", options)}`;
    },
    /**
     * Each variant in a copy of the package: its file, the client-app and whole-entry bundles,
     * and whether it gives the first variant's verdict and issues (path, keyword) on the corpus.
     * @param {{ label: string, content: string }[]} variants
     */
    async measure(variants) {
      /** @type {string | undefined} */
      let reference;
      /** @type {string[]} */
      const disagreements = [];
      /** @type {Row[]} */
      const rows = [];
      for (const [index, { label, content }] of variants.entries()) {
        const dir = join(tmp, `variant-${index}`);
        cpSync(source, dir, { recursive: true });
        writeFileSync(join(dir, "v1", "validators.js"), content);
        const validators = await import(pathToFileURL(join(dir, "v1", "validators.js")).href);
        const verdicts = JSON.stringify(
          corpus.map((item) => {
            const v = validators[`v${item.definition}`];
            if (!v) return null;
            return v(item.value)
              ? true
              : (v.errors ?? []).map(
                  (/** @type {{ instancePath: string, keyword: string }} */ e) => [
                    e.instancePath,
                    e.keyword,
                  ],
                );
          }),
        );
        if (reference === undefined) reference = verdicts;
        else if (verdicts !== reference) disagreements.push(label);
        const consumerDir = makeConsumerProject(join(tmp, `consumer-${index}`), dir);
        const client = await bundle(consumerDir, "client", BUNDLES.client.ours);
        const whole = await bundle(consumerDir, "whole", BUNDLES.wholeEntry.ours);
        rows.push({ label, content, dir, bytes: Buffer.byteLength(content), client, whole });
        log(`measured: ${label}`);
      }
      return { rows, disagreements };
    },
  };
}
