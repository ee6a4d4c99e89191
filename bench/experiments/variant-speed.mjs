// For the experiments that compare variants of the generated package: validation speed of
// every variant and of the SDK's zod schemas, measured together.
//
// On a shared 2-core machine the benchmark's ratio to zod moves by ±15% from run to run, more
// than most changes to the validators are worth, so variants measured one after another
// cannot be told apart. Here one child process loads every variant's `is<Name>` and
// `z<Name>.safeParse`, and for each valid corpus message they all take turns in every round
// (bench/lib/sampler.mjs, the benchmark's own sampler and settings): the variants are compared
// on the same machine state. Reported per variant and run: the median over messages of
// zod ÷ variant (the benchmark's figure), of the first variant ÷ this one (the paired ratio,
// the figure to judge a change by), and the whole corpus's time as the first variant's ÷ this
// one's. Each run loads the variants in a rotated order, so none is always first. With
// `parsing`, the same for `parse<Name>` against zod's `parse` (the benchmark's lenient-parse row).
//
//   node bench/experiments/variant-speed.mjs --child DIR,DIR,… --out FILE [--parsing]  (the child)

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildItems, invalidItems, largeMessages, loadExchange } from "../lib/corpus.mjs";
import { exportFile, REPO, SDK_SCHEMA_DIR, sdkZodFile } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";
import { compare } from "../lib/sampler.mjs";
import { median } from "../lib/stats.mjs";

const SELF = join(REPO, "bench", "experiments", "variant-speed.mjs");

/** @typedef {{ vsZod: number[], vsFirst: number[], corpusVsFirst: number[] }} VariantSpeed */

/**
 * Speed of the packages in `dirs` (generated from the SDK 2.4.0 schema), `runs` children
 * one after another; one entry per package, each figure once per run. `rejecting`: timed on
 * the corpus's invalid variants (which every side must reject) instead of its messages.
 * `parsing`: `parse<Name>` timed against zod's `parse` (the benchmark's lenient-parse row)
 * instead of `is<Name>` against `safeParse`.
 * @param {string[]} dirs
 * @param {{ runs: number, tmp: string, rejecting?: boolean, parsing?: boolean, log?: (line: string) => void }} options
 * @returns {VariantSpeed[]}
 */
export function variantSpeed(dirs, { runs, tmp, rejecting = false, parsing = false, log }) {
  /** @type {VariantSpeed[]} */
  const speed = dirs.map(() => ({ vsZod: [], vsFirst: [], corpusVsFirst: [] }));
  for (let run = 0; run < runs; run++) {
    const out = join(tmp, `variant-speed-${run}.json`);
    const order = dirs.map((_d, i) => (i + run) % dirs.length);
    const child = ["--child", order.map((i) => dirs[i]).join(","), "--out", out];
    const flags = [...(rejecting ? ["--rejecting"] : []), ...(parsing ? ["--parsing"] : [])];
    const t = runNode([SELF, ...child, ...flags], { cwd: REPO });
    if (t.status !== 0) throw new Error(t.stderr);
    /** @type {{ zodNs: number, ns: number[] }[]} */
    const measured = JSON.parse(readFileSync(out, "utf8"));
    const first = order.indexOf(0);
    const ns = (/** @type {{ ns: number[] }} */ m, /** @type {number} */ at) =>
      m.ns[at] ?? Number.NaN;
    const total = (/** @type {number} */ at) => measured.reduce((s, m) => s + ns(m, at), 0);
    order.forEach((variant, at) => {
      const s = /** @type {VariantSpeed} */ (speed[variant]);
      s.vsZod.push(median(measured.map((m) => m.zodNs / ns(m, at))));
      s.vsFirst.push(median(measured.map((m) => ns(m, first) / ns(m, at))));
      s.corpusVsFirst.push(total(first) / total(at));
    });
    log?.(`speed run ${run + 1} of ${runs}: ${measured.length} messages`);
  }
  return speed;
}

// Run as a script (the child): the experiments import this module for `variantSpeed` only.
/** @type {{ child?: string, out?: string, rejecting?: boolean, parsing?: boolean }} */
const args =
  process.argv[1] === SELF
    ? parseArgs({
        options: {
          child: { type: "string" },
          out: { type: "string" },
          rejecting: { type: "boolean", default: false },
          parsing: { type: "boolean", default: false },
        },
      }).values
    : {};
if (args.child) {
  const dirs = args.child.split(",");
  /** @type {Record<string, any>[]} */
  const packages = await Promise.all(
    dirs.map(async (dir) => await import(pathToFileURL(exportFile(dir, ".")).href)),
  );
  /** @type {Record<string, any>} */
  const zod = await import(pathToFileURL(sdkZodFile()).href);
  const exchange = loadExchange();
  const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
  const schema = JSON.parse(readFileSync(join(SDK_SCHEMA_DIR, "v1", "schema.json"), "utf8"));
  const { items: messages } = buildItems({
    methods: packages[0]?.METHODS,
    schema,
    messages: [...exchange, ...largeMessages(sessionId)],
  });
  const accept = !args.rejecting;
  const items = accept ? messages : invalidItems(messages, schema);
  /** @type {{ label: string, zodNs: number, ns: number[] }[]} */
  const rows = [];
  /** True when `f(value)` returns rather than throws: how a parse judges a value. */
  const returns = (/** @type {(v: unknown) => unknown} */ f, /** @type {unknown} */ value) => {
    try {
      f(value);
      return true;
    } catch {
      return false;
    }
  };
  for (const item of items) {
    const z = zod[`z${item.definition}`];
    const functions = packages.map((p) => p[`${args.parsing ? "parse" : "is"}${item.definition}`]);
    if (!z || functions.some((g) => typeof g !== "function")) continue;
    const value = item.value;
    /** @type {(f: (v: unknown) => unknown) => () => unknown} */
    const judge = args.parsing ? (f) => () => returns(f, value) : (f) => () => f(value);
    const zodJudge = args.parsing ? judge((v) => z.parse(v)) : () => z.safeParse(value).success;
    // As the benchmark does: only values every side judges as the corpus expects are timed.
    if (zodJudge() !== accept || functions.some((g) => judge(g)() !== accept)) continue;
    const result = compare(
      [
        { name: "zod", fn: zodJudge },
        ...functions.map((g, i) => ({ name: `v${i}`, fn: judge(g) })),
      ],
      { targetMs: 4, rounds: 9 },
    );
    rows.push({
      label: item.label,
      zodNs: result.zod?.nsPerOp ?? Number.NaN,
      ns: functions.map((_g, i) => result[`v${i}`]?.nsPerOp ?? Number.NaN),
    });
  }
  writeFileSync(args.out ?? "", JSON.stringify(rows));
}
