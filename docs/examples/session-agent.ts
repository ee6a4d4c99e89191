// The agent of the session example (session-client.ts), over stdio. "tidy up" plans two
// steps and runs the first as a tool call; "think hard" thinks, and ignores session/cancel,
// as some agents in the field do. Run it from session-client.ts.
import { stdio } from "../../generated/node/index.js";
import {
  AgentSideConnection,
  isContentBlockOf,
  PROTOCOL_VERSION,
  type SessionUpdate,
} from "../../generated/v1/index.js";

new AgentSideConnection((connection) => {
  let sessions = 0;
  return {
    initialize: () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }),
    sessionNew: () => ({ sessionId: `session-${++sessions}` }),
    async sessionPrompt({ sessionId, prompt }) {
      const send = (update: SessionUpdate) =>
        connection.client.sessionUpdate({ sessionId, update });
      const plan = (first: "pending" | "completed") =>
        send({
          sessionUpdate: "plan",
          entries: [
            { content: "Sort the imports", priority: "high", status: first },
            { content: "Run the tests", priority: "medium", status: "pending" },
          ],
        });
      const first = prompt[0];
      if (isContentBlockOf(first, "text") && first.text === "think hard") {
        await send({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: "Hmm…" },
        });
        return new Promise(() => {}); // never answers, cancelled or not
      }
      await plan("pending");
      await send({
        sessionUpdate: "tool_call",
        toolCallId: "sort",
        title: "Sort the imports",
        kind: "edit",
        status: "pending",
      });
      await send({ sessionUpdate: "tool_call_update", toolCallId: "sort", status: "in_progress" });
      await send({ sessionUpdate: "tool_call_update", toolCallId: "sort", status: "completed" });
      await plan("completed");
      await send({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "Imports sorted." },
      });
      return { stopReason: "end_turn" };
    },
    sessionCancel: () => {},
  };
}, stdio());
