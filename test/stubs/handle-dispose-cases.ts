/**
 * `await using` on a terminal handle, where the consumer's set-up declares
 * `Symbol.asyncDispose` (handle-types.test.ts compiles this under such set-ups; the plain
 * ES2020 ones in types.test.ts check that the handle type still compiles without it).
 */
import type * as stable from "../../.test-package/package/v1/index.js";

declare const agentSide: stable.AgentSideConnection;

export async function runTests(): Promise<string> {
  await using terminal = await agentSide.client.terminalCreate({ sessionId: "s", command: "npm" });
  const { output } = await terminal.output();
  return output;
}
