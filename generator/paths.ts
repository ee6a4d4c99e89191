import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The acp-codegen package root, found the same way whether the generator runs compiled
 * (dist/generator/…) or from source under the test runner (generator/…).
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "acp-codegen")
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("acp-codegen: cannot find the package root");
    dir = parent;
  }
}

export const ROOT = findRoot();
export const TEMPLATES_DIR = join(ROOT, "templates");
/** The JSON-RPC and validation runtime, compiled from templates/runtime by `npm run build`. */
export const RUNTIME_DIR = join(ROOT, "dist", "runtime");
/** The runtime's JavaScript as the package ships it, one module each for web and Node (tools/build/runtime-bundle.mjs). */
export const RUNTIME_BUNDLE_DIR = join(ROOT, "dist", "runtime-bundle");
/** Which runtime module's declarations import which (tools/build/runtime-graph.mjs). */
export const RUNTIME_GRAPH = join(ROOT, "dist", "runtime-graph.json");

export const GENERATOR_VERSION: string = JSON.parse(
  readFileSync(join(ROOT, "package.json"), "utf8"),
).version;
