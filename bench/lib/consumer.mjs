// Consumer cost: what depending on the package costs an application, next to the official SDK.
//  - cold import time of each entry point, in a fresh Node process per sample;
//  - `tsc --noEmit` time of a small consumer file (TypeScript 5.9 and 7), with a baseline (the
//    same project importing nothing) beside it, so the package's own share can be read off:
//    most of a small project's check time is the standard library, the same for both packages.
//  - the compiler's own counts (identifiers, symbols, types, instantiations) for a strict
//    consumer that checks the packages' declarations in full (`skipLibCheck: false`): unlike
//    times, these are deterministic, so they compare exactly across runs and machines.
// The scratch consumer project is shared with the size section's bundles.

import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
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
 * official SDK and zod (the peer dependency its declarations need), so both are resolved
 * exactly as an installed dependency would be.
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
  // runtime guard differ (the SDK has no guard of a whole definition, only variant guards of
  // four unions; its zod schemas are not in its exports map).
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

/**
 * The strict consumer: an editor-side client that connects over a web stream pair, handles the
 * two requests a client must, sends a prompt, guards an untrusted value and names two types,
 * with the compiler checking every declaration file it reads (`skipLibCheck: false`). The SDK
 * has no such guard, no connection class: its side uses its own builder (`client()`) and reads
 * the value as typed. Both sides need the DOM's streams and the disposal symbols the SDK's
 * declarations name; the empty baseline has the same library, so the shares are the packages'.
 * @param {string} tmp
 * @param {string} ourPkg
 */
export function makeStrictConsumerProject(tmp, ourPkg) {
  const dir = makeConsumerProject(join(tmp, "strict"), ourPkg);
  const streams = "output: WritableStream<Uint8Array>, input: ReadableStream<Uint8Array>";
  writeFileSync(
    join(dir, "ours.ts"),
    `import { ClientSideConnection, isSessionNotification, ndJsonStream } from "acp-bench";
import type { PromptResponse, Received } from "acp-bench";

export function connect(${streams}) {
  // Handlers receive the open reading's type (unknown variants kept, see the README).
  const updates: Received.SessionNotification[] = [];
  const connection = new ClientSideConnection(
    () => ({
      sessionUpdate(notification) {
        updates.push(notification);
      },
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    ndJsonStream(output, input),
  );
  const prompt = (sessionId: string, text: string): Promise<PromptResponse> =>
    connection.agent.sessionPrompt({ sessionId, prompt: [{ type: "text", text }] });
  return { connection, updates, prompt };
}

export const sessionOf = (value: unknown): string | undefined =>
  isSessionNotification(value) ? value.sessionId : undefined;
`,
  );
  writeFileSync(
    join(dir, "sdk.ts"),
    `import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import type { PromptResponse, SessionNotification } from "@agentclientprotocol/sdk";

export function connect(${streams}) {
  const updates: SessionNotification[] = [];
  const connection = client()
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .onRequest("session/request_permission", () => ({ outcome: { outcome: "cancelled" } }))
    .connect(ndJsonStream(output, input));
  const prompt = (sessionId: string, text: string): Promise<PromptResponse> =>
    connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  return { connection, updates, prompt };
}

export const sessionOf = (value: SessionNotification): string => value.sessionId;
`,
  );
  for (const name of ["ours", "sdk", "baseline"]) {
    const file = join(dir, `tsconfig.${name}.json`);
    const config = JSON.parse(readFileSync(file, "utf8"));
    config.compilerOptions.skipLibCheck = false;
    config.compilerOptions.lib = ["es2022", "esnext.disposable", "dom"];
    writeFileSync(file, JSON.stringify(config, null, 2));
  }
  return dir;
}

/** The compiler's counts that `--extendedDiagnostics` prints and no machine load can move. */
export const COUNTS = /** @type {const} */ (["Identifiers", "Symbols", "Types", "Instantiations"]);
/** @typedef {Record<(typeof COUNTS)[number], number>} Counts */

/**
 * One `tsc --extendedDiagnostics` run per compiler and project: the deterministic counts of the
 * baseline, ours and the SDK's, and each package's share (its project minus the baseline).
 * TypeScript 7 checks with several checkers in parallel by default, each creating the types it
 * needs, so its counts depend on how files fall to checkers; `checkers` runs TypeScript 7 alone
 * with that many (1: every file in one checker, comparable to TypeScript 5.9).
 * @param {{ consumerDir: string, log: Log, checkers?: number }} options
 */
export function countTypeCheck({ consumerDir, log, checkers }) {
  const compilers =
    checkers === undefined
      ? COMPILERS.map((c) => ({ ...c, flags: [] }))
      : COMPILERS.filter((c) => c.label === "TypeScript 7").map((c) => ({
          ...c,
          label: `${c.label}, ${checkers} checker${checkers === 1 ? "" : "s"}`,
          flags: ["--checkers", String(checkers)],
        }));
  return compilers.map((compiler) => {
    /** @type {Record<string, Counts>} */
    const totals = {};
    /** @type {Record<string, string[]>} */
    const errors = {};
    for (const name of ["baseline", "ours", "sdk"]) {
      const r = runNode(
        [compiler.bin, "-p", `tsconfig.${name}.json`, "--extendedDiagnostics", ...compiler.flags],
        { cwd: consumerDir },
      );
      if (r.status !== 0) errors[name] = errorLines(r.stdout);
      const d = diagnostics(r.stdout);
      totals[name] = /** @type {Counts} */ (
        Object.fromEntries(COUNTS.map((k) => [k, d[k] ?? Number.NaN]))
      );
    }
    const share = (/** @type {string} */ name) =>
      /** @type {Counts} */ (
        Object.fromEntries(
          COUNTS.map((k) => [k, (totals[name]?.[k] ?? NaN) - (totals.baseline?.[k] ?? NaN)]),
        )
      );
    const row = {
      compiler: compiler.label,
      ours: share("ours"),
      sdk: share("sdk"),
      totals,
      errors,
    };
    log(
      `  ${compiler.label} counts, ours / SDK: ${COUNTS.map((k) => `${k.toLowerCase()} ${row.ours[k]} / ${row.sdk[k]}`).join(", ")}`,
    );
    return row;
  });
}

/**
 * The first few error lines of a compiler's output.
 * @param {string} output
 */
function errorLines(output) {
  return output
    .split("\n")
    .filter((l) => l.includes("error"))
    .slice(0, 5);
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
