// Child process: validation and lenient-parse throughput of one generated package against the
// official SDK's zod schemas, on the same values, in this one process.
//
//   node bench/lib/throughput.mjs --pkg DIR --schema FILE --out FILE [--target-ms N] [--rounds N]
//
// Run in its own process (by bench/run.mjs) so that what the orchestrator did before (spawning
// generators, bundling) leaves no garbage, JIT state or heap growth behind that one side of the
// comparison would pay for.

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildItems, invalidItems, largeMessages, loadExchange } from "./corpus.mjs";
import { exportFile, required, sdkZodFile } from "./paths.mjs";
import { compare, sinkValue } from "./sampler.mjs";

/**
 * What this script writes to --out: per value, the timings of both sides.
 * @typedef {{
 *   label: string, definition: string, method: string, part: string, large: boolean,
 *   expect: string, bytes: number,
 *   validation: { oursNs: number, sdkNs: number, jsonParseNs: number },
 *   parse: { oursNs: number, sdkNs: number } | null,
 * }} ThroughputRow
 * @typedef {{
 *   label: string, definition: string, expected: string, ours: string, sdk: string,
 *   oursIssues: string[], sdkIssues: string[],
 * }} Disagreement
 * @typedef {{
 *   coverage: ReturnType<typeof buildItems>["coverage"], parseExported: boolean,
 *   results: ThroughputRow[], disagreements: Disagreement[],
 *   skipped: { label: string, reason: string }[], sink: number,
 * }} ThroughputOutput
 */

const { values: args } = parseArgs({
  options: {
    pkg: { type: "string" },
    schema: { type: "string" },
    out: { type: "string" },
    "target-ms": { type: "string", default: "4" },
    rounds: { type: "string", default: "9" },
  },
});
const timing = { targetMs: Number(args["target-ms"]), rounds: Number(args.rounds) };

/** @type {Record<string, any>} */
const ours = await import(pathToFileURL(exportFile(required(args.pkg, "pkg"), ".")).href);
/** @type {Record<string, any>} */
const zod = await import(pathToFileURL(sdkZodFile()).href);
const schema = JSON.parse(readFileSync(required(args.schema, "schema"), "utf8"));

const exchange = loadExchange();
const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
const { items, coverage } = buildItems({
  methods: ours.METHODS,
  schema,
  messages: [...exchange, ...largeMessages(sessionId)],
});
const invalid = invalidItems(items, schema);

/**
 * A short, stable description of why a validator rejected a value, for the report.
 * @param {string} definition
 * @param {unknown} value
 * @returns {string[]}
 */
function ourIssues(definition, value) {
  const result = ours[`validate${definition}`]?.(value);
  return result && !result.valid
    ? result.issues
        .slice(0, 3)
        .map(
          (/** @type {{ instancePath: string, message: string }} */ i) =>
            `${i.instancePath || "/"} ${i.message}`,
        )
    : [];
}
/**
 * @param {any} schemaZ a zod schema
 * @param {unknown} value
 * @returns {string[]}
 */
function zodIssues(schemaZ, value) {
  const result = schemaZ.safeParse(value);
  return result.success
    ? []
    : result.error.issues
        .slice(0, 3)
        .map(
          (/** @type {{ path: unknown[], message: string }} */ i) =>
            `/${i.path.join("/")} ${i.message}`,
        );
}

/** @type {ThroughputRow[]} */
const results = [];
/** @type {Disagreement[]} */
const disagreements = [];
/** @type {{ label: string, reason: string }[]} */
const skipped = [];
for (const item of [...items, ...invalid]) {
  const is = ours[`is${item.definition}`];
  const parse = ours[`parse${item.definition}`];
  const z = zod[`z${item.definition}`];
  if (typeof is !== "function" || !z) {
    skipped.push({
      label: item.label,
      reason: typeof is !== "function" ? `no is${item.definition}` : `no z${item.definition}`,
    });
    continue;
  }
  const value = item.value;
  const json = item.json;
  const oursValid = is(value) === true;
  const sdkValid = z.safeParse(value).success;
  const expected = item.expect === "valid";
  if (oursValid !== sdkValid || oursValid !== expected) {
    disagreements.push({
      label: item.label,
      definition: item.definition,
      expected: item.expect,
      ours: oursValid ? "valid" : "invalid",
      sdk: sdkValid ? "valid" : "invalid",
      oursIssues: ourIssues(item.definition, value),
      sdkIssues: zodIssues(z, value),
    });
    continue;
  }

  const validation = compare(
    [
      { name: "ours", fn: () => is(value) },
      { name: "sdk", fn: () => z.safeParse(value).success },
      { name: "jsonParse", fn: () => JSON.parse(json) },
    ],
    timing,
  );
  // Lenient parsing: the SDK's connection runs `schema.parse(params)` on every incoming request
  // and notification (its zod schemas carry the lenient rules), so that is the call compared
  // with parse<Name>.
  // parse<Name> is picked up as soon as the generator emits it; its exact return shape does not
  // matter here, only that the call completes (a throw counts as a completed rejection).
  let parsing = null;
  if (typeof parse === "function" && expected) {
    parsing = compare(
      [
        { name: "ours", fn: () => tryCall(parse, value) },
        { name: "sdk", fn: () => tryCall((/** @type {unknown} */ v) => z.parse(v), value) },
      ],
      timing,
    );
  }
  results.push({
    label: item.label,
    definition: item.definition,
    method: item.method,
    part: item.part,
    large: item.large,
    expect: item.expect,
    bytes: Buffer.byteLength(json),
    validation: {
      oursNs: validation.ours.nsPerOp,
      sdkNs: validation.sdk.nsPerOp,
      jsonParseNs: validation.jsonParse.nsPerOp,
    },
    parse: parsing ? { oursNs: parsing.ours.nsPerOp, sdkNs: parsing.sdk.nsPerOp } : null,
  });
}

/**
 * @param {(value: unknown) => unknown} fn
 * @param {unknown} value
 */
function tryCall(fn, value) {
  try {
    return fn(value) ?? true;
  } catch {
    return false;
  }
}

const parseExported = Object.keys(ours).some((k) => /^parse[A-Z]/.test(k));
writeFileSync(
  required(args.out, "out"),
  JSON.stringify({ coverage, parseExported, results, disagreements, skipped, sink: sinkValue() }),
);
