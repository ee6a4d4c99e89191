// Install, type-check and run in consumer projects: see test/consumers (the full matrix).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, SCHEMA_DIR, tempDir } from "./support/run.js";

const NAME = "@acp-codegen-test/protocol";
const work = tempDir("install");
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

describe("the packed package", () => {
  it("contains what package.json exports and nothing from the repository", () => {
    const listing = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    expect(listing).toContain("package/v1/index.js");
    expect(listing).toContain("package/v2/unstable/index.d.ts");
    expect(listing).toContain("package/runtime/index.js");
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
});
