import { expect } from "vitest";
import { EDITED, FILE, TEST_OUTPUT, type Transcript } from "./fixtures/scenario.js";

/** What the scenario's client processes print. */
export interface ClientOutput {
  transcript: Transcript;
  agentExitCode: number | null;
}

/** Everything the scenario must show, from the client's side of the wire. */
export function expectFullScenario({ transcript, agentExitCode }: ClientOutput): void {
  expect(transcript.protocolVersion).toBe(1);
  expect(transcript.stopReasons).toEqual(["end_turn", "cancelled"]);

  const kinds = (turn: number) =>
    transcript.updates
      .filter((u) => u.turn === turn)
      .map((u) => (u.update as { sessionUpdate: string }).sessionUpdate);
  // Every update of a turn was handled before that turn's prompt call returned.
  expect(kinds(1)).toEqual([
    "agent_thought_chunk",
    "agent_message_chunk",
    "plan",
    "tool_call",
    "tool_call_update",
    "plan",
    "tool_call",
    "tool_call_update",
    "plan",
    "agent_message_chunk",
  ]);
  expect(kinds(2)).toEqual([
    "agent_message_chunk",
    "tool_call",
    "tool_call_update",
    "agent_message_chunk",
  ]);

  const updates = transcript.updates.map((u) => u.update);
  expect(updates).toContainEqual({
    sessionUpdate: "tool_call_update",
    toolCallId: "call-1",
    status: "completed",
    content: [{ type: "diff", path: FILE, oldText: "hello\nworld 🌍\n", newText: EDITED }],
  });
  expect(updates).toContainEqual(
    expect.objectContaining({
      sessionUpdate: "tool_call",
      content: [{ type: "terminal", terminalId: "term-1" }],
    }),
  );
  expect(updates).toContainEqual({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: `Done: ${TEST_OUTPUT.trim()}.` },
  });
  expect(updates.at(-1)).toEqual({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: "Stopped (cancelled)." },
  });

  expect(transcript.permissions).toEqual([
    { turn: 1, toolCallId: "call-1", options: ["allow", "reject"] },
    { turn: 2, toolCallId: "call-3", options: ["allow"] },
  ]);
  expect(transcript.calls).toEqual([
    `read ${FILE}`,
    `write ${FILE}`,
    "terminal/create npm test",
    "terminal/wait_for_exit term-1",
    "terminal/output term-1",
    "terminal/release term-1",
  ]);
  expect(transcript.files).toEqual({ [FILE]: EDITED });
  // The agent process ended by itself once the client closed the connection.
  expect(agentExitCode).toBe(0);
}
