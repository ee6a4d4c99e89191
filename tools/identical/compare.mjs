#!/usr/bin/env node
/**
 * Does a refactoring of the generator change what it writes? Builds the generator at a base
 * ref (default `main`) in a scratch copy, then runs `generate` with it and with this checkout's
 * dist/ on every schema folder there is, and compares the two trees byte for byte (the
 * manifest's generator fingerprint blanked: it hashes the generator, which differs by design).
 *
 *   node tools/identical/compare.mjs [--base REF] [--times N] [--keep] [DIR...]
 *
 * Without DIRs, the inputs are schema/, /work/shared/schema (when present), every folder of
 * /work/shared/schema-history, test/fixtures/history and test/fixtures/releases: whatever of
 * them generates with the base generator (an input the base refuses must be refused alike).
 * `--times N` also times `generate` on schema/ N times with each generator and prints the
 * medians. Run `npm run build` first: this checkout is compared as built.
 * Exits 1 when any input differs.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { flagValue, ROOT, run } from "../common/process.mjs";

const args = process.argv.slice(2);
const baseRef = flagValue(args, "--base") ?? "main";
const times = Number(flagValue(args, "--times") ?? 0);
const keep = args.includes("--keep");
const dirs = args.filter(
  (a, i) => !a.startsWith("--") && !/^--(base|times)$/.test(args[i - 1] ?? ""),
);

/** @param {string} dir a folder that holds schema files, directly or in v1/, v2/… */
function isSchemaFolder(dir) {
  if (!statSync(dir).isDirectory()) return false;
  const names = readdirSync(dir);
  return names.includes("schema.json") || names.some((n) => /^v\d+$/.test(n));
}

/** Every input folder, as given or found. */
function inputs() {
  if (dirs.length > 0) return dirs;
  const found = [join(ROOT, "schema")];
  if (existsSync("/work/shared/schema")) found.push("/work/shared/schema");
  for (const parent of [
    "/work/shared/schema-history",
    join(ROOT, "test/fixtures/history"),
    join(ROOT, "test/fixtures/releases"),
  ]) {
    if (!existsSync(parent)) continue;
    for (const name of readdirSync(parent).sort()) {
      const dir = join(parent, name);
      if (isSchemaFolder(dir)) found.push(dir);
    }
  }
  return found;
}

/** The base generator, built from `baseRef` in a scratch folder. */
function buildBase() {
  const dir = mkdtempSync(join(tmpdir(), "acp-identical-base-"));
  const archive = spawnSync("git", ["archive", baseRef], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${baseRef}: ${archive.stderr}`);
  const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const build = run("node", ["tools/build/build.mjs"], dir);
  if (build.code !== 0) throw new Error(`building ${baseRef}: ${build.stderr}${build.stdout}`);
  return dir;
}

/**
 * @param {string} root a checkout with dist/ built
 * @param {string} schemaDir
 * @param {string} out
 */
function generate(root, schemaDir, out) {
  return run("node", [
    join(root, "bin/acp-codegen.js"),
    "generate",
    "--quiet",
    "--schema-dir",
    schemaDir,
    "--out",
    out,
  ]);
}

/** @param {string} dir */
function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** @param {string} path */
function contentOf(path) {
  const text = readFileSync(path, "utf8");
  return path.endsWith("acp-codegen.json")
    ? text.replace(/("fingerprint": )"[0-9a-f]*"/, '$1""')
    : text;
}

/**
 * The paths that differ between two generated trees.
 * @param {string} a
 * @param {string} b
 */
function differences(a, b) {
  const left = files(a);
  const right = files(b);
  const all = [...new Set([...left, ...right])].sort();
  return all.filter(
    (f) =>
      !left.includes(f) || !right.includes(f) || contentOf(join(a, f)) !== contentOf(join(b, f)),
  );
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;

const base = buildBase();
const scratch = mkdtempSync(join(tmpdir(), "acp-identical-out-"));
let same = 0;
let differ = 0;
let refused = 0;
try {
  for (const [i, dir] of inputs().entries()) {
    const a = join(scratch, `${i}-base`);
    const b = join(scratch, `${i}-mine`);
    const ra = generate(base, dir, a);
    const rb = generate(ROOT, dir, b);
    if (ra.code !== 0 || rb.code !== 0) {
      const alike = ra.code === rb.code && ra.stderr === rb.stderr;
      if (alike) refused++;
      else differ++;
      console.log(
        `${alike ? "refused alike" : "DIFFERS"}  ${dir} (exit ${ra.code} vs ${rb.code}: ${(rb.stderr || ra.stderr).trim().split("\n")[0]})`,
      );
      continue;
    }
    const changed = differences(a, b);
    if (changed.length === 0) {
      same++;
      console.log(`identical  ${dir} (${files(b).length} files)`);
    } else {
      differ++;
      console.log(
        `DIFFERS    ${dir}: ${changed.length} files, e.g. ${changed.slice(0, 5).join(", ")}`,
      );
    }
  }
  console.log(`${same} identical, ${differ} differing, ${refused} refused by both`);
  if (times > 0) {
    const schema = join(ROOT, "schema");
    /** @param {string} root */
    const timeOf = (root) => {
      const samples = [];
      for (let n = 0; n < times; n++) {
        const out = join(scratch, `time-${n}`);
        const start = performance.now();
        generate(root, schema, out);
        samples.push(performance.now() - start);
        rmSync(out, { recursive: true, force: true });
      }
      return samples;
    };
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    const before = timeOf(base);
    const after = timeOf(ROOT);
    console.log(
      `generate schema/: ${baseRef} median ${median(before).toFixed(0)} ms [${before.map((t) => t.toFixed(0)).join(", ")}], ` +
        `this checkout median ${median(after).toFixed(0)} ms [${after.map((t) => t.toFixed(0)).join(", ")}] ` +
        `(load average before: ${load}, after: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")})`,
    );
  }
} finally {
  if (!keep) {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(base, { recursive: true, force: true });
  } else console.log(`kept ${base} and ${scratch}`);
}
process.exitCode = differ > 0 ? 1 : 0;
