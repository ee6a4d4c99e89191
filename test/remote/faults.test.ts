import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { serve } from "../../.test-package/package/node/index.js";
import {
  AcpServer,
  createHttpStream,
  createWebSocketStream,
  RemoteClosedError,
} from "../../.test-package/package/remote/index.js";
import {
  AgentSideConnection,
  ConnectionClosedError,
  PROTOCOL_VERSION,
} from "../../.test-package/package/v1/index.js";
import { initializeBody, upgrade } from "./raw.js";
import {
  agentConnect,
  client,
  closeAfter,
  eventually,
  newLog,
  serveAgent,
  texts,
  turn,
} from "./support.js";

/** Starts a prompt the agent holds until cancelled; resolves once the agent is in it. */
async function hangingTurn(
  conn: ReturnType<typeof client>["conn"],
  log: { prompts: number },
): Promise<{ prompt: Promise<unknown> }> {
  await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
  const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
  const before = log.prompts;
  const prompt = conn.agent.sessionPrompt({ sessionId, prompt: [{ type: "text", text: "hang" }] });
  prompt.catch(() => {});
  await eventually(() => log.prompts > before);
  // Wrapped: an async function would wait for the prompt it returned.
  return { prompt };
}

describe("a client that disconnects mid-turn", { timeout: 20_000 }, () => {
  it("WebSocket: the server frees the connection and the agent sees the turn cancelled", async () => {
    const { served, server, log } = await serveAgent();
    // A client that vanishes: its socket is cut, no close handshake.
    let socket: WebSocket | undefined;
    const Tracked = class extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        socket = this;
      }
    };
    const { conn } = client(createWebSocketStream(served.url, { WebSocket: Tracked }));
    await hangingTurn(conn, log);
    socket?.terminate();
    await eventually(() => server.connectionCount === 0 && log.cancelled === 1 && log.closed === 1);
  });

  it("HTTP: its connection is closed once idle, and the agent sees the turn cancelled", async () => {
    const { served, server, log } = await serveAgent({ idleTimeoutMs: 300 });
    // A client whose requests all die at once, as when its machine drops off the network;
    // it never says DELETE.
    const inFlight = new Set<AbortController>();
    const vanishing: typeof fetch = (url, init) => {
      if (init?.method === "DELETE") return new Promise(() => {});
      const controller = new AbortController();
      inFlight.add(controller);
      init?.signal?.addEventListener("abort", () => controller.abort());
      return fetch(url, { ...init, signal: controller.signal });
    };
    const { conn } = client(
      createHttpStream(served.url, { fetch: vanishing, reconnect: { attempts: 0 } }),
    );
    await hangingTurn(conn, log);
    for (const controller of inFlight) controller.abort();
    await eventually(() => server.connectionCount === 0 && log.cancelled === 1 && log.closed === 1);
  });
});

describe("the server goes away", { timeout: 30_000 }, () => {
  for (const transport of ["http", "websocket"] as const) {
    it(`${transport}: pending calls reject saying so, and a new stream reconnects`, async () => {
      const log = newLog();
      const first = await serve(new AcpServer({ connect: agentConnect(log) }));
      const port = Number(new URL(first.url).port);
      const stream = () =>
        transport === "http"
          ? createHttpStream(first.url, { reconnect: { attempts: 2, delayMs: 50 } })
          : createWebSocketStream(first.url, { WebSocket });
      const { conn } = client(stream());
      const { prompt } = await hangingTurn(conn, log);
      await first.close();
      const error = await prompt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConnectionClosedError);
      const reason = (error as ConnectionClosedError).reason;
      expect(reason).toBeInstanceOf(RemoteClosedError);
      expect((error as Error).message).toMatch(
        transport === "http"
          ? /^connection closed: (cannot reach the ACP server at http:\/\/127\.0\.0\.1:\d+\/acp: .+|the ACP server at http:\/\/127\.0\.0\.1:\d+\/acp no longer knows this connection .+)$/
          : /^connection closed: the ACP server at http:\/\/127\.0\.0\.1:\d+\/acp closed the WebSocket \(1001: server shutting down\)$/,
      );
      // The server is back on the same address: a new stream and connection carry on.
      const second = await serve(new AcpServer({ connect: agentConnect(log) }), { port });
      closeAfter(second);
      const again = client(stream());
      const { result } = await turn(again.conn, "updates 3");
      expect(result.stopReason).toBe("end_turn");
      expect(texts(again.updates)).toHaveLength(3);
    });
  }

  it("HTTP: a restarted server that no longer knows the connection ends it with 404's reason", async () => {
    const log = newLog();
    const first = await serve(new AcpServer({ connect: agentConnect(log) }));
    const port = Number(new URL(first.url).port);
    const { conn } = client(
      createHttpStream(first.url, { reconnect: { attempts: 20, delayMs: 50 } }),
    );
    const { prompt } = await hangingTurn(conn, log);
    await first.close();
    const second = await serve(new AcpServer({ connect: agentConnect(log) }), { port });
    closeAfter(second);
    const error = (await prompt.then(
      () => undefined,
      (e: unknown) => e,
    )) as ConnectionClosedError;
    expect(error.message).toMatch(
      /^connection closed: the ACP server at http:\/\/127\.0\.0\.1:\d+\/acp no longer knows this connection \(it ended it, or restarted\): HTTP 404: unknown Acp-Connection-Id/,
    );
    expect((error.reason as RemoteClosedError).status).toBe(404);
  });
});

describe("an event stream that drops while its connection lives", { timeout: 20_000 }, () => {
  it("is reopened by the client, and what waited on the server is delivered", async () => {
    const { served, log } = await serveAgent();
    // Cuts the first session stream once, mid-turn, as a proxy's timeout would.
    let cut: (() => void) | undefined;
    const cutting: typeof fetch = async (url, init) => {
      const headers = new Headers(init?.headers);
      const response = await fetch(url, init);
      if (init?.method === "GET" && headers.has("Acp-Session-Id") && !cut && response.body) {
        const reader = response.body.getReader();
        let stop = false;
        cut = () => {
          stop = true;
          reader.cancel().catch(() => {});
        };
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (stop) return controller.close();
            const next = await reader.read().catch(() => ({ done: true, value: undefined }));
            if (next.done || stop) controller.close();
            else controller.enqueue(next.value as Uint8Array);
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      }
      return response;
    };
    const { conn, updates } = client(createHttpStream(served.url, { fetch: cutting }));
    await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const first = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "updates 3" }],
    });
    expect(first.stopReason).toBe("end_turn");
    cut?.();
    // The next turn's updates queue on the server until the stream is back.
    const second = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "updates 4" }],
    });
    expect(second.stopReason).toBe("end_turn");
    expect(texts(updates)).toEqual([
      "chunk 0",
      "chunk 1",
      "chunk 2",
      "chunk 0",
      "chunk 1",
      "chunk 2",
      "chunk 3",
    ]);
    expect(log.prompts).toBe(2);
  });
});

describe("junk over a WebSocket", { timeout: 20_000 }, () => {
  it("reaches the agent's connection as the stdio transport's junk does, and the connection goes on", async () => {
    const logged: string[] = [];
    const { served, server } = await serveAgent({
      connect: (stream) => {
        new AgentSideConnection(
          () => ({
            initialize: () => ({ protocolVersion: PROTOCOL_VERSION }),
            sessionNew: () => ({ sessionId: "s" }),
            sessionPrompt: () => ({ stopReason: "end_turn" }),
            sessionCancel: () => {},
          }),
          stream,
          { log: (event) => logged.push(event.reason), malformedInput: "answer" },
        );
      },
    });
    const opened = await upgrade(served.url);
    if (!("socket" in opened)) throw new Error(`upgrade refused: ${opened.status}`);
    const { socket, connectionId } = opened;
    expect(connectionId).toMatch(/^[0-9a-f]{32}$/);
    const answers: Array<{ id?: unknown; error?: { code: number }; result?: unknown }> = [];
    socket.on("message", (data) => answers.push(JSON.parse(String(data))));
    socket.send(initializeBody(1));
    await eventually(() => answers.length === 1);
    socket.send("{not json");
    socket.send("[1, 2]");
    // The RFD: binary messages are ignored.
    socket.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true });
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      }),
    );
    await eventually(() => answers.length === 4);
    expect(answers.map((a) => a.error?.code ?? "ok")).toEqual(["ok", -32700, -32600, "ok"]);
    expect(answers[3]?.id).toBe(2);
    expect(logged).toEqual(["parse-error", "invalid-message"]);
    expect(server.connectionCount).toBe(1);
    socket.close();
  });
});
