// A minimal ACP client: starts an agent, opens a session, sends one prompt, prints the reply.
// Run: `npx tsx docs/examples/minimal-client.ts [agent command...]`; without a command it
// starts minimal-agent.ts. In your own project, import from your generated package instead.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  ClientSideConnection,
  isSessionUpdateOf,
  ndJsonStream,
  PROTOCOL_VERSION,
} from "../../generated/v1/index.js";

const exampleAgent = fileURLToPath(new URL("minimal-agent.ts", import.meta.url));
const [command = "", ...args] =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [process.execPath, "--import", "tsx", exampleAgent];
const agentProcess = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

const connection = new ClientSideConnection(
  () => ({
    sessionUpdate({ update }) {
      if (isSessionUpdateOf(update, "agent_message_chunk") && update.content.type === "text") {
        process.stdout.write(update.content.text);
      }
    },
    // This client has no user to ask: it declines every tool call.
    sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
  }),
  ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout)),
);

const { agent } = connection;
const { protocolVersion } = await agent.initialize({
  protocolVersion: PROTOCOL_VERSION,
  clientCapabilities: {},
});
console.log(`[agent speaks ACP v${protocolVersion}]`);
const { sessionId } = await agent.sessionNew({ cwd: process.cwd(), mcpServers: [] });
const { stopReason } = await agent.sessionPrompt({
  sessionId,
  prompt: [{ type: "text", text: "Hello, agent!" }],
});
console.log(`\n[stop reason: ${stopReason}]`);
// Closing ends the agent's stdin; it exits, and so does this process.
connection.close();
