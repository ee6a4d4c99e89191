import { afterEach, describe, expect, it } from "vitest";
import { type ClientOutput, expectFullScenario } from "./expect-scenario.js";
import { CANCEL_PROMPT } from "./fixtures/scenario.js";
import { OUR_AGENT, OUR_CLIENT, run, stopAll } from "./support.js";

afterEach(stopAll);

describe("a full prompt turn between two processes over stdio", { timeout: 30_000 }, () => {
  it(`runs initialize → session/new → a full turn → a turn cancelled with session/cancel ("${CANCEL_PROMPT}")`, async () => {
    const result = await run([...OUR_CLIENT, ...OUR_AGENT]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expectFullScenario(JSON.parse(result.stdout) as ClientOutput);
  });
});
