// The client process of the remote-transport benchmark: `--clients` concurrent clients, each
// opening its own connection, one session and one prompt turn, all started at once; prints the
// wall time until the last turn ended, the longest prompt call alone, this process's CPU time
// and how many updates arrived.
// With --transport stdio it spawns the agent process itself (one client), as an editor would.
//
//   node bench/lib/remote-client.mjs --impl ours|sdk --transport http|ws|stdio --pkg DIR
//     [--url URL] [--clients N] [--agent FILE --updates N --payload BYTES]

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { WebSocket } from "ws";

const { values: args } = parseArgs({
  options: {
    impl: { type: "string", default: "ours" },
    transport: { type: "string", default: "http" },
    pkg: { type: "string" },
    url: { type: "string", default: "" },
    clients: { type: "string", default: "1" },
    agent: { type: "string", default: "" },
    updates: { type: "string", default: "50" },
    payload: { type: "string", default: "100" },
  },
});
const load = (/** @type {string} */ entry) =>
  import(pathToFileURL(join(String(args.pkg), entry, "index.js")).href);

/** The longest prompt call of any client (ms): a turn alone, without connecting. */
let promptMs = 0;
/** @param {() => Promise<unknown>} prompt */
async function timed(prompt) {
  const start = process.hrtime.bigint();
  await prompt();
  promptMs = Math.max(promptMs, Number(process.hrtime.bigint() - start) / 1e6);
}

/** One turn with our ClientSideConnection on `stream`; resolves with the updates seen. */
async function ourTurn(/** @type {any} */ acp, /** @type {unknown} */ stream) {
  let updates = 0;
  const conn = new acp.ClientSideConnection(
    () => ({
      sessionUpdate: () => {
        updates++;
      },
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    stream,
    { log: () => {} },
  );
  await conn.agent.initialize({ protocolVersion: acp.PROTOCOL_VERSION });
  const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
  await timed(() =>
    conn.agent.sessionPrompt({ sessionId, prompt: [{ type: "text", text: "go" }] }),
  );
  conn.close();
  await conn.closed;
  return updates;
}

/** One turn with the SDK's client app on `stream`. */
async function sdkTurn(/** @type {any} */ sdk, /** @type {any} */ stream) {
  let updates = 0;
  const app = sdk
    .client({ name: "bench-client" })
    .onNotification(sdk.methods.client.session.update, () => {
      updates++;
    })
    .onRequest(sdk.methods.client.session.requestPermission, () => ({
      outcome: { outcome: "cancelled" },
    }));
  await app.connectWith(stream, async (/** @type {any} */ cx) => {
    await cx.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await cx.request("session/new", { cwd: "/", mcpServers: [] });
    await timed(() =>
      cx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }),
    );
  });
  return updates;
}

/** @type {() => Promise<number>} */
let oneTurn;
if (args.transport === "stdio") {
  const acp = await load("v1");
  const node = await load("node");
  oneTurn = async () => {
    const agent = node.spawnAgent(process.execPath, [
      String(args.agent),
      ...["--impl", "ours", "--pkg", String(args.pkg), "--stdio"],
      ...["--updates", String(args.updates), "--payload", String(args.payload)],
    ]);
    return ourTurn(acp, agent.stream);
  };
} else if (args.impl === "ours") {
  const acp = await load("v1");
  const remote = await load("remote");
  oneTurn = () =>
    ourTurn(
      acp,
      args.transport === "ws"
        ? remote.createWebSocketStream(args.url, { WebSocket })
        : remote.createHttpStream(args.url),
    );
} else {
  const sdk = await import("@agentclientprotocol/sdk");
  const { createHttpStream } = await import("@agentclientprotocol/sdk/experimental/http-client");
  const { createWebSocketStream } = await import("@agentclientprotocol/sdk/experimental/ws-client");
  oneTurn = () =>
    sdkTurn(
      sdk,
      args.transport === "ws"
        ? createWebSocketStream(args.url, { WebSocket: /** @type {any} */ (WebSocket) })
        : createHttpStream(args.url),
    );
}

const cpu = process.cpuUsage();
const start = process.hrtime.bigint();
const counts = await Promise.all(Array.from({ length: Number(args.clients) }, () => oneTurn()));
const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    promptMs,
    cpuMs: (used.user + used.system) / 1000,
    updates: counts.reduce((a, b) => a + b, 0),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
process.exit(0);
