// A client on the session layer: renders a session's plan and tool calls, then cancels a
// turn whose agent ignores session/cancel. Run: `npx tsx docs/examples/session-client.ts`.
import { fileURLToPath } from "node:url";
import { spawnAgent } from "../../generated/node/index.js";
import {
  ClientSideConnection,
  isSessionUpdateOf,
  PROTOCOL_VERSION,
  type SessionState,
  TurnAbandonedError,
} from "../../generated/v1/index.js";

const example = fileURLToPath(new URL("session-agent.ts", import.meta.url));
const agent = spawnAgent(process.execPath, ["--import", "tsx", example]);
const conn = new ClientSideConnection(
  () => ({
    sessionUpdate: () => {},
    sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
  }),
  agent.stream,
  { cancelGraceMs: 500, log: () => {} },
);
await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
const session = await conn.session({ cwd: process.cwd(), mcpServers: [] });

/** What an editor draws from the session's state: the plan, then every tool call. */
const render = ({ plan, toolCalls }: SessionState) => [
  ...(plan?.entries ?? []).map(
    (step) => `[${step.status === "completed" ? "x" : " "}] ${step.content}`,
  ),
  ...[...toolCalls.values()].map((call) => `${call.title}: ${call.status}`),
];

const turn = session.prompt("tidy up");
for await (const update of turn)
  if (isSessionUpdateOf(update, "tool_call")) console.log(`tool call: ${update.title}`);
console.log([...render(session.state), `${await turn.text()} (${turn.stopReason})`].join("\n"));

const thinking = session.prompt("think hard");
try {
  for await (const _ of thinking) thinking.cancel(); // the user pressed Stop at its first update
} catch (error) {
  // The agent ignored session/cancel: the turn settled anyway, after cancelGraceMs.
  if (error instanceof TurnAbandonedError) console.log(error.message);
}
conn.close();
