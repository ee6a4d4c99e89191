import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTree } from "../../generator/output/write.js";
import { ROOT } from "../../generator/paths.js";
import { otherNodes } from "../support/node-versions.js";
import { tempDir } from "../support/run.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * The Node.js releases users run, beside the one running the suite: `generate` writes the same
 * bytes on each, and what the README says about them holds. (The package's own tests run on
 * each through tools/test/run.mjs.)
 */
const work = tempDir("node-versions");
afterAll(() => work.remove());
const nodes = otherNodes();
const BIN = join(ROOT, "bin", "acp-codegen.js");

describe("Node.js releases", () => {
  it("are the release lines users run: 22 and 24 beside this one", () => {
    expect(nodes.map((n) => n.major).sort()).toEqual([22, 24]);
    for (const { major, bin } of nodes)
      expect(spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout).toMatch(
        new RegExp(`^v${major}\\.`),
      );
  });

  it.each(nodes.map((n) => [n.major, n.bin] as const))(
    "generate on Node.js %i writes the test package byte for byte",
    { timeout: 180_000 },
    (major, bin) => {
      const out = join(work.path, `node-${major}`);
      const run = spawnSync(
        bin,
        [BIN, "generate", "--schema-dir", join(ROOT, "schema"), "--out", out, "--quiet"],
        { encoding: "utf8" },
      );
      expect(run.stderr.split("\n").filter((l) => l && !l.startsWith("warning: "))).toEqual([]);
      expect(run.status).toBe(0);
      expect(readTree(out)).toEqual(readTree(TEST_PACKAGE));
    },
  );

  /**
   * The README says which releases need the Node entry's own stream handling: `Writable.toWeb`
   * throws an uncaught TypeError there when the application ends the stream while a write is
   * in flight and the connection then closes (test/stubs/close.test.ts runs the helpers
   * through the same steps on every release).
   */
  it.each([
    [process.versions.node, process.execPath] as const,
    ...nodes.map((n) => [String(n.major), n.bin] as const),
  ])("Node.js %s: Writable.toWeb is as the README says", { timeout: 60_000 }, (version, bin) => {
    const fixture = join(ROOT, "test", "stubs", "fixtures", "close-then-end.ts");
    const run = spawnSync(bin, ["--import", "tsx", fixture, "--web-adapters-in-flight"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const crashes = Number.parseInt(version, 10) < 24;
    if (crashes) {
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/TypeError: Cannot read properties of undefined/);
    } else {
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout)).toEqual({ sum: 5, childExit: 0 });
    }
  });
});
