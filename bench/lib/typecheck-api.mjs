// Child process: the type-check cost of each consumer project measured through the TypeScript
// 5.9 compiler API in one warm process, as a low-noise companion to the `tsc` runs.
//
//   node bench/lib/typecheck-api.mjs --dir CONSUMER --rounds N [--phases]
//
// `tsc` in a fresh process spends most of its second loading itself and parsing the standard
// library, the same for every project, so the share a package adds is a small difference of two
// large, noisy numbers. Here the compiler is loaded once and the standard library's source files
// are parsed and bound once and shared by every program (as an editor or `tsc --watch` does),
// while the packages' declaration files are read, parsed and bound afresh for every program.
// Each sample is the CPU time of creating the program and getting its pre-emit diagnostics; the
// projects take turns, and the first rounds are warm-up. --phases also reports the compiler's
// own parse / bind / check durations (ts.performance; off by default, it adds marks to time).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { REPO, required } from "./paths.mjs";
import { median } from "./stats.mjs";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    rounds: { type: "string", default: "15" },
    phases: { type: "boolean", default: false },
  },
});
const require = createRequire(import.meta.url);
/**
 * The compiler API, with the internal timer (`ts.performance`) that --phases reads.
 * @type {typeof import("typescript-5.9") & {
 *   performance: { enable(): void, disable(): void, getDuration(name: string): number },
 * }}
 */
const ts = require(join(REPO, "node_modules", "typescript-5.9", "lib", "typescript.js"));
const WARMUP = 3;
const dir = required(args.dir, "dir");

const projects = ["baseline", "ours", "sdk"].map((name) => {
  const configPath = join(dir, `tsconfig.${name}.json`);
  const { config } = ts.readConfigFile(configPath, (p) => readFileSync(p, "utf8"));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir);
  return {
    name,
    rootNames: parsed.fileNames,
    options: parsed.options,
    /** @type {number[]} */ samples: [],
    /** @type {Record<string, number>[]} */ phases: [],
  };
});

const libDir = dirname(
  ts.getDefaultLibFilePath(/** @type {(typeof projects)[number]} */ (projects[0]).options),
);
/** @type {Map<string, import("typescript-5.9").SourceFile | undefined>} */
const libCache = new Map();
/**
 * @param {import("typescript-5.9").CompilerOptions} options
 * @returns {import("typescript-5.9").CompilerHost}
 */
function host(options) {
  const base = ts.createCompilerHost(options);
  return {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      if (!fileName.startsWith(libDir))
        return base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
      let file = libCache.get(fileName);
      if (!file) {
        file = base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
        libCache.set(fileName, file);
      }
      return file;
    },
  };
}

/** @type {Record<string, string[]>} */
const errors = {};
for (let round = 0; round < WARMUP + Number(args.rounds); round++) {
  for (let k = 0; k < projects.length; k++) {
    const p = /** @type {(typeof projects)[number]} */ (projects[(k + round) % projects.length]);
    if (args.phases) ts.performance.enable();
    const start = process.cpuUsage();
    const program = ts.createProgram({
      rootNames: p.rootNames,
      options: p.options,
      host: host(p.options),
    });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const used = process.cpuUsage(start);
    if (diagnostics.length) {
      errors[p.name] = diagnostics
        .slice(0, 3)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    }
    if (round >= WARMUP) p.samples.push((used.user + used.system) / 1000);
    if (args.phases) {
      if (round >= WARMUP) {
        p.phases.push(
          Object.fromEntries(
            ["Parse", "Bind", "Check"].map((k) => [k, ts.performance.getDuration(k)]),
          ),
        );
      }
      ts.performance.disable();
    }
  }
}
process.stdout.write(
  JSON.stringify({
    version: ts.version,
    ms: Object.fromEntries(projects.map((p) => [p.name, median(p.samples)])),
    samples: Object.fromEntries(projects.map((p) => [p.name, p.samples])),
    phases: args.phases
      ? Object.fromEntries(
          projects.map((p) => [
            p.name,
            Object.fromEntries(
              ["Parse", "Bind", "Check"].map((k) => [
                k,
                median(p.phases.map((x) => /** @type {number} */ (x[k]))),
              ]),
            ),
          ]),
        )
      : undefined,
    errors,
  }),
);
