// The agent process of the remote-transport benchmark: ours (AcpServer behind our Node adapters,
// serving our AgentSideConnection) or the official SDK's (its AcpServer behind its Node
// adapters, serving its agent app), on one Node http.Server with WebSocket upgrades through
// `ws`; or, with --stdio, our agent on this process's stdin and stdout, for the floor. Every
// prompt streams `--updates` session/update notifications (each awaited, so a slow client
// slows the agent) and ends the turn.
//
// Prints one JSON line when ready (`{ url }`), and on SIGTERM or when stdin ends, one with its
// CPU time and peak RSS since it was ready, then exits.
//
//   node bench/lib/remote-agent.mjs --impl ours|sdk --pkg DIR --updates N [--payload BYTES] [--stdio]

import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { WebSocketServer } from "ws";

const { values: args } = parseArgs({
  options: {
    impl: { type: "string", default: "ours" },
    pkg: { type: "string" },
    updates: { type: "string", default: "50" },
    payload: { type: "string", default: "100" },
    stdio: { type: "boolean", default: false },
  },
});
const UPDATES = Number(args.updates);
const TEXT = "x".repeat(Number(args.payload));
const load = (/** @type {string} */ entry) =>
  import(pathToFileURL(join(String(args.pkg), entry, "index.js")).href);

/** The agent's handlers on `stream`, built on the generated package. */
async function ourAgent() {
  const acp = await load("v1");
  let sessions = 0;
  /** @param {unknown} stream */
  return (stream) =>
    new acp.AgentSideConnection(
      (/** @type {any} */ conn) => ({
        initialize: () => ({ protocolVersion: acp.PROTOCOL_VERSION }),
        sessionNew: () => ({ sessionId: `session-${++sessions}` }),
        async sessionPrompt(/** @type {{ sessionId: string }} */ { sessionId }) {
          for (let i = 0; i < UPDATES; i++)
            await conn.client.sessionUpdate({
              sessionId,
              update: {
                sessionUpdate: "agent_message_chunk",
                content: { type: "text", text: TEXT },
              },
            });
          return { stopReason: "end_turn" };
        },
        sessionCancel: () => {},
      }),
      stream,
      { log: () => {} },
    );
}

/** The SDK's agent app, a fresh one per connection. */
async function sdkAgent() {
  const sdk = await import("@agentclientprotocol/sdk");
  let sessions = 0;
  return () =>
    sdk
      .agent({ name: "bench-agent" })
      .onRequest(sdk.methods.agent.initialize, () => ({ protocolVersion: 1 }))
      .onRequest(sdk.methods.agent.session.new, () => ({ sessionId: `session-${++sessions}` }))
      .onRequest(sdk.methods.agent.session.prompt, async ({ params, client }) => {
        for (let i = 0; i < UPDATES; i++)
          await client.notify("session/update", {
            sessionId: params.sessionId,
            update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: TEXT } },
          });
        return { stopReason: "end_turn" };
      })
      .onNotification(sdk.methods.agent.session.cancel, () => {});
}

/** Taken once the server is ready: what serving costs, without start-up. */
let cpuAtStart = process.cpuUsage();
/** CPU since ready (ms) and the peak RSS (MB), as the last line. */
function report() {
  const cpu = process.cpuUsage(cpuAtStart);
  process.stdout.write(
    `${JSON.stringify({
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  );
  process.exit(0);
}

if (args.stdio) {
  const node = await load("node");
  (await ourAgent())(node.stdio());
} else {
  /** @type {(req: any, res: any) => void} */
  let onRequest;
  /** @type {(req: any, socket: any, head: any) => void} */
  let onUpgrade;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  if (args.impl === "ours") {
    const remote = await load("remote");
    const node = await load("node");
    const agent = await ourAgent();
    const server = new remote.AcpServer({ connect: agent, log: () => {} });
    onRequest = node.createNodeHttpHandler(server);
    onUpgrade = node.createNodeWebSocketUpgradeHandler(server, wss, { heartbeatMs: 0 });
  } else {
    const { AcpServer } = await import("@agentclientprotocol/sdk/experimental/server");
    const adapters = await import("@agentclientprotocol/sdk/experimental/node");
    const createAgent = await sdkAgent();
    const server = new AcpServer({ createAgent });
    onRequest = adapters.createNodeHttpHandler(server);
    onUpgrade = adapters.createNodeWebSocketUpgradeHandler(server, /** @type {any} */ (wss));
  }
  const http = createServer(onRequest);
  http.on("upgrade", onUpgrade);
  http.keepAliveTimeout = 60_000;
  await new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  cpuAtStart = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/acp` })}\n`);
  process.on("SIGTERM", report);
  process.stdin.on("end", report);
  process.stdin.resume();
}
