import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { tempDir } from "../support/run.js";
import { run, stopAll, TS_NODE } from "./support.js";

const EXAMPLES = join(ROOT, "docs", "examples");
const AGENT = join(EXAMPLES, "minimal-agent.ts");
const CLIENT = join(EXAMPLES, "minimal-client.ts");
const work = tempDir("examples");
afterEach(stopAll);
afterAll(() => work.remove());

describe("docs/examples", { timeout: 30_000 }, () => {
  it("the minimal client and agent talk over stdio, as written", async () => {
    const result = await run([...TS_NODE, CLIENT]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      "[agent speaks ACP v1]\nYou said: Hello, agent! \n[stop reason: end_turn]\n",
    );
    expect(result.code).toBe(0);
  });

  it("stay minimal: under 60 lines each", () => {
    for (const file of [AGENT, CLIENT])
      expect(readFileSync(file, "utf8").split("\n").length, file).toBeLessThan(60);
  });

  it("type-check under strict settings", () => {
    const config = join(work.path, "tsconfig.json");
    const compilerOptions = {
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
    writeFileSync(config, JSON.stringify({ compilerOptions, files: [AGENT, CLIENT] }));
    const result = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config],
      { encoding: "utf8" },
    );
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });
});
