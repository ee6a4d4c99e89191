import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as sdk from "@agentclientprotocol/sdk";
import { createHttpStream as sdkHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import * as sdk2 from "@agentclientprotocol/sdk/experimental/v2";
import { createWebSocketStream as sdkWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type AgentProcess, spawnAgent } from "../../.test-package/package/node/index.js";
import { clientRouter } from "../../.test-package/package/router/index.js";
import * as v1 from "../../.test-package/package/v1/index.js";
import * as v2 from "../../.test-package/package/v2/index.js";
import { ROOT } from "../../generator/paths.js";

/**
 * Version routing against the official SDK 2.4.0, each side in its own process: one agent
 * process of ours behind `agentRouter` serves the SDK's v1 client and its v2 client
 * (`./experimental/v2`), over stdio and over the remote transport; and our `clientRouter`
 * negotiates down with the SDK's v1-only agent and up with its v2 agent. Every pairing runs
 * a whole prompt turn.
 */

const FIXTURES = join(ROOT, "test", "router", "fixtures");
const TSX = ["--import", "tsx"];
const DUAL_AGENT = [...TSX, join(FIXTURES, "dual-agent.ts")];
const SDK_AGENT = [...TSX, join(FIXTURES, "sdk-agent.ts")];

const processes: Array<{ kill(): void }> = [];
afterEach(() => {
  for (const p of processes.splice(0)) p.kill();
});

function agent(args: readonly string[]): AgentProcess {
  const started = spawnAgent(process.execPath, args, { cwd: ROOT });
  processes.push({ kill: () => started.child.kill() });
  return started;
}

/** Our dual agent serving the remote transport: its URL. */
async function remoteAgent(): Promise<string> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [...DUAL_AGENT, "--serve"],
    {
      cwd: ROOT,
    },
  );
  processes.push({ kill: () => child.kill() });
  let out = "";
  for await (const chunk of child.stdout) {
    out += String(chunk);
    const line = out.split("\n")[0];
    if (out.includes("\n") && line) return line;
  }
  throw new Error(`the agent exited before serving: ${out}`);
}

/** An agent process of `args` and its stdio as web streams, for the SDK's `ndJsonStream`. */
function sdkStdio(args: readonly string[]) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  processes.push({ kill: () => child.kill() });
  // Node types its web streams apart from the DOM's, which the SDK's signature names.
  return {
    output: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    input: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  };
}

/** The SDK's v1 client through one prompt turn: the agent's answer, and what it said. */
async function sdkV1Turn(stream: sdk.Stream) {
  const said: string[] = [];
  const app = sdk
    .client({ name: "sdk-v1-client" })
    .onNotification(sdk.methods.client.session.update, ({ params }) => {
      const { update } = params;
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text")
        said.push(update.content.text);
    })
    .onRequest(sdk.methods.client.session.requestPermission, () => ({
      outcome: { outcome: "cancelled" },
    }));
  return app.connectWith(stream, async (cx) => {
    const init = await cx.request("initialize", {
      protocolVersion: sdk.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await cx.request("session/new", { cwd: "/", mcpServers: [] });
    const result = await cx.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hello from v1" }],
    });
    return { protocolVersion: init.protocolVersion, stopReason: result.stopReason, said };
  });
}

/** The SDK's v2 client through one prompt turn, to the idle that ends it. */
async function sdkV2Turn(stream: sdk2.Stream) {
  const app = sdk2
    .client({ name: "sdk-v2-client" })
    .onRequest(sdk2.methods.client.session.requestPermission, () => ({
      outcome: { outcome: "cancelled" },
    }));
  return app.connectWith(stream, async (cx) => {
    const init = await cx.request("initialize", {
      protocolVersion: sdk2.PROTOCOL_VERSION,
      info: { name: "sdk-v2-client", version: "2.4.0" },
      capabilities: {},
    });
    const text = await cx.buildSession("/").withSession(async (session) => {
      const idle = session.readTextUntilIdle();
      await session.prompt("hello from v2");
      return idle;
    });
    return { protocolVersion: init.protocolVersion, text };
  });
}

describe("one agent of ours behind agentRouter, and the SDK's clients", { timeout: 60_000 }, () => {
  it("serves the SDK's v1 client over stdio", async () => {
    const { output, input } = sdkStdio(DUAL_AGENT);
    expect(await sdkV1Turn(sdk.ndJsonStream(output, input))).toEqual({
      protocolVersion: 1,
      stopReason: "end_turn",
      said: ["You said: hello from v1"],
    });
  });

  it("serves the SDK's v2 client over stdio", async () => {
    const { output, input } = sdkStdio(DUAL_AGENT);
    expect(await sdkV2Turn(sdk2.ndJsonStream(output, input))).toEqual({
      protocolVersion: 2,
      text: "You said: hello from v2",
    });
  });

  it("serves both of the SDK's clients over the remote transport, on HTTP and on WebSocket", async () => {
    const url = await remoteAgent();
    const results = await Promise.all([
      sdkV1Turn(sdkHttpStream(url)),
      sdkV1Turn(sdkWebSocketStream(url, { WebSocket })),
      sdkV2Turn(sdkHttpStream(url) as unknown as sdk2.Stream),
      sdkV2Turn(sdkWebSocketStream(url, { WebSocket }) as unknown as sdk2.Stream),
    ]);
    expect(results).toEqual([
      { protocolVersion: 1, stopReason: "end_turn", said: ["You said: hello from v1"] },
      { protocolVersion: 1, stopReason: "end_turn", said: ["You said: hello from v1"] },
      { protocolVersion: 2, text: "You said: hello from v2" },
      { protocolVersion: 2, text: "You said: hello from v2" },
    ]);
  });

  it("answers a protocolVersion 1 probe with v1", async () => {
    const started = agent(DUAL_AGENT);
    const probe = new v1.ClientSideConnection(
      () => ({
        sessionUpdate: () => {},
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      }),
      started.stream,
    );
    const answer = await probe.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(answer.protocolVersion).toBe(1);
    expect(v1.isInitializeResponse(answer)).toBe(true);
    expect(answer.agentInfo?.name).toBe("echo-agent");
    probe.close();
  });
});

/** Our client for both versions, collecting what the agent says; `idle` resolves at v2's end of turn. */
function dualClient() {
  const said: string[] = [];
  let idle = () => {};
  const turnEnded = new Promise<void>((resolve) => {
    idle = resolve;
  });
  const router = clientRouter({
    2: {
      initialize: { info: { name: "our-client", version: "1" }, capabilities: {} },
      connect: (stream) =>
        new v2.ClientSideConnection(
          () => ({
            sessionUpdate: ({ update }) => {
              if (
                v2.isSessionUpdateOf(update, "agent_message_chunk") &&
                v2.isContentBlockOf(update.content, "text")
              )
                said.push(update.content.text);
              if (v2.isSessionUpdateOf(update, "state_update") && update.state === "idle") idle();
            },
            sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
          }),
          stream,
        ),
    },
    1: {
      initialize: { clientCapabilities: {}, clientInfo: { name: "our-client", version: "1" } },
      connect: (stream) =>
        new v1.ClientSideConnection(
          () => ({
            sessionUpdate: ({ update }) => {
              if (
                v1.isSessionUpdateOf(update, "agent_message_chunk") &&
                v1.isContentBlockOf(update.content, "text")
              )
                said.push(update.content.text);
            },
            sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
          }),
          stream,
        ),
    },
  });
  return { router, said, turnEnded };
}

describe("our clientRouter and the SDK's agents", { timeout: 60_000 }, () => {
  it("negotiates down to v1 with the SDK's v1-only agent, and runs a turn", async () => {
    const { router, said } = dualClient();
    const route = await router.connect(agent([...SDK_AGENT, "1"]).stream);
    expect(route.protocolVersion).toBe(1);
    if (route.protocolVersion !== 1) return;
    expect(route.initialized.agentInfo?.name).toBe("sdk-echo-agent");
    const { sessionId } = await route.connection.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const result = await route.connection.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(result.stopReason).toBe("end_turn");
    expect(said).toEqual(["SDK says: hi"]);
    route.connection.close();
  });

  it("negotiates up to v2 with the SDK's v2 agent, and runs a turn", async () => {
    const { router, said, turnEnded } = dualClient();
    const route = await router.connect(agent([...SDK_AGENT, "2"]).stream);
    expect(route.protocolVersion).toBe(2);
    if (route.protocolVersion !== 2) return;
    expect(route.initialized.info.name).toBe("sdk-echo-agent");
    const { sessionId } = await route.connection.agent.sessionNew({ cwd: "/" });
    const receipt = await route.connection.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(receipt.messageId).toEqual(expect.any(String));
    await turnEnded;
    expect(said).toEqual(["SDK says: hi"]);
    route.connection.close();
  });

  it("reads the SDK v2 agent's answer to a v1 probe as the error it is (the SDK refuses what it cannot speak)", async () => {
    const started = agent([...SDK_AGENT, "2"]);
    const v1Only = clientRouter({
      1: {
        initialize: { clientCapabilities: {} },
        connect: (stream) =>
          new v1.ClientSideConnection(
            () => ({
              sessionUpdate: () => {},
              sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
            }),
            stream,
          ),
      },
    });
    // spawnAgent stops an agent whose initialize fails: the call rejects with why.
    await expect(v1Only.connect(started.stream)).rejects.toMatchObject({
      name: "AgentStartError",
      kind: "failed",
      error: { code: -32022 },
    });
  });
});
