#!/usr/bin/env node
// `npm run build`: compile the generator (tsconfig.build.json) and the runtime the generated
// package ships (tsconfig.runtime.json, tsconfig.runtime-node.json), bundle the runtime's
// JavaScript (runtime-bundle.mjs) and record which of its declarations import which
// (runtime-graph.mjs), into a staging folder, then swap it in for dist/.
//
// Why a staging folder: `npm test` rebuilds first, and a build that deleted dist/ and wrote it
// anew left `npx acp-codegen` broken for as long as the compilers ran (10 s and more), in every
// other terminal of the project. Here dist/ is whole at every moment but the one between two
// renames; a build that fails leaves the previous dist/ as it was.
//
// The staging folder is `.build-<pid>/dist` in the project root: on the same file system as
// dist/, so the swap is a rename, and named `dist` inside, so what esbuild writes about paths
// (`// dist/runtime/…` comments in the bundle) does not depend on where it was built.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = join(ROOT, "dist");
const STAGE_PREFIX = ".build-";

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

// A build that was killed leaves its staging folder behind; one whose process still runs is
// another build under way, and is left alone.
for (const entry of readdirSync(ROOT)) {
  if (!entry.startsWith(STAGE_PREFIX)) continue;
  const pid = Number(entry.slice(STAGE_PREFIX.length));
  if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) continue;
  rmSync(join(ROOT, entry), { recursive: true, force: true });
}

const stage = join(ROOT, `${STAGE_PREFIX}${process.pid}`);
const next = join(stage, "dist");
mkdirSync(stage, { recursive: true });

/** @param {string[]} args */
function node(args) {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
  if (run.status !== 0) {
    rmSync(stage, { recursive: true, force: true });
    process.exit(run.status ?? 1);
  }
}

const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
node([tsc, "-p", "tsconfig.build.json", "--outDir", next]);
node([tsc, "-p", "tsconfig.runtime.json", "--outDir", join(next, "runtime")]);
node([tsc, "-p", "tsconfig.runtime-node.json", "--outDir", join(next, "runtime")]);
node([join(ROOT, "tools", "build", "runtime-bundle.mjs"), next]);
node([join(ROOT, "tools", "build", "runtime-graph.mjs"), next]);

// The swap: the old dist/ moves into the staging folder (removed with it), the new one takes
// its place. Should the second rename fail, the old one goes back.
const old = join(stage, "old");
if (existsSync(DIST)) renameSync(DIST, old);
try {
  renameSync(next, DIST);
} catch (error) {
  if (existsSync(old)) renameSync(old, DIST);
  throw error;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
