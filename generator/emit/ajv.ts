import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { _, type Options } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { ANNOTATION_FORMATS, type NumberFormat, needsEvaluation } from "../analysis/ajv-facts.js";
import { RUNTIME_DIR } from "../paths.js";
import type { Json } from "../schema/json.js";
import { ACP_KEYWORDS } from "../schema/keywords.js";
import { runtimeSpecifier } from "../symbols/exports.js";
import { COMPACTIONS, type Compaction, importValidators } from "./ajv-output.js";

const Ajv2020 = Ajv2020Module.default;
const standaloneCode = standaloneCodeModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/** The numeric formats, loaded from the compiled runtime module that ships in the package. */
export async function loadFormats(): Promise<Record<string, NumberFormat>> {
  const mod = (await import(pathToFileURL(join(RUNTIME_DIR, "formats.js")).href)) as {
    formats: Record<string, NumberFormat>;
  };
  return mod.formats;
}

/**
 * The one ajv configuration: strict mode kept on, with the ACP vocabulary and every
 * format declared instead of strictness switched off. Tests that compile the raw schema
 * at run time use this same factory, so the generated validators and the reference agree
 * by construction on everything but the code path.
 */
export function createAjv(
  formats: Record<string, NumberFormat>,
  extraFormats: Iterable<string>,
  options: Options = {},
): Ajv {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    discriminator: true,
    allErrors: false,
    // A referenced definition is called, not copied into each validator that refers to it,
    // unless it is a single keyword (`{type: "string"}`), whose inline check is smaller than
    // the call and its error handling. Copying every small definition (ajv's default) made
    // v1's validators.js 20% bigger and no faster since calls take the path as an argument;
    // calling even single keywords is 5% slower (bench/experiments/inline-refs.mjs).
    inlineRefs: 2,
    // `required: ["toString"]` must not be satisfied by Object.prototype.
    ownProperties: true,
    // A message string in every error object is most of a validator's size; the runtime
    // builds the message from its keyword and params (templates/runtime/validation.ts).
    messages: false,
    ...options,
  });
  for (const keyword of ACP_KEYWORDS) if (keyword !== "discriminator") ajv.addKeyword(keyword);
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  for (const name of [...ANNOTATION_FORMATS, ...extraFormats])
    if (!Object.hasOwn(formats, name)) ajv.addFormat(name, true);
  return ajv;
}

/**
 * The ajv that writes a module of standalone code for `schemas` (as they will be added:
 * prepared), configured as `createAjv` does, with ESM output of one statement per line (so
 * a drift diff is reviewable and ajv-output.ts can rewrite it) and the numeric formats read
 * from the runtime. Ajv2020 switches the bookkeeping of `unevaluated*` and `$dynamicRef` on
 * unconditionally: when no schema uses either, it is switched off again, because in every
 * function it would be dead code (evaluated-property maps, a `dynamicAnchors` argument) that
 * also keeps the calls between validators from taking the compact form (ajv-output.ts).
 * Every module of validators is compiled through here, so they all decide it the same way.
 */
export function createStandaloneAjv(
  formats: Record<string, NumberFormat>,
  extraFormats: Iterable<string>,
  schemas: Json,
  options: Options = {},
): Ajv {
  const ajv = createAjv(formats, extraFormats, {
    ...options,
    code: { source: true, esm: true, lines: true, formats: _`__formats`, ...options.code },
  });
  if (!needsEvaluation(schemas)) {
    ajv.opts.unevaluated = false;
    ajv.opts.dynamicRef = false;
  }
  return ajv;
}

/**
 * ajv's standalone code `require`s the first two helpers, the package ships its own copies;
 * `issue` is what its error objects become, the others what its error-list statements become
 * (ajv-output.ts).
 */
const AJV_RUNTIME = [
  "ucs2length",
  "equal",
  "issue",
  "pushIssue",
  "concatIssues",
  "truncateIssues",
  "fail",
  "failType",
  "isObject",
];

/**
 * ES module source for `exports` (export name → schema id) compiled by `ajv`, with ajv's
 * `require()`s of its runtime helpers and the numeric formats rewired to the package's
 * own runtime, so the module is pure ESM with no dependency. Throws if the code needs a
 * helper the package does not ship; `what` names the module in that message. `imports`: the
 * validators compiled for these schemas are imported from another module instead
 * (ajv-output.ts); `compactions` are there for the experiment that measures each one.
 */
export function standaloneModule(
  ajv: Ajv,
  exports: Record<string, string>,
  runtimePath: string,
  what: string,
  {
    imports: shared,
    compactions = COMPACTIONS,
  }: {
    imports?: { from: string; validators: ReadonlyMap<string, string> };
    compactions?: readonly Compaction[];
  } = {},
): string {
  let code = standaloneCode(ajv, exports)
    .replace(/^"use strict";/, "")
    // ajv records each validator's evaluated properties in a top-level assignment
    // (`validate12.evaluated = {…};`). A bundler must keep such a statement, and with it the
    // validator and everything it references, so `sideEffects: false` could never drop an
    // unused validator. A module constant holds the same object without a side effect; only
    // validator bodies read it, after the module has loaded.
    .replace(/^(validate\d+)\.evaluated = (.*);$/gm, "const $1_evaluated = $2;")
    .replace(/\b(validate\d+)\.evaluated\b/g, "$1_evaluated")
    .replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/g, (match, name: string) =>
      AJV_RUNTIME.includes(name) ? `__${name}` : match,
    );
  if (shared) code = importValidators(code, shared.validators, shared.from);
  for (const compaction of compactions) code = compaction.apply(code);
  if (/\brequire\(/.test(code))
    throw new Error(`${what} needs an ajv runtime helper the generated package does not ship`);
  // Grouped by the file they come from: in JavaScript the runtime is one module.
  const used = new Map<string, string[]>();
  const use = (file: string, name: string) => {
    const from = runtimeSpecifier(runtimePath, file, false);
    used.set(from, [...(used.get(from) ?? []), `${name} as __${name}`]);
  };
  for (const n of AJV_RUNTIME) if (new RegExp(`\\b__${n}\\b`).test(code)) use("ajv-helpers.js", n);
  if (code.includes("__formats")) use("formats.js", "formats");
  const imports = [...used].map(
    ([from, names]) => `import { ${names.join(", ")} } from "${from}";`,
  );
  return `${imports.join("\n")}\n${code}\n`;
}
