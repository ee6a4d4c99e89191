import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURES, run, stopAll, TS_NODE } from "./support.js";

afterEach(stopAll);

describe("closing a connection to a child process", { timeout: 30_000 }, () => {
  it("survives the application ending the child's stdin right after close()", async () => {
    const result = await run([...TS_NODE, join(FIXTURES, "close-then-end.ts")]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ sum: 5, childExit: 0 });
  });
});
