#!/usr/bin/env node
// `npm run build`, after tsc has compiled templates/runtime to dist/runtime/: the runtime as the
// generated package ships its JavaScript, one module for the web-platform runtime
// (dist/runtime-bundle/index.js) and one for the Node helpers (node.js, which imports the other).
//
// Why: Node loads every ES module file on its own (resolve, read, compile, link: about half a
// millisecond each on this project's machines), so the eighteen small runtime files cost a cold
// import of an entry point more than their code does. esbuild (already the benchmark's bundler)
// joins them, renaming what collides; a consumer's bundler still drops what it does not use.
// Declarations stay one file per module (types cost no load time).

import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const RUNTIME = join(ROOT, "dist", "runtime");
const OUT = join(ROOT, "dist", "runtime-bundle");
// The generator (compiled first) names the two modules: generated code imports them by these names.
const { RUNTIME_MODULE: WEB, RUNTIME_NODE_MODULE: NODE } = await import(
  pathToFileURL(join(ROOT, "dist", "generator", "symbols", "exports.js")).href
);

const modules = readdirSync(RUNTIME)
  .filter((f) => f.endsWith(".js") && f !== NODE)
  .sort();

/** @type {import("esbuild").BuildOptions} */
const common = {
  bundle: true,
  format: "esm",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  logLevel: "error",
  // The path comments esbuild writes name files relative to this: the same on every machine.
  absWorkingDir: ROOT,
  write: true,
};

rmSync(OUT, { recursive: true, force: true });
await build({
  ...common,
  platform: "neutral",
  stdin: {
    contents: modules.map((m) => `export * from "./${m}";`).join("\n"),
    resolveDir: RUNTIME,
    sourcefile: "runtime.js",
    loader: "js",
  },
  outfile: join(OUT, WEB),
});
await build({
  ...common,
  platform: "node",
  entryPoints: [join(RUNTIME, NODE)],
  outfile: join(OUT, NODE),
  plugins: [
    {
      name: "web-runtime-external",
      setup(b) {
        // The Node helpers share the web runtime's one copy: its classes (errors checked with
        // instanceof) and state must not be bundled a second time.
        b.onResolve({ filter: /^\.\/.*\.js$/ }, (args) =>
          args.importer === join(RUNTIME, NODE) ? { path: `./${WEB}`, external: true } : undefined,
        );
      },
    },
  ],
});

// `export *` drops a name two modules export, silently: every module's exports must survive.
const bundled = new Set(Object.keys(await import(pathToFileURL(join(OUT, WEB)).href)));
const missing = [];
for (const m of modules)
  for (const name of Object.keys(await import(pathToFileURL(join(RUNTIME, m)).href)))
    if (!bundled.has(name)) missing.push(`${m}: ${name}`);
if (missing.length > 0) {
  console.error(
    `runtime bundle: exports lost (two modules export one name?): ${missing.join(", ")}`,
  );
  process.exit(1);
}
if (!readFileSync(join(OUT, NODE), "utf8").includes(`from "./${WEB}"`)) {
  console.error(`runtime bundle: ${NODE} does not import the web runtime from ./${WEB}`);
  process.exit(1);
}
