/**
 * A strict compile of a consumer's files with the repository's TypeScript (7): what the tests
 * of examples, README code and generated packages assert compiles as a user would build it.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

/** The settings a demanding consumer builds with; a test overrides what it is about. */
const STRICT = {
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  noEmit: true,
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules", "@types")],
};

/**
 * Writes `<dir>/<name>` (a tsconfig of `files` with the strict settings and `options` over
 * them) and runs tsc on it: the compiler's whole output (empty when it compiles) and status.
 */
export function compileStrict(
  dir: string,
  files: readonly string[],
  options: Record<string, unknown> = {},
  name = "tsconfig.json",
): { output: string; status: number | null } {
  const config = join(dir, name);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...STRICT, ...options }, files }));
  const result = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config],
    { encoding: "utf8" },
  );
  return { output: `${result.stdout}${result.stderr}`, status: result.status };
}
