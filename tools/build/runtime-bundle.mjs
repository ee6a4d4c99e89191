#!/usr/bin/env node
// `npm run build` (build.mjs), after tsc has compiled templates/runtime to DIST/runtime/: the
// runtime as the generated package ships its JavaScript, one module for the web-platform runtime
// (DIST/runtime-bundle/index.js), one for the remote transport (remote.js), one for the routers
// (router.js) and one for the Node helpers (node.js), the last three importing the first. DIST is the folder given as the argument
// (build.mjs's staging folder), else dist/.
//
// Why: Node loads every ES module file on its own (resolve, read, compile, link: about half a
// millisecond each on this project's machines), so the eighteen small runtime files cost a cold
// import of an entry point more than their code does. esbuild (already the benchmark's bundler)
// joins them, renaming what collides; a consumer's bundler still drops what it does not use.
// Declarations stay one file per module (types cost no load time).

import { readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = resolve(process.argv[2] ?? join(ROOT, "dist"));
const RUNTIME = join(DIST, "runtime");
const OUT = join(DIST, "runtime-bundle");
// The generator (compiled first) names the modules and says which runtime module goes where:
// generated code imports them by these names.
const {
  RUNTIME_MODULE: WEB,
  RUNTIME_NODE_MODULE: NODE,
  RUNTIME_REMOTE_MODULE: REMOTE,
  RUNTIME_ROUTER_MODULE: ROUTER,
  runtimeBundle,
} = await import(pathToFileURL(join(DIST, "generator", "symbols", "exports.js")).href);

const all = readdirSync(RUNTIME)
  .filter((f) => f.endsWith(".js"))
  .sort();
/** The runtime modules bundled into `bundle`. */
const membersOf = (/** @type {string} */ bundle) => all.filter((m) => runtimeBundle(m) === bundle);

/** @type {import("esbuild").BuildOptions} */
const common = {
  bundle: true,
  format: "esm",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  logLevel: "error",
  // The path comments esbuild writes name files relative to this (`// dist/runtime/…`): the
  // same on every machine, and wherever DIST is, as long as it is named dist.
  absWorkingDir: dirname(DIST),
  write: true,
};

/**
 * The modules of `bundle` as one file. A module of another bundle they import is imported
 * from that bundle: the web module (and the remote one, for the Node helpers) has one copy at
 * run time, whose classes (errors checked with instanceof) and state must not be bundled twice.
 * @param {string} bundle
 * @param {"neutral" | "node"} platform
 */
async function bundleOf(bundle, platform) {
  const members = membersOf(bundle);
  await build({
    ...common,
    platform,
    stdin: {
      contents: members.map((m) => `export * from "./${m}";`).join("\n"),
      resolveDir: RUNTIME,
      sourcefile: `runtime-${bundle}`,
      loader: "js",
    },
    outfile: join(OUT, bundle),
    // Imported only by `serve`, and only when it runs: an optional peer dependency.
    external: ["ws"],
    plugins: [
      {
        name: "other-bundles-external",
        setup(b) {
          b.onResolve({ filter: /^\.\/.*\.js$/ }, (args) => {
            const target = args.path.slice(2);
            const owner = runtimeBundle(target);
            return owner === bundle ? undefined : { path: `./${owner}`, external: true };
          });
        },
      },
    ],
  });
  // `export *` drops a name two modules export, silently: every module's exports must survive.
  const bundled = new Set(Object.keys(await import(pathToFileURL(join(OUT, bundle)).href)));
  const missing = [];
  for (const m of members)
    for (const name of Object.keys(await import(pathToFileURL(join(RUNTIME, m)).href)))
      if (!bundled.has(name)) missing.push(`${m}: ${name}`);
  if (missing.length > 0) {
    console.error(
      `runtime bundle ${bundle}: exports lost (two modules export one name?): ${missing.join(", ")}`,
    );
    process.exit(1);
  }
}

rmSync(OUT, { recursive: true, force: true });
await bundleOf(WEB, "neutral");
await bundleOf(REMOTE, "neutral");
await bundleOf(ROUTER, "neutral");
await bundleOf(NODE, "node");

for (const [bundle, imports] of [
  [NODE, WEB],
  [REMOTE, WEB],
  [ROUTER, WEB],
]) {
  if (!readFileSync(join(OUT, bundle), "utf8").includes(`from "./${imports}"`)) {
    console.error(`runtime bundle: ${bundle} does not import the web runtime from ./${imports}`);
    process.exit(1);
  }
}
