import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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
const SESSION_AGENT = join(EXAMPLES, "session-agent.ts");
const SESSION_CLIENT = join(EXAMPLES, "session-client.ts");

/** The README's session example: its client's code block and the output block after it. */
function readmeSession(): { code: string; output: string } {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const match =
    /```ts\n(\/\/ A client on the session layer[\s\S]*?)```\n\n```text\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error("the README has no session client example");
  return { code: match[1] ?? "", output: match[2] ?? "" };
}
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

  it("the session client renders the plan and tool calls, and cancels a turn the agent ignores, as the README shows", async () => {
    const shown = readmeSession();
    // The README shows the example's code as it is in docs/examples, without its imports' paths.
    expect(shown.code).toBe(
      readFileSync(join(ROOT, "docs", "examples", "session-client.ts"), "utf8")
        .replaceAll("../../generated/node/index.js", "acp-protocol/node")
        .replaceAll("../../generated/v1/index.js", "acp-protocol"),
    );
    const result = await run([...TS_NODE, SESSION_CLIENT]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(shown.output);
    expect(result.code).toBe(0);
  });

  it("type-check under strict settings", () => {
    const result = compileStrict(work.path, [AGENT, CLIENT, SESSION_AGENT, SESSION_CLIENT]);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  });
});
