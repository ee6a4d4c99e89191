/**
 * One section of the benchmark run on its own (`node bench/lib/<section>.mjs [--quick]
 * [--pkg DIR]`): the package it measures, generated from the vendored schema into a scratch
 * folder unless `--pkg` names one, and its rows printed as `npm run bench` prints its table.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLI, REPO } from "./paths.mjs";
import { formatRatio } from "./stats.mjs";

/** @typedef {[string, string, string, string, number, (number | undefined)?, string?]} Row */

/**
 * @template {import("node:util").ParseArgsConfig["options"]} Options
 * @param {string} section a word for the scratch folder's name
 * @param {{
 *   options?: Options,
 *   run: (input: { pkg: string, quick: boolean, values: Record<string, unknown>, log: (line: string) => void }) => Row[] | Promise<Row[]>,
 * }} spec
 */
export async function standalone(section, spec) {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      pkg: { type: "string" },
      ...spec.options,
    },
  });
  let pkg = typeof values.pkg === "string" ? values.pkg : undefined;
  let scratch;
  if (!pkg) {
    scratch = mkdtempSync(join(tmpdir(), `acp-bench-${section}-`));
    pkg = join(scratch, "package");
    const g = spawnSync(process.execPath, [CLI, "generate", "--out", pkg, "--quiet"], {
      cwd: REPO,
      encoding: "utf8",
    });
    if (g.status !== 0) throw new Error(g.stderr);
  }
  try {
    const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);
    const rows = await spec.run({ pkg, quick: values.quick === true, values, log });
    for (const [, measure, reference, ours, ratio, target, note] of rows) {
      const met = target === undefined ? "" : ratio >= target ? "yes" : "**no**";
      process.stdout.write(
        `| ${measure} | ${reference} | ${ours} | ${formatRatio(ratio)} | ${target === undefined ? "" : `≥ ${target}×`} | ${met} | ${note ?? ""} |\n`,
      );
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
