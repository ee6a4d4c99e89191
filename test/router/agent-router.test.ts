import { afterEach, describe, expect, it } from "vitest";
import type { MessageStream } from "../../.test-package/package/remote/index.js";
import { agentRouter } from "../../.test-package/package/router/index.js";
import * as v1 from "../../.test-package/package/v1/index.js";
import * as v2 from "../../.test-package/package/v2/index.js";
import { RawPeer, recorder } from "../runtime/support.js";
import { EchoLogic, echoRouter, type Seen, v1Agent, v2Agent } from "./echo-agent.js";

/**
 * `agentRouter` on a raw wire: the client side is a `RawPeer` writing JSON lines, so every
 * test reads exactly what the agent answers, and when.
 */

const peers: RawPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.end().catch(() => {})));
});

function wire(): RawPeer {
  const peer = new RawPeer();
  peers.push(peer);
  return peer;
}

const V1_INIT = { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } };
const V2_INIT = {
  protocolVersion: 2,
  info: { name: "test-client", version: "0" },
  capabilities: {},
};
const request = (id: number | string, method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

/** A router over both versions, with what it logged and what each version saw. */
function routed(versions: ReadonlyArray<1 | 2> = [1, 2]) {
  const seen: Seen = { initialize: [] };
  const log = recorder();
  const router = echoRouter(new EchoLogic(), seen, versions, { log: log.log });
  const peer = wire();
  const route = router.connect(peer.stream);
  return { peer, seen, log, route };
}

describe("agentRouter: the version chosen", { timeout: 10_000 }, () => {
  it("hands a client asking for 1 to v1, which reads that initialize itself", async () => {
    const { peer, seen, route } = routed();
    await peer.send(request(0, "initialize", V1_INIT));
    const answer = (await peer.next()) as { id: number; result: v1.InitializeResponse };
    expect(answer.id).toBe(0);
    expect(answer.result.protocolVersion).toBe(1);
    expect(answer.result.agentCapabilities?.sessionCapabilities).toEqual({ list: {}, close: {} });
    // v1's handler got the params as v1's parser reads them (its defaults filled in).
    expect(seen.initialize).toEqual([
      {
        version: 1,
        params: v1.parseInitializeRequest(V1_INIT),
      },
    ]);
    expect((await route)?.protocolVersion).toBe(1);
  });

  it("hands a client asking for 2 to v2", async () => {
    const { peer, seen, route } = routed();
    await peer.send(request("init", "initialize", V2_INIT));
    const answer = (await peer.next()) as { id: string; result: v2.InitializeResponse };
    expect(answer).toMatchObject({
      id: "init",
      result: { protocolVersion: 2, info: { name: "echo-agent" } },
    });
    expect(seen.initialize.map((s) => s.version)).toEqual([2]);
    const chosen = await route;
    expect(chosen?.protocolVersion).toBe(2);
    expect(chosen?.connection).toBeInstanceOf(v2.AgentSideConnection);
  });

  it("hands an initialize asking for 3 to v2, the highest routed at or below it, unchanged", async () => {
    const { peer, seen } = routed();
    await peer.send(request(0, "initialize", { ...V2_INIT, protocolVersion: 3 }));
    const answer = (await peer.next()) as { result: v2.InitializeResponse };
    // The agent answers with its own version; the client decides.
    expect(answer.result.protocolVersion).toBe(2);
    expect(seen.initialize).toEqual([{ version: 2, params: { ...V2_INIT, protocolVersion: 3 } }]);
  });

  it("hands a client older than every version routed to the latest routed", async () => {
    const older = routed();
    await older.peer.send(request(0, "initialize", { ...V2_INIT, protocolVersion: 0 }));
    expect(
      ((await older.peer.next()) as { result: { protocolVersion: number } }).result.protocolVersion,
    ).toBe(2);
    // A v2-only agent answers a v1 probe with a result (acp-tck's ACP-INIT-202), not an error.
    const probe = routed([2]);
    await probe.peer.send(request(0, "initialize", { ...V2_INIT, protocolVersion: 1 }));
    expect(await probe.peer.next()).toMatchObject({ id: 0, result: { protocolVersion: 2 } });
  });

  it("hands every client to v1 when only v1 is routed", async () => {
    const { peer, seen } = routed([1]);
    await peer.send(
      request(0, "initialize", { ...V2_INIT, clientCapabilities: { terminal: true } }),
    );
    expect(await peer.next()).toMatchObject({ result: { protocolVersion: 1 } });
    // v1 reads its own fields of the initialize and ignores v2's, as serde does.
    expect(seen.initialize[0]?.params).toEqual(
      v1.parseInitializeRequest({ protocolVersion: 2, clientCapabilities: { terminal: true } }),
    );
  });

  it("negotiates as the connection would on the stream alone", async () => {
    const streamAlone = wire();
    const alone = v1Agent(streamAlone.stream, new EchoLogic());
    const { peer, route } = routed();
    for (const p of [peer, streamAlone]) {
      await p.send(request(0, "initialize", V1_INIT));
      await p.next();
    }
    const chosen = await route;
    expect(chosen?.protocolVersion).toBe(1);
    expect(chosen?.connection.negotiated).toEqual(alone.negotiated);
    expect(alone.negotiated?.client).toEqual(v1.parseInitializeRequest(V1_INIT).clientCapabilities);
    alone.close();
  });

  it("serves the whole connection after the initialize, on the version chosen", async () => {
    const { peer } = routed();
    await peer.send(request(0, "initialize", V1_INIT));
    await peer.next();
    await peer.send(request(1, "session/new", { cwd: "/", mcpServers: [] }));
    const { result } = (await peer.next()) as { result: { sessionId: string } };
    await peer.send(
      request(2, "session/prompt", {
        sessionId: result.sessionId,
        prompt: [{ type: "text", text: "hello" }],
      }),
    );
    expect(await peer.next()).toMatchObject({
      method: "session/update",
      params: { update: { content: { text: "You said: hello" } } },
    });
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { stopReason: "end_turn" },
    });
  });

  it("passes the arguments connect gets after the stream on to the factory", async () => {
    const got: unknown[] = [];
    const router = agentRouter({
      1: (stream: MessageStream, info: { connectionId: string }) => {
        got.push(info.connectionId);
        return v1Agent(stream, new EchoLogic());
      },
    });
    const peer = wire();
    const route = router.connect(peer.stream, { connectionId: "c-1" });
    await peer.send(request(0, "initialize", V1_INIT));
    await peer.next();
    await route;
    expect(got).toEqual(["c-1"]);
  });
});

describe("agentRouter: before initialize", { timeout: 10_000 }, () => {
  /** The answer to a request sent after `before`: proves `before` got no answer of its own. */
  async function firstAnswerAfter(peer: RawPeer, ...before: object[]) {
    for (const message of before) await peer.send(message);
    await peer.send(request(99, "session/new", { cwd: "/" }));
    return peer.next();
  }

  it("ignores notifications and responses", async () => {
    const { peer, log } = routed();
    const answer = await firstAnswerAfter(
      peer,
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } },
      { jsonrpc: "2.0", id: 5, result: {} },
      { jsonrpc: "2.0", id: 6, error: { code: -1, message: "no" } },
    );
    expect(answer).toMatchObject({ id: 99, error: { code: -32600 } });
    expect(log.events.filter((e) => e.level === "debug").map((e) => e.reason)).toEqual([
      "not-initialized",
      "not-initialized",
      "not-initialized",
    ]);
  });

  it("answers any other request with -32600, and routes the initialize after it", async () => {
    const { peer, route } = routed();
    await peer.send(request("early", "session/new", { cwd: "/" }));
    expect(await peer.next()).toMatchObject({
      jsonrpc: "2.0",
      id: "early",
      error: { code: -32600, data: { method: "session/new", reason: "not-initialized" } },
    });
    await peer.send(request(0, "initialize", V2_INIT));
    expect(await peer.next()).toMatchObject({ id: 0, result: { protocolVersion: 2 } });
    expect((await route)?.protocolVersion).toBe(2);
  });

  it("answers a batch with a single -32600 with id null", async () => {
    const { peer } = routed();
    await peer.send([request(0, "initialize", V2_INIT)]);
    const answer = (await peer.next()) as { id: unknown; error: { code: number } };
    expect(Array.isArray(answer)).toBe(false);
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("answers -32602 to an initialize without a valid protocolVersion, and does not close the stream", async () => {
    const { peer, route } = routed();
    const invalid = [undefined, "2", 1.5, -1, 65536, null];
    for (const [i, protocolVersion] of invalid.entries()) {
      await peer.send(request(i, "initialize", { ...V2_INIT, protocolVersion }));
      expect(await peer.next(), JSON.stringify(protocolVersion)).toMatchObject({
        id: i,
        error: { code: -32602, data: { property: "protocolVersion" } },
      });
    }
    await peer.send(request(10, "initialize", "not an object"));
    expect(await peer.next()).toMatchObject({ id: 10, error: { code: -32602 } });
    await peer.send(request(11, "initialize", V1_INIT));
    expect(await peer.next()).toMatchObject({ id: 11, result: { protocolVersion: 1 } });
    expect((await route)?.protocolVersion).toBe(1);
  });

  it("answers what is not a JSON-RPC message as a connection would, and drops what is not JSON", async () => {
    const { peer, log } = routed();
    await peer.send({ jsonrpc: "1.0", id: 4, method: "initialize", params: V2_INIT });
    expect(await peer.next()).toMatchObject({ id: 4, error: { code: -32600 } });
    await peer.send("this is a login screen\n");
    const answer = await firstAnswerAfter(peer);
    expect(answer).toMatchObject({ id: 99 });
    expect(log.reasons()).toContain("parse-error");
  });

  it("ends quietly when the client leaves first: resolves undefined and closes its output", async () => {
    const { peer, route } = routed();
    await peer.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    await peer.end();
    expect(await route).toBeUndefined();
    expect(await peer.outputEnded()).toBe(true);
  });
});

describe("agentRouter: once a version is chosen", { timeout: 10_000 }, () => {
  it("sends a repeated initialize to the connection chosen, whatever version it asks for", async () => {
    let v2Made = 0;
    const seen: Seen = { initialize: [] };
    const logic = new EchoLogic();
    const router = agentRouter({
      1: (stream) => v1Agent(stream, logic, seen),
      2: (stream) => {
        v2Made++;
        return v2Agent(stream, logic, seen);
      },
    });
    const peer = wire();
    void router.connect(peer.stream);
    await peer.send(request(0, "initialize", V1_INIT));
    expect(await peer.next()).toMatchObject({ result: { protocolVersion: 1 } });
    await peer.send(request(1, "initialize", V2_INIT));
    // The v1 connection answers it, as it would on a stream of its own.
    expect(await peer.next()).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
    expect(seen.initialize.map((s) => s.version)).toEqual([1, 1]);
    expect(v2Made).toBe(0);
  });

  it("gets batches to v2's connection, which answers them", async () => {
    const { peer } = routed();
    await peer.send(request(0, "initialize", V2_INIT));
    await peer.next();
    await peer.send([
      request(1, "session/new", { cwd: "/a" }),
      request(2, "session/new", { cwd: "/b" }),
    ]);
    const answer = (await peer.next()) as Array<{ id: number; result: { sessionId: string } }>;
    expect(answer.map((a) => a.id).sort()).toEqual([1, 2]);
  });
});

describe("agentRouter: the routes", () => {
  it("refuses routes for versions the package does not have, and none at all", () => {
    const make = () => v1Agent(new RawPeer().stream, new EchoLogic());
    // @ts-expect-error: the package has protocol versions 1 and 2 only.
    expect(() => agentRouter({ 3: make })).toThrow(
      /"3" is not a protocol version of this package \(1, 2\)/,
    );
    expect(() => agentRouter({})).toThrow(/no protocol version routed/);
    // @ts-expect-error: a route is a factory.
    expect(() => agentRouter({ 1: "v1" })).toThrow(/the route of v1 is not a function/);
  });

  it("rejects connect with what a factory threw, logs it, and closes the stream", async () => {
    const log = recorder();
    const router = agentRouter(
      {
        2: () => {
          throw new Error("no agent today");
        },
      },
      { log: log.log },
    );
    const peer = wire();
    const route = router.connect(peer.stream);
    await peer.send(request(0, "initialize", V2_INIT));
    await expect(route).rejects.toThrow("no agent today");
    expect(log.events.map((e) => [e.level, e.reason])).toEqual([["error", "handler-error"]]);
    expect(await peer.outputEnded()).toBe(true);
  });
});
