import { spawn } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../generator/paths.js";
import { tempDir } from "./support/run.js";

/**
 * `npm run build` (tools/build/build.mjs) in a scratch copy of the project: dist/ stays whole
 * while it builds, so the CLI never disappears from under a person or a script running it
 * (`npm test` builds first); a failed build leaves the previous dist/ as it was.
 */

const work = tempDir("build");
const project = join(work.path, "project");
const dist = join(project, "dist");
const CLI = join(dist, "generator", "cli.js");

beforeAll(() => {
  mkdirSync(project);
  for (const entry of ["generator", "templates", "tools", "package.json"])
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true });
  for (const entry of readdirSync(ROOT).filter((f) => /^tsconfig.*\.json$/.test(f)))
    cpSync(join(ROOT, entry), join(project, entry));
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
  // The dist/ an earlier build made.
  cpSync(join(ROOT, "dist"), dist, { recursive: true });
});
afterAll(() => work.remove());

/** Run the build; meanwhile, note every moment the CLI's entry module was missing. */
async function build(): Promise<{ code: number | null; output: string; missing: number }> {
  const child = spawn(process.execPath, [join(project, "tools", "build", "build.mjs")], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // tsc reports on stdout, the rest on stderr.
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let missing = 0;
  const watch = setInterval(() => {
    if (!existsSync(CLI)) missing++;
  }, 2);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(watch);
  return { code, output, missing };
}

const staging = () => readdirSync(project).filter((f) => f.startsWith(".build-"));

describe("npm run build", { timeout: 180_000 }, () => {
  it("swaps the new dist/ in: the CLI is there throughout, and the new code after", async () => {
    appendFileSync(join(project, "generator", "paths.ts"), 'export const BUILD_MARK = "new";\n');
    const run = await build();
    expect(run.code, run.output).toBe(0);
    expect(run.missing).toBe(0);
    expect(readFileSync(join(dist, "generator", "paths.js"), "utf8")).toContain("BUILD_MARK");
    expect(existsSync(join(dist, "runtime-bundle", "index.js"))).toBe(true);
    // Where esbuild's path comments point does not depend on the staging folder.
    expect(readFileSync(join(dist, "runtime-bundle", "index.js"), "utf8")).toMatch(
      /^\/\/ dist\/runtime\//m,
    );
    expect(staging()).toEqual([]);
  });

  it("a failed build leaves dist/ as it was, and a dead build's staging folder is removed", async () => {
    const before = readFileSync(CLI, "utf8");
    // A staging folder whose build is gone (no process has this id).
    mkdirSync(join(project, ".build-2147483646", "dist"), { recursive: true });
    const source = join(project, "generator", "cli.ts");
    const intact = readFileSync(source, "utf8");
    writeFileSync(source, `${intact}export const broken: number = "no";\n`);
    const run = await build().finally(() => writeFileSync(source, intact));
    expect(run.code).not.toBe(0);
    expect(run.output).toContain("generator/cli.ts");
    expect(run.missing).toBe(0);
    expect(readFileSync(CLI, "utf8")).toBe(before);
    expect(staging()).toEqual([]);
  });
});
