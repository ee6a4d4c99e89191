import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { compileStrict } from "../support/compile.js";
import { tempDir } from "../support/run.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { run, stopAll, TS_NODE } from "./support.js";

/**
 * The examples import `../../generated/v1/index.js`, the committed package. They run here as
 * written, byte for byte, from a copy of docs/examples whose `generated/` is the package
 * generated for this test run.
 */
const work = tempDir("examples");
const EXAMPLES = join(work.path, "docs", "examples");
mkdirSync(EXAMPLES, { recursive: true });
cpSync(join(ROOT, "docs", "examples"), EXAMPLES, { recursive: true });
symlinkSync(TEST_PACKAGE, join(work.path, "generated"), "dir");
// ES modules, as in the repository.
writeFileSync(join(work.path, "package.json"), JSON.stringify({ private: true, type: "module" }));
const AGENT = join(EXAMPLES, "minimal-agent.ts");
const CLIENT = join(EXAMPLES, "minimal-client.ts");
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

  it("type-check under strict settings", () => {
    const result = compileStrict(work.path, [AGENT, CLIENT]);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  });
});
