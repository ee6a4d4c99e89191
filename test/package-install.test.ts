import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../generator/paths.js";
import { cli, SCHEMA_DIR, tempDir } from "./support/run.js";

const NAME = "@acp-codegen-test/protocol";
const work = tempDir("install");
const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
let tarball = "";

beforeAll(async () => {
  const out = join(work.path, "package");
  expect(
    (await cli("generate", "--schema-dir", SCHEMA_DIR, "--out", out, "--name", NAME, "--quiet"))
      .code,
  ).toBe(0);
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", work.path], {
    cwd: out,
    encoding: "utf8",
  }).trim();
  tarball = join(work.path, packed.split("\n").pop() ?? "");
}, 120_000);
afterAll(() => work.remove());

function project(name: string, compilerOptions: Record<string, unknown>): string {
  const dir = join(work.path, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: "module" }),
  );
  execFileSync("npm", ["install", "--silent", "--no-audit", "--no-fund", "--offline", tarball], {
    cwd: dir,
  });
  const source = readFileSync(join(ROOT, "test", "consumer", "consumer.ts.txt"), "utf8").replaceAll(
    '"PKG',
    `"${NAME}`,
  );
  writeFileSync(join(dir, "consumer.ts"), source);
  const base = {
    strict: true,
    skipLibCheck: false,
    lib: ["es2020"],
    types: [],
    target: "es2020",
    outDir: "out",
    noEmitOnError: true,
  };
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...base, ...compilerOptions }, files: ["consumer.ts"] }),
  );
  return dir;
}

describe("the packed package", () => {
  it("contains what package.json exports and nothing from the repository", () => {
    const listing = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    expect(listing).toContain("package/v1/index.js");
    expect(listing).toContain("package/v2/unstable/index.d.ts");
    expect(listing).toContain("package/runtime/validation.js");
    expect(listing.some((f) => f.includes("node_modules") || f.endsWith(".ts.txt"))).toBe(false);
    const pkg = JSON.parse(
      execFileSync("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" }),
    );
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.sideEffects).toBe(false);
    for (const target of Object.values(pkg.exports) as Array<
      string | { types: string; default: string }
    >) {
      const paths = typeof target === "string" ? [target] : [target.types, target.default];
      for (const p of paths) expect(listing, p).toContain(`package/${p.slice(2)}`);
    }
  });

  it.each([
    ["nodenext", { module: "nodenext", moduleResolution: "nodenext" }],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ])("installs, type-checks strictly and runs (moduleResolution %s)", (name, options) => {
    const dir = project(name, options);
    const compiled = spawnSync(process.execPath, [tsc, "-p", "."], { cwd: dir, encoding: "utf8" });
    expect(compiled.stdout).toBe("");
    expect(compiled.status).toBe(0);
    expect(readdirSync(join(dir, "out"))).toContain("consumer.js");
    const output = JSON.parse(
      execFileSync(process.execPath, [join(dir, "out", "consumer.js")], {
        cwd: dir,
        encoding: "utf8",
      }),
    );
    expect(output).toEqual({
      initialize: true,
      content: true,
      result: true,
      providers: true,
      v2: 2,
      v2Unstable: true,
      badVersion: false,
      session: "plan",
      agentMethods: "session/new",
    });
  });
});
