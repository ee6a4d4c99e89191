#!/usr/bin/env node
/**
 * Every schema release on the npm registry, through the whole product: `fetch` it, `generate`
 * a package from it, import every entry point, and type-check a strict consumer of all of
 * them. Releases whose schema files are byte-identical to an earlier one are run once.
 *
 *   node tools/releases/sweep.mjs [--json FILE] [--only PKG@VERSION]...
 *
 * The registry is the user's (this machine's npm configuration). Prints one line per release
 * and exits 1 when any release fails a step; warnings are counted, not failures.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { flagValue, ROOT, run } from "../common/process.mjs";

const CLI = join(ROOT, "bin", "acp-codegen.js");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
/** Every package name the protocol's schema has been published under. */
const PACKAGES = ["@zed-industries/agent-client-protocol", "@agentclientprotocol/sdk"];

const args = process.argv.slice(2);
const jsonOut = flagValue(args, "--json");
const only = args.flatMap((a, i) => (args[i - 1] === "--only" ? [a] : []));

/** @param {string} name */
function versionsOf(name) {
  const r = run("npm", ["view", name, "versions", "--json"]);
  if (r.code !== 0) throw new Error(`npm view ${name}: ${r.stderr.trim()}`);
  return /** @type {string[]} */ (JSON.parse(r.stdout));
}

/** @param {string} dir */
function schemaHash(dir) {
  const hash = createHash("sha256");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".json") && e.name !== "source.json")
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
  for (const f of files)
    hash
      .update(`${f}\n`)
      .update(readFileSync(join(dir, f)))
      .update("\n");
  return hash.digest("hex").slice(0, 12);
}

/** @param {string} out */
function entryPoints(out) {
  const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
  return Object.entries(/** @type {Record<string, unknown>} */ (pkg.exports))
    .filter(([key]) => key !== "./package.json")
    .map(([key, target]) => ({
      key,
      js: /** @type {{ default: string }} */ (target).default,
    }));
}

const work = mkdtempSync(join(tmpdir(), "acp-codegen-sweep-"));
/** @type {Array<{ release: string; schema?: string; sameAs?: string; generate?: string; warnings?: number; imports?: string; typecheck?: string }>} */
const rows = [];
const seen = new Map();
let failed = false;
try {
  const releases = PACKAGES.flatMap((name) => versionsOf(name).map((v) => `${name}@${v}`)).filter(
    (r) => only.length === 0 || only.includes(r),
  );
  for (const release of releases) {
    const slug = release.replace(/\W+/g, "-");
    const schema = join(work, slug, "schema");
    const out = join(work, slug, "package");
    mkdirSync(schema, { recursive: true });
    /** @type {(typeof rows)[number]} */
    const row = { release };
    rows.push(row);
    const fetched = run(process.execPath, [
      CLI,
      "fetch",
      `npm:${release}`,
      "--schema-dir",
      schema,
      "--quiet",
    ]);
    if (fetched.code !== 0) {
      row.schema = `fetch failed: ${fetched.stderr.trim()}`;
      failed = true;
      report(row);
      continue;
    }
    row.schema = schemaHash(schema);
    const earlier = seen.get(row.schema);
    if (earlier) {
      row.sameAs = earlier;
      report(row);
      continue;
    }
    seen.set(row.schema, release);
    const generated = run(process.execPath, [
      CLI,
      "generate",
      "--schema-dir",
      schema,
      "--out",
      out,
    ]);
    row.warnings = generated.stderr.split("\n").filter((l) => l.startsWith("warning: ")).length;
    row.generate =
      generated.code === 0
        ? "ok"
        : `exit ${generated.code}: ${generated.stderr.trim().split("\n").at(-1)}`;
    if (generated.code !== 0) {
      failed = true;
      report(row);
      continue;
    }
    const entries = entryPoints(out);
    const importer = entries
      .map((e) => `await import(${JSON.stringify(pathToFileURL(join(out, e.js)).href)});`)
      .join("\n");
    const imported = run(process.execPath, ["--input-type=module", "-e", importer]);
    row.imports =
      imported.code === 0
        ? `ok (${entries.length})`
        : `failed: ${imported.stderr.trim().split("\n")[0]}`;
    const consumer = join(work, slug, "consumer");
    mkdirSync(join(consumer, "node_modules"), { recursive: true });
    rmSync(join(consumer, "node_modules", "acp-protocol"), { recursive: true, force: true });
    run("ln", ["-s", out, join(consumer, "node_modules", "acp-protocol")]);
    writeFileSync(
      join(consumer, "index.ts"),
      entries
        .map(
          (e, i) =>
            `import * as e${i} from ${JSON.stringify(`acp-protocol${e.key.slice(1)}`)};\nexport { e${i} };`,
        )
        .join("\n"),
    );
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          lib: ["es2022", "dom"],
          types: [],
        },
        files: ["index.ts"],
      }),
    );
    const checked = run(process.execPath, [TSC, "-p", "tsconfig.json"], consumer);
    row.typecheck = checked.code === 0 ? "ok" : `failed: ${checked.stdout.trim().split("\n")[0]}`;
    if (imported.code !== 0 || checked.code !== 0) failed = true;
    rmSync(join(work, slug, "consumer"), { recursive: true, force: true });
    report(row);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const distinct = rows.filter((r) => r.generate !== undefined).length;
console.log(
  `${rows.length} releases, ${distinct} distinct schemas, ${failed ? "some failed" : "all passed"}`,
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 2)}\n`);
process.exit(failed ? 1 : 0);

/** @param {(typeof rows)[number]} row */
function report(row) {
  const steps = row.sameAs
    ? `same schema as ${row.sameAs}`
    : [
        `generate ${row.generate ?? "-"}${row.warnings ? ` (${row.warnings} warnings)` : ""}`,
        `import ${row.imports ?? "-"}`,
        `tsc ${row.typecheck ?? "-"}`,
      ].join(", ");
  console.log(`${row.release.padEnd(48)} ${row.schema ?? ""}  ${steps}`);
}
