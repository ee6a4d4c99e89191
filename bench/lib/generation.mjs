// Generation cost: time and peak RSS of `acp-codegen generate` (all four surfaces of the
// vendored schema) and `acp-codegen check`, and the time of the repository's build.
//
// Each run is a fresh child process writing into a fresh folder, so nothing is cached between
// runs (the CLI has no cache; this keeps it honest if one appears). One round is generate,
// check, build, one after the other, so a change in machine load hits all three alike and the
// check : (generate + build) ratio survives it. The packages generated here are the ones the
// rest of the benchmark measures, so every figure refers to the generator as it is in the
// working tree now, not to whatever was last committed under generated/.
//
// Both wall time (what a user waits for) and CPU time (what the run costs, nearly independent
// of other load on a shared machine) are recorded.

import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { CLI, REPO, SDK_SCHEMA_DIR, VENDORED_SCHEMA_DIR } from "./paths.mjs";
import { rssPath, runNode } from "./proc.mjs";

const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");

/** @typedef {ReturnType<typeof runNode>} NodeRun */
/** @typedef {{ wallMs: number[], cpuMs: (number | null)[], peakRssMb: (number | null)[] }} Measures */

/**
 * @param {string} what
 * @param {NodeRun} result
 */
function mustSucceed(what, result) {
  if (result.status !== 0) {
    throw new Error(`${what} exited ${result.status}: ${(result.stderr || result.stdout).trim()}`);
  }
  return result;
}

/**
 * @param {string} schemaDir
 * @param {string} out
 * @param {string} tmp
 * @param {string} tag
 */
function generate(schemaDir, out, tmp, tag) {
  return mustSucceed(
    `acp-codegen generate --schema-dir ${schemaDir}`,
    runNode(
      [CLI, "generate", "--schema-dir", schemaDir, "--out", out, "--name", "acp-bench", "--quiet"],
      { cwd: REPO, rssFile: rssPath(tmp, tag) },
    ),
  );
}

/** @param {number | null} ms */
const seconds = (ms) => `${((ms ?? 0) / 1000).toFixed(2)} s`;
/** @param {number | null} mb */
const megabytes = (mb) => `${(mb ?? Number.NaN).toFixed(0)} MB`;

/**
 * @param {{ tmp: string, runs: number, budgetMs: number, log: (line: string) => void }} options
 *   `runs` rounds at most; a further round is skipped once the section has used `budgetMs`
 *   (a heavily loaded machine must not push `npm run bench` past its time budget).
 */
export function benchGeneration({ tmp, runs, budgetMs, log }) {
  /** @returns {Measures} */
  const measures = () => ({ wallMs: [], cpuMs: [], peakRssMb: [] });
  /**
   * @type {{
   *   generate: Measures, check: Measures & { drifted?: number }, checkDrifted?: Measures,
   *   build: { wallMs: number[], cpuMs: number[], failures: string[] },
   *   generateSdkSchema: Measures, packages: { vendored: string, sdkSchema: string },
   * }}
   */
  const result = {
    generate: measures(),
    check: measures(),
    build: { wallMs: [], cpuMs: [], failures: [] },
    generateSdkSchema: measures(),
    packages: { vendored: join(tmp, "generated-0"), sdkSchema: join(tmp, "generated-sdk-schema") },
  };
  const record = (/** @type {Measures} */ into, /** @type {NodeRun} */ r) => {
    into.wallMs.push(r.wallMs);
    into.cpuMs.push(r.cpuMs);
    into.peakRssMb.push(r.peakRssMb);
  };
  const started = Date.now();

  for (let i = 0; i < runs; i++) {
    const roundStart = Date.now();
    const g = generate(VENDORED_SCHEMA_DIR, join(tmp, `generated-${i}`), tmp, `generate-${i}`);
    record(result.generate, g);

    // Checked against the package this same generator wrote a moment ago, so the run is the
    // clean (exit 0) path CI takes on every pull request. Exit 1 here can only mean that the
    // generator changed during the run (work in progress in the same checkout): the figure is
    // kept, flagged, since it then timed the drift path instead.
    const c = runNode(
      [
        CLI,
        "check",
        "--schema-dir",
        VENDORED_SCHEMA_DIR,
        "--out",
        join(tmp, `generated-${i}`),
        "--quiet",
      ],
      { cwd: REPO, rssFile: rssPath(tmp, `check-${i}`) },
    );
    if (c.status === 1) {
      result.check.drifted = (result.check.drifted ?? 0) + 1;
      log(
        "  warning: check found drift in a package generated moments ago; the generator changed during the run",
      );
    } else mustSucceed("acp-codegen check", c);
    record(result.check, c);

    // The two compiler runs of `npm run build`, with the output redirected to a scratch folder:
    // rewriting dist/ would change the CLI under other work in the same checkout.
    let wallMs = 0;
    let cpuMs = 0;
    for (const [project, sub] of /** @type {const} */ ([
      ["tsconfig.build.json", "dist"],
      ["tsconfig.runtime.json", join("dist", "runtime")],
    ])) {
      const r = runNode([TSC, "-p", project, "--outDir", join(tmp, `build-${i}`, sub)], {
        cwd: REPO,
      });
      wallMs += r.wallMs;
      cpuMs += r.cpuMs ?? 0;
      // A type error in work in progress still emits and costs the same time; note it.
      if (r.status !== 0) result.build.failures.push(`${project}: exit ${r.status}`);
    }
    result.build.wallMs.push(wallMs);
    result.build.cpuMs.push(cpuMs);

    log(
      `  round ${i + 1}: generate ${seconds(g.wallMs)} (cpu ${seconds(g.cpuMs)}, ${megabytes(g.peakRssMb)}), ` +
        `check ${seconds(c.wallMs)} (cpu ${seconds(c.cpuMs)}), build ${seconds(wallMs)} (cpu ${seconds(cpuMs)})`,
    );
    const elapsed = Date.now() - started;
    if (i + 1 < runs && elapsed + (Date.now() - roundStart) > budgetMs) {
      log(`  stopping after ${i + 1} round(s): the section's ${seconds(budgetMs)} budget is used`);
      break;
    }
  }

  // The other path of `check`: a package with a hand-edited file. When nothing changed, check can
  // confirm a clean tree from the manifest's hashes alone; a drifted tree makes it render the
  // package again to explain the difference, which costs about what generate does.
  const drifted = join(tmp, "generated-drifted");
  cpSync(result.packages.vendored, drifted, { recursive: true });
  appendFileSync(join(drifted, "v1", "methods.js"), "// edited by hand\n");
  const d = runNode(
    [CLI, "check", "--schema-dir", VENDORED_SCHEMA_DIR, "--out", drifted, "--quiet"],
    { cwd: REPO, rssFile: rssPath(tmp, "check-drifted") },
  );
  if (d.status !== 1)
    throw new Error(`acp-codegen check on an edited package exited ${d.status}, expected 1`);
  result.checkDrifted = { wallMs: [d.wallMs], cpuMs: [d.cpuMs], peakRssMb: [d.peakRssMb] };
  log(`  check, one file edited (exit 1): ${seconds(d.wallMs)} (cpu ${seconds(d.cpuMs)})`);

  const s = generate(SDK_SCHEMA_DIR, result.packages.sdkSchema, tmp, "generate-sdk-schema");
  record(result.generateSdkSchema, s);
  log(
    `  generate (SDK 2.4.0 schema): ${seconds(s.wallMs)} (cpu ${seconds(s.cpuMs)}, ${megabytes(s.peakRssMb)})`,
  );
  return result;
}
