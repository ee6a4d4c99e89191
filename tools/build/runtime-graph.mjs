#!/usr/bin/env node
// `npm run build` (build.mjs), after tsc has compiled templates/runtime to DIST/runtime/: which
// runtime module's declarations import which, written to DIST/runtime-graph.json for the
// generator (emit/package.ts `withReachableRuntime`), which ships only the declarations an
// entry point reaches. DIST is the folder given as the argument (build.mjs's staging folder),
// else dist/.
//
// Why the compiled declarations and not the sources: a declaration file keeps only the imports
// its declarations name, while a source also imports what its function bodies alone use
// (`connection.ts` imports the arrival queue, whose declarations no consumer's compiler ever
// reads). The graph a consumer's compiler follows is the declarations'. TypeScript's own
// scanner reads them (`preProcessFile`: imports, re-exports, `import("…")` types, reference
// paths), so a specifier is found however the compiler chose to write it. The package's
// `typescript` is the native compiler without a JavaScript API, hence the 5.9 alias.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript-5.9";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = resolve(process.argv[2] ?? join(ROOT, "dist"));
const RUNTIME = join(DIST, "runtime");

/** Runtime module (`parse.js`) → the runtime modules its declarations import, sorted. */
const graph = /** @type {Record<string, string[]>} */ ({});
for (const file of readdirSync(RUNTIME)
  .filter((f) => f.endsWith(".d.ts"))
  .sort()) {
  const module = file.replace(/\.d\.ts$/, ".js");
  const info = ts.preProcessFile(readFileSync(join(RUNTIME, file), "utf8"), true, true);
  const specifiers = [...info.importedFiles, ...info.referencedFiles].map((f) => f.fileName);
  const targets = new Set();
  for (const specifier of specifiers) {
    // A bare specifier is a platform's or a package's types, not a runtime module.
    if (!specifier.startsWith(".")) continue;
    const target = posix.normalize(posix.join(".", specifier)).replace(/\.d\.ts$/, ".js");
    if (target.includes("/"))
      throw new Error(`runtime-graph: ${file} imports ${specifier}, outside the runtime folder`);
    targets.add(target);
  }
  graph[module] = [...targets].sort();
}
writeFileSync(join(DIST, "runtime-graph.json"), `${JSON.stringify(graph, null, 2)}\n`);
