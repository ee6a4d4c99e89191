import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "../../generator/cli.js";
import { ROOT } from "../../generator/paths.js";

import { SCHEMA_DIR } from "./surfaces.js";

export { SCHEMA_DIR };
/**
 * Copies of the releases in shared/schema-history and of upstream commit 788fdeda (the schema
 * vendored before SDK 2.4.0's), so the suite needs nothing outside the repo.
 */
export const HISTORY_DIR = join(ROOT, "test", "fixtures", "history");
export const RELEASES_DIR = join(ROOT, "test", "fixtures", "releases");
/** The oldest npm releases and the upstream tags with gaps of their own (see its README). */
export const ERAS_DIR = join(ROOT, "test", "fixtures", "eras");

/**
 * Every release the suite holds, as `[label, folder]`: the vendored schema, the history, the
 * SDK's; with `eras`, the oldest ones too. A folder whose schema files are byte for byte an
 * earlier one's (the vendored schema is a release's) is listed once, under the first label.
 */
export function heldReleases(options: { eras?: boolean } = {}): Array<[string, string]> {
  const folders = (dir: string, label: string): Array<[string, string]> =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e): [string, string] => [`${label}${e.name}`, join(dir, e.name)]);
  const all: Array<[string, string]> = [
    ["vendored", SCHEMA_DIR],
    ...folders(HISTORY_DIR, "history "),
    ...folders(RELEASES_DIR, "sdk "),
    ...(options.eras ? folders(ERAS_DIR, "era ") : []),
  ];
  const seen = new Set<string>();
  return all.filter(([, dir]) => {
    const hash = schemaFilesHash(dir);
    if (seen.has(hash)) return false;
    seen.add(hash);
    return true;
  });
}

/** The schema files of a release folder (every `*.json` but fetch's record), hashed together. */
function schemaFilesHash(dir: string): string {
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
  return hash.digest("hex");
}

export interface CliRun {
  code: number;
  stdout: string[];
  stderr: string[];
}

/** Run the CLI in-process, capturing what it prints. */
export async function cli(...args: string[]): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(
    args,
    (l) => {
      stdout.push(l);
    },
    (l) => {
      stderr.push(l);
    },
  );
  return { code, stdout, stderr };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `acp-codegen-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Import one surface's entry module of a generated package. */
export async function importSurface(
  outDir: string,
  surfaceId: string,
): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(join(outDir, surfaceId, "index.js")).href)) as Record<
    string,
    unknown
  >;
}

/**
 * Type-check every `.d.ts` under the given package folders in one TypeScript 7 run, as a
 * strict consumer would (skipLibCheck off, lib es2020, no dom, no @types/node).
 * Returns the compiler's output: empty when clean.
 */
export function typeCheckDeclarations(
  workDir: string,
  packageDirs: string[],
): { status: number | null; output: string } {
  const tsconfig = join(workDir, "tsconfig.declarations.json");
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        lib: ["es2020"],
        types: [],
        module: "nodenext",
        moduleResolution: "nodenext",
      },
      include: packageDirs.map((dir) => `${dir}/**/*.d.ts`),
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig],
    { encoding: "utf8" },
  );
  return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };
}
