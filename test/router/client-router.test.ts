import { afterEach, describe, expect, it } from "vitest";
import type { MessageStream } from "../../.test-package/package/remote/index.js";
import { clientRouter } from "../../.test-package/package/router/index.js";
import * as v1 from "../../.test-package/package/v1/index.js";
import * as v2 from "../../.test-package/package/v2/index.js";
import { deferred, RawPeer, streamPair } from "../runtime/support.js";
import { EchoLogic, echoRouter, v1Agent, v2Agent } from "./echo-agent.js";

/**
 * `clientRouter` against our agents (behind `agentRouter`, or one version alone) and
 * against a raw wire playing the agent, to read exactly what it sends.
 */

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const INFO = { name: "test-client", version: "1.0.0" };
const V2_PARAMS = { info: INFO, capabilities: {} };
const V1_PARAMS = { clientCapabilities: { fs: { readTextFile: true } }, clientInfo: INFO };

/** Updates as a client of either version receives them, and the end of each turn. */
class Updates {
  readonly kinds: string[] = [];
  private idle = deferred();

  add(update: { sessionUpdate: string; state?: string }): void {
    this.kinds.push(
      update.state ? `${update.sessionUpdate}:${update.state}` : update.sessionUpdate,
    );
    if (update.state === "idle") this.idle.resolve();
  }

  /** Resolves at the next idle `state_update` (v2's end of a turn). */
  async untilIdle(): Promise<void> {
    await this.idle.promise;
    this.idle = deferred();
  }
}

/** A client for both versions. */
function dualClient(updates = new Updates()) {
  return clientRouter({
    2: {
      initialize: V2_PARAMS,
      connect: (stream) =>
        new v2.ClientSideConnection(
          () => ({
            sessionUpdate: ({ update }) => updates.add(update as { sessionUpdate: string }),
            sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
          }),
          stream,
          { log: () => {} },
        ),
    },
    1: {
      initialize: V1_PARAMS,
      connect: (stream) =>
        new v1.ClientSideConnection(
          () => ({
            sessionUpdate: ({ update }) => updates.add(update),
            sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
            fsReadTextFile: () => ({ content: "" }),
          }),
          stream,
          { log: () => {} },
        ),
    },
  });
}

/** `make`'s agent at one end of a pipe; the other end, for the client router. */
function against(make: (stream: MessageStream) => unknown): MessageStream {
  const [agentEnd, clientEnd] = streamPair();
  const agent = make(agentEnd);
  if (agent instanceof v1.AgentSideConnection || agent instanceof v2.AgentSideConnection)
    closers.push(() => agent.close());
  return clientEnd;
}

/** A raw wire playing the agent. */
function rawAgent(): RawPeer {
  const peer = new RawPeer();
  closers.push(() => {
    void peer.end().catch(() => {});
  });
  return peer;
}

describe("clientRouter against our agents", { timeout: 10_000 }, () => {
  it("lands on v2 with a v2 agent, and runs a turn there", async () => {
    const updates = new Updates();
    const route = await dualClient(updates).connect(against((s) => v2Agent(s, new EchoLogic())));
    closers.push(() => route.connection.close());
    expect(route.protocolVersion).toBe(2);
    if (route.protocolVersion !== 2) return;
    // Narrowed on the version: v2's connection and v2's answer.
    expect(route.initialized.info.name).toBe("echo-agent");
    expect(route.connection.negotiated).toEqual({
      protocolVersion: 2,
      agent: { session: {} },
      client: {},
    });
    const { sessionId } = await route.connection.agent.sessionNew({ cwd: "/" });
    const idle = updates.untilIdle();
    const receipt = await route.connection.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(receipt.messageId).toEqual(expect.any(String));
    await idle;
    expect(updates.kinds).toEqual([
      "user_message",
      "state_update:running",
      "agent_message_chunk",
      "state_update:idle",
    ]);
  });

  it("falls back to v1 with a v1 agent, and runs a turn there", async () => {
    const updates = new Updates();
    const route = await dualClient(updates).connect(against((s) => v1Agent(s, new EchoLogic())));
    closers.push(() => route.connection.close());
    expect(route.protocolVersion).toBe(1);
    if (route.protocolVersion !== 1) return;
    expect(route.initialized.agentInfo?.name).toBe("echo-agent");
    // The v1 connection declared what v1's params say, and holds the agent to its answer.
    expect(route.connection.negotiated?.client).toEqual(V1_PARAMS.clientCapabilities);
    await expect(
      route.connection.agent.sessionLoad({ sessionId: "s", cwd: "/", mcpServers: [] }),
    ).rejects.toThrow(/loadSession/);
    const { sessionId } = await route.connection.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const result = await route.connection.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(result.stopReason).toBe("end_turn");
    expect(updates.kinds).toEqual(["agent_message_chunk"]);
  });

  it("lands on the version agentRouter chooses: v2 when both are routed, v1 when only v1 is", async () => {
    const both = await dualClient().connect(against((s) => echoRouter().connect(s)));
    closers.push(() => both.connection.close());
    expect(both.protocolVersion).toBe(2);
    const v1Only = await dualClient().connect(
      against((s) => echoRouter(undefined, undefined, [1]).connect(s)),
    );
    closers.push(() => v1Only.connection.close());
    expect(v1Only.protocolVersion).toBe(1);
  });

  it("offers only what it is given: a v1-only client lands on v1 with either agent", async () => {
    const v1Client = clientRouter({
      1: {
        initialize: V1_PARAMS,
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
    const route = await v1Client.connect(against((s) => echoRouter().connect(s)));
    closers.push(() => route.connection.close());
    expect(route.protocolVersion).toBe(1);
  });
});

describe("clientRouter on the wire", { timeout: 10_000 }, () => {
  it("sends one initialize asking for the newest version, with every offered version's params", async () => {
    const agent = rawAgent();
    void dualClient()
      .connect(agent.stream)
      .catch(() => {});
    expect(await agent.next()).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 2, ...V2_PARAMS, ...V1_PARAMS },
    });
  });

  it("sends nothing more for the connection's own initialize, whose call gets the agent's answer", async () => {
    const agent = rawAgent();
    const routed = dualClient().connect(agent.stream);
    await agent.next();
    await agent.send({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: 1, agentCapabilities: { loadSession: true } },
    });
    const route = await routed;
    closers.push(() => route.connection.close());
    expect(route.initialized).toEqual(
      v1.parseInitializeResponse({ protocolVersion: 1, agentCapabilities: { loadSession: true } }),
    );
    // The next message on the wire is the next call's, with the next id.
    const call = route.connection.agent.sessionNew({ cwd: "/", mcpServers: [] });
    expect(await agent.next()).toMatchObject({ id: 1, method: "session/new" });
    await agent.send({ jsonrpc: "2.0", id: 1, result: { sessionId: "s-1" } });
    expect(await call).toEqual({ sessionId: "s-1" });
  });

  it("hands the chosen connection what the agent sent before its answer, after its initialize", async () => {
    const updates = new Updates();
    const agent = rawAgent();
    const routed = dualClient(updates).connect(agent.stream);
    await agent.next();
    const early = {
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "early" } },
      },
    };
    await agent.send(early);
    await agent.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } });
    const route = await routed;
    closers.push(() => route.connection.close());
    await expect.poll(() => updates.kinds).toEqual(["agent_message_chunk"]);
  });

  it("rejects an answer with a version it did not offer, and closes the stream", async () => {
    const agent = rawAgent();
    const routed = dualClient().connect(agent.stream);
    await agent.next();
    await agent.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 3 } });
    await expect(routed).rejects.toThrow(
      "the agent answered initialize with protocol version 3; this client speaks 2 or 1",
    );
    expect(await agent.outputEnded()).toBe(true);
  });

  it("rejects with the agent's error answer, and when the agent leaves first", async () => {
    const refusing = rawAgent();
    const refused = dualClient().connect(refusing.stream);
    await refusing.next();
    await refusing.send({
      jsonrpc: "2.0",
      id: 0,
      error: { code: -32022, message: "Unsupported protocol version" },
    });
    await expect(refused).rejects.toMatchObject({ code: -32022 });

    const leaving = rawAgent();
    const left = dualClient().connect(leaving.stream);
    await leaving.next();
    await leaving.end();
    await expect(left).rejects.toThrow(/closed the stream before it answered initialize/);
  });

  it("stops when its signal aborts, with the signal's reason", async () => {
    const agent = rawAgent();
    const controller = new AbortController();
    const routed = dualClient().connect(agent.stream, { signal: controller.signal });
    await agent.next();
    controller.abort(new Error("user gave up"));
    await expect(routed).rejects.toThrow("user gave up");
  });
});

describe("clientRouter: the offers", () => {
  const connect = (stream: MessageStream) =>
    new v1.ClientSideConnection(
      () => ({
        sessionUpdate: () => {},
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      }),
      stream,
    );

  it("refuses two versions' params that name one field with different values", () => {
    const v2Connect = (stream: MessageStream) =>
      new v2.ClientSideConnection(
        () => ({
          sessionUpdate: () => {},
          sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        }),
        stream,
      );
    expect(() =>
      clientRouter({
        1: { initialize: { _meta: { a: 1 } }, connect },
        2: { initialize: { info: INFO, _meta: { a: 2 } }, connect: v2Connect },
      }),
    ).toThrow(/initialize params of v2 and v1 disagree on "_meta"/);
    // The same value is one field of the one initialize.
    expect(() =>
      clientRouter({
        1: { initialize: { _meta: { a: 1 } }, connect },
        2: { initialize: { info: INFO, _meta: { a: 1 } }, connect: v2Connect },
      }),
    ).not.toThrow();
  });

  it("refuses versions the package does not have, and offers without a factory", () => {
    // @ts-expect-error: the package has protocol versions 1 and 2 only.
    expect(() => clientRouter({ 7: { initialize: {}, connect } })).toThrow(
      /"7" is not a protocol version/,
    );
    // @ts-expect-error: an offer needs its connection's factory.
    expect(() => clientRouter({ 1: { initialize: {} } })).toThrow(
      /the route of v1 has no connect function/,
    );
  });
});
