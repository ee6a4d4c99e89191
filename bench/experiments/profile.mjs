#!/usr/bin/env node
// Experiment, not part of `npm run bench`: where the time goes, from V8's CPU profiler.
//
//   node bench/experiments/profile.mjs generate   # `acp-codegen generate` of the vendored schema
//   node bench/experiments/profile.mjs validate   # isSessionNotification on the 500-entry plan
//
// Runs the workload under `node --cpu-prof` in a scratch folder and prints self time grouped by
// package (generate) or by function (validate), with garbage collection as its own line.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CLI, REPO, SDK_SCHEMA_DIR, VENDORED_SCHEMA_DIR } from "../lib/paths.mjs";
import { runNode } from "../lib/proc.mjs";

const what = process.argv[2] ?? "generate";
const tmp = mkdtempSync(join(tmpdir(), "acp-profile-"));
const profDir = join(tmp, "prof");

if (what === "generate") {
  const r = runNode(
    [
      `--cpu-prof`,
      `--cpu-prof-dir=${profDir}`,
      CLI,
      "generate",
      "--schema-dir",
      VENDORED_SCHEMA_DIR,
      "--out",
      join(tmp, "out"),
      "--quiet",
    ],
    { cwd: REPO },
  );
  if (r.status !== 0) throw new Error(r.stderr);
} else if (what === "validate") {
  const pkg = join(tmp, "pkg");
  const g = runNode(
    [
      CLI,
      "generate",
      "--schema-dir",
      SDK_SCHEMA_DIR,
      "--out",
      pkg,
      "--name",
      "acp-bench",
      "--quiet",
    ],
    { cwd: REPO },
  );
  if (g.status !== 0) throw new Error(g.stderr);
  const script = join(tmp, "validate.mjs");
  writeFileSync(
    script,
    `import { largeMessages } from ${JSON.stringify(pathToFileURL(join(REPO, "bench", "lib", "corpus.mjs")).href)};
import { isSessionNotification } from ${JSON.stringify(pathToFileURL(join(pkg, "v1", "index.js")).href)};
const plan = largeMessages("sess_profile").find((m) => m.message.params.update.sessionUpdate === "plan").message.params;
let ok = 0;
for (let i = 0; i < 3000; i++) if (isSessionNotification(plan)) ok++;
if (ok !== 3000) throw new Error("plan did not validate");
`,
  );
  const r = runNode([`--cpu-prof`, `--cpu-prof-dir=${profDir}`, script], { cwd: REPO });
  if (r.status !== 0) throw new Error(r.stderr);
} else {
  throw new Error(`unknown profile ${what}: generate | validate`);
}

/**
 * A V8 CPU profile (.cpuprofile), the parts read here.
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }} ProfileNode
 * @type {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }}
 */
const profile = JSON.parse(readFileSync(join(profDir, readdirSync(profDir)[0] ?? ""), "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<number, number>} */
const selfUs = new Map();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

// validators.js names its functions validate<N>. `export const v<Name> = validate<N>` says which
// definition an exported one checks; the copies ajv compiles for references are not exported,
// so those are labelled with the first properties they read, which is enough to tell them apart.
/** @type {Map<string, string>} */
const definitionOf = new Map();
if (what === "validate") {
  const code = readFileSync(join(tmp, "pkg", "v1", "validators.js"), "utf8");
  for (const m of code.matchAll(/^export const v(\w+) = (validate\d+);$/gm))
    definitionOf.set(m[2] ?? "", m[1] ?? "");
  const parts = code.split(/^function (validate\d+)\(/m);
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] ?? "";
    const body = parts[i + 1] ?? "";
    if (definitionOf.has(name)) continue;
    const props = [...new Set([...body.matchAll(/\bdata\.(\w+)/g)].map((m) => m[1]))];
    const consts = [...new Set([...body.matchAll(/"(\w+)" !== data\b/g)].map((m) => m[1]))];
    if (props.length) definitionOf.set(name, `{${props.slice(0, 4).join(", ")}}`);
    else if (consts.length) definitionOf.set(name, `one of ${consts.slice(0, 4).join(" | ")}`);
  }
}

/**
 * Generate: which package a frame belongs to. Validate: which function.
 * @param {ProfileNode | undefined} node
 */
function group(node) {
  if (!node) return "(unknown frame)";
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === "(garbage collector)") return "(garbage collector)";
  if (what === "validate") {
    if (!url.includes("/pkg/")) return "(startup, module loading, harness)";
    const def = definitionOf.get(functionName);
    return `${functionName || "(anonymous)"}${def ? ` (${def})` : ""} ${url.split("/pkg/")[1]}:${lineNumber + 1}`;
  }
  if (!url || url.startsWith("node:")) return "(node internals, module loading)";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  return url
    .replace(/^file:\/\//, "")
    .replace(REPO, "")
    .replace(/^\/?dist\/generator\//, "generator/");
}
const totals = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const key = group(nodes.get(id));
  totals.set(key, (totals.get(key) ?? 0) + us);
  total += us;
}
const lines = [
  `${what}: ${(total / 1000).toFixed(0)} ms sampled; self time by ${what === "generate" ? "package" : "function"}`,
];
for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  lines.push(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
rmSync(tmp, { recursive: true, force: true });
