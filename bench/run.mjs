#!/usr/bin/env node
// `npm run bench`: acp-codegen against the official ACP TypeScript SDK, in one run.
//
// Every row of the table is a ratio of two figures measured in this run, on this machine, on
// the same inputs: a shared, noisy machine moves both figures, and the ratio is what holds up.
// Progress goes to stderr, the table to stdout, and everything (with per-message detail) to
// bench/results.json. Nothing here asserts a timing; targets are reported as met or missed.
//
//   node bench/run.mjs [--quick] [--keep]
//     --quick  fewer runs and shorter samples, for working on the benchmark itself
//     --keep   keep the scratch folder (generated packages, consumer project) and print its path
//
// One section alone: `node bench/lib/runtime.mjs`, `node bench/lib/remote.mjs [--write]` (the
// latter puts its rows into results.json in place of the previous run's).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  benchImports,
  benchTypeCheck,
  benchTypeCheckApi,
  COUNTS,
  countTypeCheck,
  makeConsumerProject,
  makeStrictConsumerProject,
} from "./lib/consumer.mjs";
import { benchGeneration } from "./lib/generation.mjs";
import { REPO, RESULTS, SDK_SCHEMA_DIR, sdkManifest, VENDORED_SCHEMA_DIR } from "./lib/paths.mjs";
import { runNode } from "./lib/proc.mjs";
import { benchRemote, remoteRows } from "./lib/remote.mjs";
import { benchRuntime, runtimeRows } from "./lib/runtime.mjs";
import { benchSessionLayer, sessionLayerRows } from "./lib/session-layer.mjs";
import { benchBundles, benchPackageSize } from "./lib/size.mjs";
import {
  formatBytes,
  formatMs,
  formatNs,
  formatRatio,
  geomean,
  max,
  median,
  min,
  round,
} from "./lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
// Sized so a quiet 2-core machine finishes in about three minutes; `generationBudgetMs` caps the
// slowest section when the machine is busy (see generation.mjs).
const SETTINGS = args.quick
  ? {
      generationRuns: 1,
      generationBudgetMs: 0,
      importRuns: 3,
      tscRuns: 1,
      apiRounds: 3,
      targetMs: 1,
      rounds: 3,
    }
  : {
      generationRuns: 3,
      generationBudgetMs: 90_000,
      importRuns: 15,
      tscRuns: 5,
      apiRounds: 15,
      targetMs: 4,
      rounds: 9,
    };

const started = process.hrtime.bigint();
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
const tmp = mkdtempSync(join(tmpdir(), "acp-bench-"));
const THROUGHPUT = fileURLToPath(new URL("./lib/throughput.mjs", import.meta.url));
const COLD = fileURLToPath(new URL("./lib/cold.mjs", import.meta.url));

/** CPU time of validating the recorded session once, cold, per side: medians of fresh processes. */
/**
 * @param {string} pkg
 * @param {string} schemaFile
 * @param {number} runs
 */
function coldSession(pkg, schemaFile, runs) {
  /** @type {{ ours: number[], sdk: number[], json: number[] }} */
  const samples = { ours: [], sdk: [], json: [] };
  let messages = 0;
  for (let i = 0; i < runs; i++) {
    /** @type {("ours" | "sdk" | "json")[]} */
    const order = i % 2 ? ["sdk", "json", "ours"] : ["ours", "sdk", "json"];
    for (const side of order) {
      const r = runNode([COLD, "--side", side, "--pkg", pkg, "--schema", schemaFile], {
        cwd: REPO,
      });
      if (r.status !== 0) throw new Error(`cold session (${side}) failed:\n${r.stderr}`);
      const out = JSON.parse(r.stdout);
      messages = out.messages;
      samples[side].push(out.cpuMs);
    }
  }
  return {
    messages,
    oursMs: median(samples.ours),
    sdkMs: median(samples.sdk),
    jsonParseMs: median(samples.json),
    samples,
  };
}

/**
 * Validation and parse throughput of one package, in a child process of its own. `light` halves
 * the sampling for the secondary (vendored-schema) run.
 * @param {string} pkg
 * @param {string} schemaFile
 * @param {string} tag
 * @returns {import("./lib/throughput.mjs").ThroughputOutput}
 */
function throughput(pkg, schemaFile, tag, light = false) {
  const out = join(tmp, `throughput-${tag}.json`);
  const r = runNode(
    [
      THROUGHPUT,
      "--pkg",
      pkg,
      "--schema",
      schemaFile,
      "--out",
      out,
      "--target-ms",
      String(light ? Math.max(1, SETTINGS.targetMs / 2) : SETTINGS.targetMs),
      "--rounds",
      String(light ? Math.max(3, Math.ceil(SETTINGS.rounds / 2)) : SETTINGS.rounds),
    ],
    { cwd: REPO },
  );
  if (r.status !== 0) throw new Error(`throughput (${tag}) failed:\n${r.stderr}`);
  return JSON.parse(readFileSync(out, "utf8"));
}

/** @typedef {import("./lib/throughput.mjs").ThroughputRow} ThroughputRow */
/** @typedef {ThroughputRow & { parse: NonNullable<ThroughputRow["parse"]> }} ParsedRow */

/**
 * Aggregates of one throughput run: per-message ratios and whole-corpus totals.
 * @param {import("./lib/throughput.mjs").ThroughputOutput} t
 */
function summarise(t) {
  const valid = t.results.filter((r) => r.expect === "valid");
  const invalid = t.results.filter((r) => r.expect === "invalid");
  /**
   * @template R
   * @param {readonly R[]} rows
   * @param {(r: R) => number} a
   * @param {(r: R) => number} b
   */
  const ratios = (rows, a, b) => rows.map((r) => a(r) / b(r));
  /**
   * @template R
   * @param {readonly R[]} rows
   * @param {(r: R) => number} f
   */
  const sum = (rows, f) => rows.reduce((s, r) => s + f(r), 0);
  const stats = (/** @type {number[]} */ values) => ({
    median: median(values),
    geomean: geomean(values),
    min: min(values),
    max: max(values),
  });
  const parsed = valid.filter((r) => r.parse !== null).map((r) => /** @type {ParsedRow} */ (r));
  return {
    messages: valid.length,
    invalidMessages: invalid.length,
    vsSdk: stats(
      ratios(
        valid,
        (r) => r.validation.sdkNs,
        (r) => r.validation.oursNs,
      ),
    ),
    vsJsonParse: stats(
      ratios(
        valid,
        (r) => r.validation.jsonParseNs,
        (r) => r.validation.oursNs,
      ),
    ),
    medianNs: {
      ours: median(valid.map((r) => r.validation.oursNs)),
      sdk: median(valid.map((r) => r.validation.sdkNs)),
      jsonParse: median(valid.map((r) => r.validation.jsonParseNs)),
    },
    corpusNs: {
      ours: sum(valid, (r) => r.validation.oursNs),
      sdk: sum(valid, (r) => r.validation.sdkNs),
      jsonParse: sum(valid, (r) => r.validation.jsonParseNs),
    },
    rejectVsSdk: stats(
      ratios(
        invalid,
        (r) => r.validation.sdkNs,
        (r) => r.validation.oursNs,
      ),
    ),
    rejectMedianNs: {
      ours: median(invalid.map((r) => r.validation.oursNs)),
      sdk: median(invalid.map((r) => r.validation.sdkNs)),
    },
    parse: parsed.length
      ? {
          messages: parsed.length,
          vsSdk: stats(
            ratios(
              parsed,
              (r) => r.parse.sdkNs,
              (r) => r.parse.oursNs,
            ),
          ),
          medianNs: {
            ours: median(parsed.map((r) => r.parse.oursNs)),
            sdk: median(parsed.map((r) => r.parse.sdkNs)),
          },
        }
      : null,
    large: valid.filter((r) => r.large),
  };
}

/**
 * @typedef {{
 *   section: string, measure: string, reference: string, ours: string, ratio: number | null,
 *   target: number | null, met: boolean | null, note: string | undefined,
 * }} Row
 */
/** @type {Row[]} */
const rows = [];
/**
 * One table row. `ratio` is always "how many times better ours is" (SDK ÷ ours for times and
 * sizes), so every ratio reads the same way; `target` is the minimum ratio, if there is one.
 * @param {string} section
 * @param {string} measure
 * @param {string} reference
 * @param {string} ours
 * @param {number} ratio
 * @param {number} [target]
 * @param {string} [note]
 */
function row(section, measure, reference, ours, ratio, target, note) {
  const met = target === undefined || !Number.isFinite(ratio) ? null : ratio >= target;
  rows.push({
    section,
    measure,
    reference,
    ours,
    ratio: round(ratio),
    target: target === undefined ? null : round(target),
    met,
    note,
  });
}

try {
  log(`scratch folder: ${tmp}`);
  log("generation (acp-codegen generate / check, build)…");
  const generation = benchGeneration({
    tmp,
    runs: SETTINGS.generationRuns,
    budgetMs: SETTINGS.generationBudgetMs,
    log,
  });
  const pkgSdkSchema = generation.packages.sdkSchema;
  const pkgVendored = generation.packages.vendored;

  log("validation and parse throughput (SDK 2.4.0 schema)…");
  const tSdk = throughput(pkgSdkSchema, join(SDK_SCHEMA_DIR, "v1", "schema.json"), "sdk-schema");
  log("validation and parse throughput (vendored schema)…");
  const tVendored = throughput(
    pkgVendored,
    join(VENDORED_SCHEMA_DIR, "v1", "schema.json"),
    "vendored",
    true,
  );
  log("one recorded session, cold…");
  const cold = coldSession(
    pkgSdkSchema,
    join(SDK_SCHEMA_DIR, "v1", "schema.json"),
    SETTINGS.importRuns,
  );
  const sSdk = summarise(tSdk);
  const sVendored = summarise(tVendored);

  log("consumer cost (cold import, tsc)…");
  const consumerDir = makeConsumerProject(tmp, pkgSdkSchema);
  const imports = benchImports({ ourPkg: pkgSdkSchema, runs: SETTINGS.importRuns, log });
  const typeCheck = benchTypeCheck({ consumerDir, runs: SETTINGS.tscRuns, log });
  const typeCheckApi = benchTypeCheckApi({ consumerDir, rounds: SETTINGS.apiRounds, log });
  const strictDir = makeStrictConsumerProject(tmp, pkgSdkSchema);
  const typeCheckCounts = countTypeCheck({ consumerDir: strictDir, log });

  log("size (npm pack, esbuild)…");
  const size = benchPackageSize({ ourPkg: pkgSdkSchema });
  const sizeVendored = benchPackageSize({ ourPkg: pkgVendored }).ours;
  const bundles = await benchBundles({ consumerDir });

  log("connection runtime over real pipes (ours, the SDK, the raw floor)…");
  const runtime = benchRuntime({ pkg: pkgSdkSchema, quick: args.quick, log });
  log("session layer (ours through conn.session(), against the connection alone)…");
  const sessionLayer = benchSessionLayer({ pkg: pkgSdkSchema, quick: args.quick, log });

  log("remote transport (HTTP and WebSocket; ours, the SDK's)…");
  const remote = await benchRemote({ pkg: pkgSdkSchema, quick: args.quick, log });

  // ---- validation
  const V = "validation (v1 stable, SDK 2.4.0 schema)";
  row(
    V,
    `is<Name> vs zod safeParse, median of per-message ratios (${sSdk.messages} messages)`,
    `SDK ${formatNs(sSdk.medianNs.sdk)}/msg`,
    `${formatNs(sSdk.medianNs.ours)}/msg`,
    sSdk.vsSdk.median,
    10,
    `per-message ratio min ${formatRatio(sSdk.vsSdk.min)}, geomean ${formatRatio(sSdk.vsSdk.geomean)}, max ${formatRatio(sSdk.vsSdk.max)}`,
  );
  row(
    V,
    "is<Name> vs zod safeParse, whole corpus once",
    `SDK ${formatNs(sSdk.corpusNs.sdk)}`,
    formatNs(sSdk.corpusNs.ours),
    sSdk.corpusNs.sdk / sSdk.corpusNs.ours,
  );
  row(
    V,
    "is<Name> vs JSON.parse of the same bytes, median of per-message ratios",
    `JSON.parse ${formatNs(sSdk.medianNs.jsonParse)}/msg`,
    `${formatNs(sSdk.medianNs.ours)}/msg`,
    sSdk.vsJsonParse.median,
    1,
    `per-message ratio min ${formatRatio(sSdk.vsJsonParse.min)}; SDK vs JSON.parse ${formatRatio(sSdk.corpusNs.jsonParse / sSdk.corpusNs.sdk)} (corpus)`,
  );
  row(
    V,
    "is<Name> vs JSON.parse of the same bytes, whole corpus once",
    `JSON.parse ${formatNs(sSdk.corpusNs.jsonParse)}`,
    formatNs(sSdk.corpusNs.ours),
    sSdk.corpusNs.jsonParse / sSdk.corpusNs.ours,
    1,
  );
  for (const large of sSdk.large) {
    row(
      V,
      `large: ${large.label}, ${formatBytes(large.bytes)}`,
      `SDK ${formatNs(large.validation.sdkNs)}, JSON.parse ${formatNs(large.validation.jsonParseNs)}`,
      formatNs(large.validation.oursNs),
      large.validation.sdkNs / large.validation.oursNs,
      undefined,
      `vs JSON.parse ${formatRatio(large.validation.jsonParseNs / large.validation.oursNs)}`,
    );
  }
  row(
    V,
    `one recorded session, cold: each of ${cold.messages} messages once in a fresh process (CPU)`,
    `SDK ${formatMs(cold.sdkMs)}, JSON.parse ${formatMs(cold.jsonParseMs)}`,
    formatMs(cold.oursMs),
    cold.sdkMs / cold.oursMs,
    undefined,
    `vs JSON.parse ${formatRatio(cold.jsonParseMs / cold.oursMs)}; before V8 optimises the validators`,
  );
  row(
    V,
    `rejecting invalid messages, median of per-message ratios (${sSdk.invalidMessages} messages)`,
    `SDK ${formatNs(sSdk.rejectMedianNs.sdk)}/msg`,
    `${formatNs(sSdk.rejectMedianNs.ours)}/msg`,
    sSdk.rejectVsSdk.median,
  );
  row(
    V,
    "disagreements between is<Name> and zod (listed below, not timed)",
    `${tSdk.disagreements.length}`,
    "",
    Number.NaN,
    undefined,
    tSdk.disagreements.length ? "see the list after the table" : "none",
  );
  row(
    "validation (v1 stable, vendored schema)",
    `is<Name> vs zod safeParse, median of per-message ratios (${sVendored.messages} messages)`,
    `SDK ${formatNs(sVendored.medianNs.sdk)}/msg`,
    `${formatNs(sVendored.medianNs.ours)}/msg`,
    sVendored.vsSdk.median,
    10,
    `schemas differ: ${tVendored.coverage.unmapped.length} corpus items not in the vendored schema, ${tVendored.disagreements.length} disagreements`,
  );

  // ---- lenient parse
  const P = "lenient parse (v1 stable, SDK 2.4.0 schema)";
  if (sSdk.parse) {
    row(
      P,
      `parse<Name> vs the SDK's zod parse, median of per-message ratios (${sSdk.parse.messages} messages)`,
      `SDK ${formatNs(sSdk.parse.medianNs.sdk)}/msg`,
      `${formatNs(sSdk.parse.medianNs.ours)}/msg`,
      sSdk.parse.vsSdk.median,
      5,
      `per-message ratio min ${formatRatio(sSdk.parse.vsSdk.min)}, max ${formatRatio(sSdk.parse.vsSdk.max)}`,
    );
  } else {
    row(P, "parse<Name> vs the SDK's zod parse", "", "n/a (parse not generated)", Number.NaN, 5);
  }

  // ---- generation
  // Judged on wall time, which is what the targets mean (what a user or CI waits for). CPU time
  // is shown beside it: it is what the run costs regardless of other load on a shared machine,
  // and it can exceed wall time on a quiet one, because V8 garbage-collects and compiles on
  // background threads. A wall figure far above the CPU figure means the machine was busy.
  const G = "generation (vendored schema, 4 surfaces; wall time, CPU in the note)";
  /** @typedef {{ wallMs: number[], cpuMs: (number | null)[] }} Timed */
  const wall = (/** @type {Timed} */ m) => median(m.wallMs);
  // CPU time is null off Linux: n/a then.
  const cpu = (/** @type {Timed} */ m) => median(m.cpuMs.map((v) => v ?? Number.NaN));
  const rss = (/** @type {{ peakRssMb: (number | null)[] }} */ m) =>
    max(m.peakRssMb.map((v) => v ?? Number.NaN));
  const gen = wall(generation.generate);
  const chk = wall(generation.check);
  const bld = wall(generation.build);
  const genRss = rss(generation.generate);
  const checkDrifted = generation.checkDrifted ?? { wallMs: [], cpuMs: [], peakRssMb: [] };
  row(
    G,
    "acp-codegen generate, time",
    "budget 5 s",
    formatMs(gen),
    5000 / gen,
    1,
    `CPU ${formatMs(cpu(generation.generate))}; median of ${generation.generate.wallMs.length} run(s); the SDK has no generator to compare`,
  );
  row(
    G,
    "acp-codegen generate, peak RSS",
    "budget 300 MB",
    `${genRss.toFixed(0)} MB`,
    300 / genRss,
    1,
  );
  row(
    G,
    "acp-codegen check (clean package) vs (generate + build)",
    `generate + build ${formatMs(gen + bld)}`,
    `${formatMs(chk)}, ${rss(generation.check).toFixed(0)} MB`,
    (gen + bld) / chk,
    3,
    [
      `CPU: check ${formatMs(cpu(generation.check))}, generate + build ${formatMs(cpu(generation.generate) + cpu(generation.build))}`,
      generation.check.drifted
        ? `${generation.check.drifted} run(s) hit drift: the generator changed during the run`
        : "",
    ]
      .filter(Boolean)
      .join("; "),
  );
  row(
    G,
    "acp-codegen check, one generated file edited (drift, exit 1)",
    "",
    `${formatMs(wall(checkDrifted))}, ${rss(checkDrifted).toFixed(0)} MB`,
    Number.NaN,
    undefined,
    `CPU ${formatMs(cpu(checkDrifted))}; renders the package again to explain the drift`,
  );
  row(
    G,
    "npm run build (both tsc projects)",
    "",
    formatMs(bld),
    Number.NaN,
    undefined,
    [`CPU ${formatMs(cpu(generation.build))}`, ...generation.build.failures].join("; "),
  );
  row(
    G,
    "generate from the SDK 2.4.0 schema",
    "",
    `${formatMs(wall(generation.generateSdkSchema))}, ${rss(generation.generateSdkSchema).toFixed(0)} MB`,
    Number.NaN,
    undefined,
    `CPU ${formatMs(cpu(generation.generateSdkSchema))}`,
  );

  // ---- consumer
  const C = "consumer cost (SDK 2.4.0 schema package)";
  for (const imp of imports) {
    row(
      C,
      `cold import (CPU), ${imp.entry} (${imp.ours.export})`,
      `SDK ${formatMs(imp.sdk.cpuMs)}`,
      formatMs(imp.ours.cpuMs),
      imp.sdk.cpuMs / imp.ours.cpuMs,
      3,
      `wall: SDK ${formatMs(imp.sdk.wallMs)}, ours ${formatMs(imp.ours.wallMs)}`,
    );
  }
  for (const tc of typeCheck) {
    const oursShare = tc.oursMs - tc.baselineMs;
    const sdkShare = tc.sdkMs - tc.baselineMs;
    // CPU time of a process tree is accounted in 10 ms ticks; shares of a few ticks are noise.
    const resolved = Math.max(oursShare, sdkShare) >= 50;
    const lines = (/** @type {"ours" | "sdk"} */ side) =>
      (tc.counts[side]?.lines ?? Number.NaN) - (tc.counts.baseline?.lines ?? Number.NaN);
    const errors = Object.keys(tc.errors).length
      ? `ERRORS in ${Object.keys(tc.errors).join(", ")}`
      : "";
    // What a consumer waits for: the whole check of a strict project that uses the package,
    // at or under the SDK's (the weight contract, docs/performance.md).
    row(
      C,
      `tsc --noEmit (CPU), ${tc.compiler}, strict consumer: check time, whole project (median of ${SETTINGS.tscRuns})`,
      `SDK ${formatMs(tc.sdkMs)}`,
      formatMs(tc.oursMs),
      tc.sdkMs / tc.oursMs,
      1,
      [`baseline (no package) ${formatMs(tc.baselineMs)}`, errors].filter(Boolean).join("; "),
    );
    const memory = (/** @type {"baseline" | "ours" | "sdk"} */ side) =>
      tc.counts[side]?.memoryKb ?? Number.NaN;
    row(
      C,
      `tsc --extendedDiagnostics, ${tc.compiler}, strict consumer: memory used, whole project`,
      `SDK ${formatBytes(memory("sdk") * 1000)}`,
      formatBytes(memory("ours") * 1000),
      memory("sdk") / memory("ours"),
      1,
      `baseline (no package) ${formatBytes(memory("baseline") * 1000)}`,
    );
    row(
      C,
      `tsc --noEmit (CPU), ${tc.compiler}: the package's share (consumer − empty baseline)`,
      `SDK ${formatMs(sdkShare)}`,
      formatMs(oursShare),
      resolved ? sdkShare / oursShare : Number.NaN,
      undefined,
      [
        resolved ? "" : "n/a: both shares are within a few 10 ms CPU ticks",
        `totals: baseline ${formatMs(tc.baselineMs)}, ours ${formatMs(tc.oursMs)}, SDK ${formatMs(tc.sdkMs)}`,
        `declaration lines read: ours +${lines("ours")}, SDK +${lines("sdk")} (${formatRatio(lines("sdk") / lines("ours"))})`,
        errors,
      ]
        .filter(Boolean)
        .join("; "),
    );
  }

  {
    const base = typeCheckApi.ms.baseline;
    const oursShare = typeCheckApi.ms.ours - base;
    const sdkShare = typeCheckApi.ms.sdk - base;
    row(
      C,
      `TypeScript ${typeCheckApi.version} API, warm compiler, standard library cached (CPU): the package's share`,
      `SDK ${formatMs(sdkShare)}`,
      formatMs(oursShare),
      sdkShare / oursShare,
      undefined,
      [
        `totals: baseline ${formatMs(base)}, ours ${formatMs(typeCheckApi.ms.ours)}, SDK ${formatMs(typeCheckApi.ms.sdk)}; median of ${SETTINGS.apiRounds} rounds`,
        Object.keys(typeCheckApi.errors).length
          ? `ERRORS in ${Object.keys(typeCheckApi.errors).join(", ")}`
          : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  }

  // The counts are the compiler's own, deterministic: no noise, and a share that reads exactly.
  // Identifiers, symbols and types mostly count the contract (every definition's is/validate/
  // assert/parse), so they are reported, not targets; instantiations are the work the checker
  // does on the package's generics: the package's share at most half the SDK's.
  for (const tc of typeCheckCounts) {
    for (const count of COUNTS) {
      const ours = tc.ours[count];
      const sdk = tc.sdk[count];
      row(
        C,
        `tsc --extendedDiagnostics, ${tc.compiler}, strict consumer (skipLibCheck: false): ${count.toLowerCase()}, the package's share`,
        `SDK ${sdk.toLocaleString("en-US")}`,
        ours.toLocaleString("en-US"),
        sdk / ours,
        count === "Instantiations" ? 2 : undefined,
        [
          `totals: baseline ${tc.totals.baseline?.[count].toLocaleString("en-US")}, ours ${tc.totals.ours?.[count].toLocaleString("en-US")}, SDK ${tc.totals.sdk?.[count].toLocaleString("en-US")}`,
          Object.keys(tc.errors).length ? `ERRORS in ${Object.keys(tc.errors).join(", ")}` : "",
        ]
          .filter(Boolean)
          .join("; "),
      );
    }
  }

  // ---- size
  const S = "size";
  row(
    S,
    "npm package, packed (SDK 2.4.0 schema package)",
    `SDK ${formatBytes(size.sdk.packed)}`,
    formatBytes(size.ours.packed),
    size.sdk.packed / size.ours.packed,
    2, // at most half the SDK's
    `vendored-schema package ${formatBytes(sizeVendored.packed)}`,
  );
  row(
    S,
    "npm package, unpacked",
    `SDK ${formatBytes(size.sdk.unpacked)}`,
    formatBytes(size.ours.unpacked),
    size.sdk.unpacked / size.ours.unpacked,
    undefined,
    `files: SDK ${size.sdk.files}, ours ${size.ours.files}; vendored-schema package ${formatBytes(sizeVendored.unpacked)}`,
  );
  // Targets as ratios (SDK ÷ ours): the client app at most 2× the SDK's minified and 1.15× gzip,
  // the whole stable entry at most 1.3× gzip.
  /** @type {[keyof typeof bundles, string, number | undefined, number | undefined][]} */
  const bundleRows = [
    [
      "client",
      "client app (ClientSideConnection over ndJsonStream; the SDK's client())",
      1 / 2,
      1 / 1.15,
    ],
    ["wholeEntry", "everything from the stable entry point", undefined, 1 / 1.3],
    [
      "oneValidator",
      "one validator (isSessionNotification vs zSessionNotification)",
      undefined,
      undefined,
    ],
  ];
  for (const [key, what, minifiedTarget, gzipTarget] of bundleRows) {
    const { ours, sdk } = bundles[key];
    row(
      S,
      `minified bundle, ${what}`,
      `SDK ${formatBytes(sdk.bytes)}`,
      formatBytes(ours.bytes),
      sdk.bytes / ours.bytes,
      minifiedTarget,
    );
    row(
      S,
      `gzip of that bundle, ${what.replace(/ \(.*\)$/, "")}`,
      `SDK ${formatBytes(sdk.gzip)}`,
      formatBytes(ours.gzip),
      sdk.gzip / ours.gzip,
      gzipTarget,
    );
  }

  for (const r of runtimeRows(runtime)) row(...r);
  for (const r of remoteRows(remote)) row(...r);
  for (const r of sessionLayerRows(sessionLayer)) row(...r);

  // ---- output
  const table = renderTable(rows);
  process.stdout.write(`${table}\n`);
  const problems = [
    ...tSdk.coverage.missing.map((m) => `corpus does not cover ${m} (SDK 2.4.0 schema)`),
    ...tSdk.coverage.unmapped.map((m) => `corpus item not in the SDK 2.4.0 schema: ${m}`),
    ...tSdk.disagreements.map(
      (d) =>
        `disagreement on ${d.label}: expected ${d.expected}, ours ${d.ours} [${d.oursIssues.join("; ")}], SDK ${d.sdk} [${d.sdkIssues.join("; ")}]`,
    ),
    ...tSdk.skipped.map((s) => `skipped ${s.label}: ${s.reason}`),
  ];
  if (problems.length) process.stdout.write(`\n${problems.map((p) => `- ${p}`).join("\n")}\n`);
  const vendoredNotes = [
    ...tVendored.coverage.missing.map((m) => `corpus does not cover ${m} (vendored schema)`),
    ...tVendored.coverage.unmapped.map((m) => `not in the vendored schema: ${m}`),
    ...tVendored.disagreements.map(
      (d) =>
        `vendored-schema disagreement on ${d.label}: ours ${d.ours} [${d.oursIssues.join("; ")}], SDK ${d.sdk}`,
    ),
  ];
  if (vendoredNotes.length)
    process.stdout.write(`\n${vendoredNotes.map((p) => `- ${p}`).join("\n")}\n`);

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const results = {
    about:
      "acp-codegen vs @agentclientprotocol/sdk, measured by `npm run bench` (bench/run.mjs). Ratios are 'times better than the reference' (reference ÷ ours); target is the minimum ratio.",
    environment: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      sdk: sdkManifest().version,
      quick: args.quick,
      settings: SETTINGS,
      seconds: round(seconds),
    },
    table: rows,
    problems,
    vendoredNotes,
    details: {
      validation: { sdkSchema: sSdk, vendored: sVendored, coldSession: cold },
      perMessage: {
        sdkSchema: tSdk.results.map(compactResult),
        vendored: tVendored.results.map(compactResult),
      },
      disagreements: { sdkSchema: tSdk.disagreements, vendored: tVendored.disagreements },
      coverage: { sdkSchema: tSdk.coverage, vendored: tVendored.coverage },
      parseExported: { sdkSchema: tSdk.parseExported, vendored: tVendored.parseExported },
      generation: {
        generate: generation.generate,
        check: generation.check,
        checkDrifted: generation.checkDrifted,
        build: generation.build,
        generateSdkSchema: generation.generateSdkSchema,
      },
      imports,
      typeCheck: typeCheck.map(({ samples, ...rest }) => rest),
      typeCheckApi,
      typeCheckCounts,
      size: { ...size, vendored: sizeVendored, bundles },
      runtime,
      remote,
      sessionLayer,
    },
  };
  writeFileSync(RESULTS, `${JSON.stringify(roundDeep(results), null, 2)}\n`);
  formatLikeTheRepository(RESULTS);
  log(`wrote ${RESULTS} in ${seconds.toFixed(0)} s`);
  // The corpus is recorded with the SDK whose schema it is measured against: a stable method or
  // update kind it lacks means a row measures less than it claims, so the run fails (after
  // writing everything) until the corpus is re-recorded.
  if (tSdk.coverage.missing.length) {
    log(
      `corpus coverage incomplete: ${tSdk.coverage.missing.join(", ")} (re-record: node bench/record.mjs)`,
    );
    process.exitCode = 1;
  }
} finally {
  if (args.keep) log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}

/**
 * results.json is committed, and `npm run lint` runs Biome over the repository; JSON.stringify's
 * layout is not Biome's (it puts short arrays on one line), so the file is passed through the
 * repository's own formatter rather than left to fail the lint after every benchmark run.
 * @param {string} file
 */
function formatLikeTheRepository(file) {
  const biome = join(REPO, "node_modules", "@biomejs", "biome", "bin", "biome");
  const r = runNode([biome, "format", "--write", file], { cwd: REPO });
  if (r.status !== 0) log(`note: could not format ${file} with Biome: ${r.stderr.trim()}`);
}

/** @param {ThroughputRow} r */
function compactResult(r) {
  return {
    label: r.label,
    definition: r.definition,
    bytes: r.bytes,
    expect: r.expect,
    oursNs: r.validation.oursNs,
    sdkNs: r.validation.sdkNs,
    jsonParseNs: r.validation.jsonParseNs,
    vsSdk: r.validation.sdkNs / r.validation.oursNs,
    vsJsonParse: r.validation.jsonParseNs / r.validation.oursNs,
    parse: r.parse,
  };
}

/**
 * Rounds every number in the results to a few significant digits (diffs stay readable).
 * @param {unknown} value
 * @returns {unknown}
 */
function roundDeep(value) {
  if (typeof value === "number") return round(value, 4);
  if (Array.isArray(value)) return value.map(roundDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)]));
  }
  return value;
}

/** @param {readonly Row[]} list */
function renderTable(list) {
  const header = ["measure", "reference", "ours", "ratio", "target", "met", "note"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  let section = "";
  for (const r of list) {
    if (r.section !== section) {
      section = r.section;
      lines.push(`| **${section}** | | | | | | |`);
    }
    const cells = [
      r.measure,
      r.reference,
      r.ours,
      r.ratio === null ? "" : formatRatio(r.ratio),
      r.target === null ? "" : `≥ ${r.target}×`,
      r.met === null ? "" : r.met ? "yes" : "**no**",
      r.note ?? "",
    ];
    lines.push(`| ${cells.map((c) => String(c).replaceAll("|", "\\|")).join(" | ")} |`);
  }
  return lines.join("\n");
}
