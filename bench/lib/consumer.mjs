// Consumer cost: what depending on the package costs an application, next to the official SDK.
//  - cold import time of each entry point, in a fresh Node process per sample;
//  - `tsc --noEmit` time of a small consumer file (TypeScript 5.9 and 7), with a baseline (the
//    same project importing nothing) beside it, so the package's own share can be read off:
//    most of a small project's check time is the standard library, the same for both packages.
// The scratch consumer project is shared with the size section's bundles.

import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ENTRY_POINTS, exportFile, REPO, sdkRoot } from "./paths.mjs";
import { runNode } from "./proc.mjs";
import { median } from "./stats.mjs";

export const COMPILERS = [
  { label: "TypeScript 5.9", bin: join(REPO, "node_modules", "typescript-5.9", "bin", "tsc") },
  { label: "TypeScript 7", bin: join(REPO, "node_modules", "typescript", "bin", "tsc") },
];

/** @typedef {(line: string) => void} Log */

/**
 * The folder of an installed package, found through Node's resolution from this repository.
 * @param {string} name
 */
function packageDir(name) {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  while (!dir.endsWith(join("node_modules", ...name.split("/")))) {
    if (dir === dirname(dir)) throw new Error(`cannot locate ${name}`);
    dir = dirname(dir);
  }
  return dir;
}

/**
 * A throwaway application folder whose node_modules links our package (as "acp-bench"), the
 * official SDK and zod (its peer dependency), so both are resolved exactly as an installed
 * dependency would be.
 * @param {string} tmp
 * @param {string} ourPkg
 */
export function makeConsumerProject(tmp, ourPkg) {
  const dir = join(tmp, "consumer");
  mkdirSync(join(dir, "node_modules", "@agentclientprotocol"), { recursive: true });
  symlinkSync(realpathSync(ourPkg), join(dir, "node_modules", "acp-bench"), "dir");
  symlinkSync(sdkRoot(), join(dir, "node_modules", "@agentclientprotocol", "sdk"), "dir");
  symlinkSync(packageDir("zod"), join(dir, "node_modules", "zod"), "dir");
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );

  // The same application code against each package; only the import and, for ours, the
  // runtime guard differ (the SDK has no public guard; its zod schemas are internal).
  const body = `
export const init: InitializeRequest = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  clientInfo: { name: "editor", version: "1.0.0" },
};

export function describe(update: SessionUpdate): string {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      return update.content.type === "text" ? update.content.text : update.content.type;
    case "tool_call":
      return update.title;
    case "tool_call_update":
      return update.status ?? "unchanged";
    case "plan":
      return \`\${update.entries.length} entries\`;
    default:
      return update.sessionUpdate;
  }
}

export const done: PromptResponse = { stopReason: "end_turn" };
export const promptMethod = AGENT_METHODS.session_prompt;
export const permission = (update: ToolCallUpdate): string => update.toolCallId;
`;
  const types =
    "type InitializeRequest, type PromptResponse, type SessionNotification, type SessionUpdate, type ToolCallUpdate";
  writeFileSync(
    join(dir, "ours.ts"),
    `import { AGENT_METHODS, isSessionNotification, ${types} } from "acp-bench";\n${body}
export function onUpdate(params: unknown): string | undefined {
  return isSessionNotification(params) ? describe(params.update) : undefined;
}
export const seen = (n: SessionNotification): string => n.sessionId;
`,
  );
  writeFileSync(
    join(dir, "sdk.ts"),
    `import { AGENT_METHODS, ${types} } from "@agentclientprotocol/sdk";\n${body}
export function onUpdate(params: SessionNotification): string | undefined {
  return describe(params.update);
}
export const seen = (n: SessionNotification): string => n.sessionId;
`,
  );
  writeFileSync(join(dir, "baseline.ts"), "export const nothing = 0;\n");
  for (const name of ["ours", "sdk", "baseline"]) {
    writeFileSync(
      join(dir, `tsconfig.${name}.json`),
      JSON.stringify(
        {
          compilerOptions: {
            target: "es2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            strict: true,
            noEmit: true,
            // What `tsc --init` writes and most applications keep: declaration files of
            // dependencies are read and bound, but not checked in full.
            skipLibCheck: true,
            // No @types/node and only the ES library: they would add the same seconds of
            // parsing to both sides and bury the packages' own cost in noise.
            lib: ["es2022"],
            types: [],
          },
          files: [`${name}.ts`],
        },
        null,
        2,
      ),
    );
  }
  return dir;
}

/** @typedef {{ cpuMs: number, wallMs: number }} ImportSample */

/**
 * Median cold-import time (ms) of each entry point, ours and the SDK's, sampled alternately.
 * @param {{ ourPkg: string, runs: number, log: Log }} options
 */
export function benchImports({ ourPkg, runs, log }) {
  const rows = [];
  for (const ep of ENTRY_POINTS) {
    const files = { ours: exportFile(ourPkg, ep.ours), sdk: exportFile(sdkRoot(), ep.sdk) };
    /** @type {{ ours: ImportSample[], sdk: ImportSample[] }} */
    const samples = { ours: [], sdk: [] };
    for (let i = 0; i < runs; i++) {
      /** @type {("ours" | "sdk")[]} */
      const order = i % 2 ? ["sdk", "ours"] : ["ours", "sdk"];
      for (const side of order) {
        // Timed inside the child: only module loading and evaluation, not Node's own start-up,
        // which is the same for both and would dilute the ratio. CPU time is the figure used
        // (robust to a loaded machine); wall time is kept beside it.
        const url = pathToFileURL(files[side]).href;
        const code = [
          "const c0 = process.cpuUsage(); const t0 = performance.now();",
          `await import(${JSON.stringify(url)});`,
          "const wallMs = performance.now() - t0; const c = process.cpuUsage(c0);",
          "process.stdout.write(JSON.stringify({ wallMs, cpuMs: (c.user + c.system) / 1000 }));",
        ].join("\n");
        const r = runNode(["--input-type=module", "-e", code]);
        if (r.status !== 0) throw new Error(`importing ${files[side]} failed: ${r.stderr}`);
        samples[side].push(JSON.parse(r.stdout));
      }
    }
    const summary = (/** @type {"ours" | "sdk"} */ side) => ({
      cpuMs: median(samples[side].map((s) => s.cpuMs)),
      wallMs: median(samples[side].map((s) => s.wallMs)),
    });
    const row = {
      entry: ep.label,
      ours: { export: ep.ours, ...summary("ours") },
      sdk: { export: ep.sdk, ...summary("sdk") },
    };
    log(
      `  import ${ep.label}: ours ${row.ours.cpuMs.toFixed(1)} ms cpu (${row.ours.wallMs.toFixed(1)} wall), ` +
        `SDK ${row.sdk.cpuMs.toFixed(1)} ms cpu (${row.sdk.wallMs.toFixed(1)} wall)`,
    );
    rows.push(row);
  }
  return rows;
}

/**
 * `Key: value` lines of `--extendedDiagnostics` output; times in ms, memory in kB, counts as is.
 * @param {string} output
 * @returns {Record<string, number | undefined>}
 */
function diagnostics(output) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const line of output.split("\n")) {
    const m = /^([A-Za-z][A-Za-z ]*?):\s+([\d.]+)(s|K)?\s*$/.exec(line.trim());
    if (m?.[1]) out[m[1]] = m[3] === "s" ? Number(m[2]) * 1000 : Number(m[2]);
  }
  return out;
}

/**
 * `tsc --noEmit` per compiler for the baseline, our and the SDK's consumer. The time compared is
 * the CPU time of the compiler process tree (robust to a loaded machine; loading the compiler is
 * in all three and cancels out of the share over the baseline). The compiler's own "Total
 * time" (wall, from --extendedDiagnostics) and the wall time are kept beside it, and so are the
 * deterministic counts (lines read, types, memory), which no machine load can move.
 * @param {{ consumerDir: string, runs: number, log: Log }} options
 */
export function benchTypeCheck({ consumerDir, runs, log }) {
  const rows = [];
  for (const compiler of COMPILERS) {
    const names = /** @type {const} */ (["baseline", "ours", "sdk"]);
    /** @typedef {{ cpuMs: number[], totalMs: number[], wallMs: number[] }} Samples */
    /** @type {Record<(typeof names)[number], Samples>} */
    const samples = {
      baseline: { cpuMs: [], totalMs: [], wallMs: [] },
      ours: { cpuMs: [], totalMs: [], wallMs: [] },
      sdk: { cpuMs: [], totalMs: [], wallMs: [] },
    };
    /** @type {Record<string, { files?: number, lines: number, types?: number, memoryKb?: number }>} */
    const counts = {};
    /** @type {Record<string, string[]>} */
    const errors = {};
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = /** @type {(typeof names)[number]} */ (names[(k + i) % names.length]);
        const r = runNode([compiler.bin, "-p", `tsconfig.${name}.json`, "--extendedDiagnostics"], {
          cwd: consumerDir,
        });
        const d = diagnostics(r.stdout);
        if (r.status !== 0) {
          errors[name] = r.stdout
            .split("\n")
            .filter((l) => l.includes("error"))
            .slice(0, 5);
        }
        samples[name].cpuMs.push(r.cpuMs ?? r.wallMs);
        samples[name].totalMs.push(d["Total time"] ?? Number.NaN);
        samples[name].wallMs.push(r.wallMs);
        counts[name] = {
          files: d.Files,
          lines:
            d.Lines ??
            (d["Lines of Library"] ?? 0) +
              (d["Lines of Definitions"] ?? 0) +
              (d["Lines of TypeScript"] ?? 0),
          types: d.Types,
          memoryKb: d["Memory used"],
        };
      }
    }
    const ms = (/** @type {(typeof names)[number]} */ name, /** @type {keyof Samples} */ key) =>
      median(samples[name][key]);
    const row = {
      compiler: compiler.label,
      baselineMs: ms("baseline", "cpuMs"),
      oursMs: ms("ours", "cpuMs"),
      sdkMs: ms("sdk", "cpuMs"),
      compilerTotalMs: {
        baseline: ms("baseline", "totalMs"),
        ours: ms("ours", "totalMs"),
        sdk: ms("sdk", "totalMs"),
      },
      wallMs: {
        baseline: ms("baseline", "wallMs"),
        ours: ms("ours", "wallMs"),
        sdk: ms("sdk", "wallMs"),
      },
      counts,
      samples,
      errors,
    };
    log(
      `  ${compiler.label} (cpu): baseline ${row.baselineMs.toFixed(0)} ms, ours ${row.oursMs.toFixed(0)} ms, SDK ${row.sdkMs.toFixed(0)} ms`,
    );
    rows.push(row);
  }
  return rows;
}

/**
 * The package's type-check share measured in one warm TypeScript 5.9 process with the standard
 * library cached (typecheck-api.mjs): far less noise than the difference of two `tsc` runs.
 * @param {{ consumerDir: string, rounds: number, log: Log, phases?: boolean }} options
 */
export function benchTypeCheckApi({ consumerDir, rounds, log, phases = false }) {
  const script = fileURLToPath(new URL("./typecheck-api.mjs", import.meta.url));
  const r = runNode(
    [script, "--dir", consumerDir, "--rounds", String(rounds), ...(phases ? ["--phases"] : [])],
    { cwd: REPO },
  );
  if (r.status !== 0) throw new Error(`typecheck-api failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  log(
    `  TypeScript ${out.version} API (warm, lib cached, cpu): baseline ${out.ms.baseline.toFixed(0)} ms, ours ${out.ms.ours.toFixed(0)} ms, SDK ${out.ms.sdk.toFixed(0)} ms`,
  );
  return out;
}
