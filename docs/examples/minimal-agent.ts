// A minimal ACP agent over stdio: answers each prompt by streaming it back, word by word.
// Run it from an ACP client (see minimal-client.ts): `npx tsx docs/examples/minimal-agent.ts`.
// In your own project, import from your generated package instead of ../../generated/v1.
import { Readable, Writable } from "node:stream";
import {
  AgentSideConnection,
  isContentBlockOf,
  ndJsonStream,
  PROTOCOL_VERSION,
} from "../../generated/v1/index.js";

// stdout carries the protocol: log with console.error only.
const stream = ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));

new AgentSideConnection((connection) => {
  const turns = new Map<string, AbortController>();
  let sessions = 0;
  return {
    initialize: () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }),
    sessionNew: () => ({ sessionId: `session-${++sessions}` }),
    async sessionPrompt({ sessionId, prompt }) {
      const turn = new AbortController();
      turns.set(sessionId, turn);
      const words = prompt.flatMap((block) =>
        isContentBlockOf(block, "text") ? block.text.split(/\s+/) : [],
      );
      for (const word of ["You", "said:", ...words]) {
        // session/cancel ends the turn early, with stopReason "cancelled".
        if (turn.signal.aborted) return { stopReason: "cancelled" };
        await connection.client.sessionUpdate({
          sessionId,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `${word} ` },
          },
        });
      }
      return { stopReason: "end_turn" };
    },
    sessionCancel: ({ sessionId }) => turns.get(sessionId)?.abort(),
  };
}, stream);
