import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "../../generator/cli.js";
import { ROOT } from "../../generator/paths.js";

import { SCHEMA_DIR } from "./surfaces.js";

export { SCHEMA_DIR };
/** Copies of the three releases in shared/schema-history, so the suite needs nothing outside the repo. */
export const HISTORY_DIR = join(ROOT, "test", "fixtures", "history");
export const RELEASES_DIR = join(ROOT, "test", "fixtures", "releases");
/** The oldest npm releases and the upstream tags with gaps of their own (see its README). */
export const ERAS_DIR = join(ROOT, "test", "fixtures", "eras");

/** Every release the suite holds, as `[label, folder]`: the vendored schema, the history, the SDK's. */
export function heldReleases(): Array<[string, string]> {
  return [
    ["vendored", SCHEMA_DIR],
    ...readdirSync(HISTORY_DIR).map((v): [string, string] => [
      `history ${v}`,
      join(HISTORY_DIR, v),
    ]),
    ...readdirSync(RELEASES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e): [string, string] => [`sdk ${e.name}`, join(RELEASES_DIR, e.name)]),
  ];
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
