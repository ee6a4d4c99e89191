// The agent side of the runtime benchmark, in a child process speaking ACP on stdio:
//   node runtime-agent.mjs --impl ours|sdk|floor --payload small|large|diff [--pkg DIR]
// Every `session/prompt` whose text is `stream N` is answered after N `session/update`s of the
// payload, each awaited as an agent's code awaits them; any other prompt is answered at once.
// The web streams come from Node's own adapters (Writable.toWeb, Readable.toWeb) for all three
// implementations, as a user of any of them would write it.

import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { flag, PAYLOADS, parsePrompt, rawLines, rawWriter } from "./runtime-workloads.mjs";

/** @typedef {{ sessionId: string, prompt?: Array<{ text?: string }> }} PromptParams */

const impl = flag("impl");
const update = PAYLOADS[/** @type {keyof typeof PAYLOADS} */ (flag("payload", "small"))]();
const output = /** @type {WritableStream<Uint8Array>} */ (Writable.toWeb(process.stdout));
const input = /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(process.stdin));
const END_TURN = /** @type {const} */ ({ stopReason: "end_turn" });

if (impl === "ours") {
  const acp = await import(pathToFileURL(`${flag("pkg")}/v1/index.js`).href);
  new acp.AgentSideConnection(
    (/** @type {{ client: { sessionUpdate(params: unknown): Promise<void> } }} */ conn) => ({
      initialize: () => ({ protocolVersion: 1 }),
      sessionNew: () => ({ sessionId: "s" }),
      async sessionPrompt(/** @type {PromptParams} */ params) {
        const { stream } = parsePrompt(params);
        for (let i = 0; i < stream; i++)
          await conn.client.sessionUpdate({ sessionId: params.sessionId, update });
        return END_TURN;
      },
      sessionCancel: () => {},
    }),
    acp.ndJsonStream(output, input),
  );
} else if (impl === "sdk") {
  const sdk = await import("@agentclientprotocol/sdk");
  sdk
    .agent({ name: "bench-agent" })
    .onRequest(sdk.methods.agent.session.prompt, async ({ params, client }) => {
      const { stream } = parsePrompt(params);
      for (let i = 0; i < stream; i++)
        await client.notify("session/update", { sessionId: params.sessionId, update });
      return END_TURN;
    })
    .connect(sdk.ndJsonStream(output, input));
} else if (impl === "floor") {
  const write = rawWriter(output);
  for await (const message of rawLines(input)) {
    if (message.method !== "session/prompt") continue;
    const { stream } = parsePrompt(message.params);
    const notification = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: message.params.sessionId, update },
    };
    for (let i = 0; i < stream; i++) await write(notification);
    await write({ jsonrpc: "2.0", id: message.id, result: END_TURN });
  }
} else {
  throw new Error(`unknown --impl ${impl}`);
}
