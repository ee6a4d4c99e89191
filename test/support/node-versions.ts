import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

const NODES = join(ROOT, "test", "node-versions");

/**
 * The Node.js binaries besides the one running the suite, as test/node-versions/package.json
 * lists them (installed and run by tools/test/run.mjs, that is by `npm test`): by their major
 * version.
 */
export function otherNodes(): Array<{ major: number; bin: string }> {
  const pkg = JSON.parse(readFileSync(join(NODES, "package.json"), "utf8")) as {
    optionalDependencies?: Record<string, string>;
  };
  return Object.entries(pkg.optionalDependencies ?? {}).map(([name, spec]) => {
    const bin = join(NODES, "node_modules", name, "bin", "node");
    if (!existsSync(bin))
      throw new Error(
        `${bin} is missing: npm test installs it (npm --prefix test/node-versions ci)`,
      );
    const major = Number(/@(\d+)\./.exec(spec)?.[1]);
    return { major, bin };
  });
}
