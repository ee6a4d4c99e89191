import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  AcpServer,
  createHttpStream,
  createWebSocketStream,
  DEFAULT_REMOTE_LIMITS,
  type MessageStream,
} from "../../.test-package/package/remote/index.js";
import { AgentSideConnection, PROTOCOL_VERSION } from "../../.test-package/package/v1/index.js";
import { initializeBody, JSON_HEADERS, open, send, upgrade } from "./raw.js";
import { client, eventually, serveAgent } from "./support.js";

const connected = (id: string) => ({ ...JSON_HEADERS, "Acp-Connection-Id": id });
const notification = JSON.stringify({
  jsonrpc: "2.0",
  method: "session/cancel",
  params: { sessionId: "s" },
});

describe("bad requests get a status and one line saying what", { timeout: 20_000 }, () => {
  it("refuses each malformed request, and the connection goes on serving", async () => {
    const { served } = await serveAgent();
    const id = await open(served.url);
    const cases: Array<[string, Parameters<typeof send>[1], number, string]> = [
      [
        "junk body",
        { headers: connected(id), body: "{not json" },
        400,
        "request body is not JSON (9 characters)",
      ],
      [
        "empty body",
        { headers: connected(id), body: "" },
        400,
        "request body is not JSON (0 characters)",
      ],
      ["a batch", { headers: connected(id), body: "[1]" }, 501, ""],
      [
        "a number",
        { headers: connected(id), body: "42" },
        400,
        "not a JSON-RPC message: a message must be a JSON object",
      ],
      [
        "no jsonrpc",
        { headers: connected(id), body: '{"id":1,"method":"x"}' },
        400,
        'not a JSON-RPC message: "jsonrpc" must be "2.0"',
      ],
      [
        "wrong type",
        { headers: { "Content-Type": "text/plain", "Acp-Connection-Id": id }, body: notification },
        415,
        "Content-Type must be application/json",
      ],
      [
        "no connection",
        { headers: JSON_HEADERS, body: notification },
        400,
        "missing Acp-Connection-Id header (only initialize opens a connection)",
      ],
      [
        "initialize again",
        { headers: connected(id), body: initializeBody(9) },
        400,
        "initialize on a connection that is already open",
      ],
      [
        "no session header",
        { headers: connected(id), body: notification },
        400,
        "missing Acp-Session-Id header for session-scoped session/cancel",
      ],
      [
        "other session header",
        { headers: { ...connected(id), "Acp-Session-Id": "t" }, body: notification },
        400,
        "Acp-Session-Id does not match the sessionId of session/cancel",
      ],
      [
        "GET without Accept",
        { method: "GET", headers: { "Acp-Connection-Id": id } },
        406,
        "Accept must include text/event-stream",
      ],
      [
        "GET without id",
        { method: "GET", headers: { Accept: "text/event-stream" } },
        400,
        "missing Acp-Connection-Id header",
      ],
      [
        "PUT",
        { method: "PUT", headers: connected(id), body: notification },
        405,
        "method PUT is not allowed here",
      ],
    ];
    for (const [what, init, status, line] of cases) {
      const reply = await send(served.url, init);
      expect(reply.status, what).toBe(status);
      if (status !== 501) expect(reply.text, what).toBe(`${line}\n`);
    }
    const ok = await send(served.url, {
      headers: { ...connected(id), "Acp-Session-Id": "s" },
      body: notification,
    });
    expect(ok.status).toBe(202);
  });

  it("answers a batch with 501 and a JSON-RPC error, as the RFD says, without passing it on", async () => {
    const { served, log } = await serveAgent();
    const id = await open(served.url);
    const reply = await send(served.url, { headers: connected(id), body: `[${notification}]` });
    expect(reply.status).toBe(501);
    expect(JSON.parse(reply.text)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid request: JSON-RPC batches are not supported" },
    });
    expect(log.prompts).toBe(0);
  });
});

describe("limits, each with a default and a one-line error", { timeout: 30_000 }, () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_REMOTE_LIMITS).toEqual({
      maxMessageBytes: 16 * 1024 * 1024,
      maxConnections: 1024,
      maxSessionsPerConnection: 64,
      maxBufferedBytes: 8 * 1024 * 1024,
      maxOutputStallMs: 30_000,
      idleTimeoutMs: 30_000,
      initializeTimeoutMs: 30_000,
      maxIdLength: 1024,
    });
    expect(() => new AcpServer({ connect() {}, maxConnections: 0 })).toThrow(
      "AcpServer: maxConnections must be a positive integer below 2^31, not 0",
    );
  });

  it("refuses a body over maxMessageBytes with 413, declared or streamed, and reads no further", async () => {
    const { served } = await serveAgent({ maxMessageBytes: 1000 });
    const id = await open(served.url);
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "session/cancel",
      params: { sessionId: "s", pad: "x".repeat(5000) },
    });
    const declared = await send(served.url, {
      headers: { ...connected(id), "Acp-Session-Id": "s" },
      body: big,
    });
    expect([declared.status, declared.text]).toEqual([
      413,
      `request body is ${big.length} bytes, over the limit of 1000 bytes (maxMessageBytes)\n`,
    ]);
    // Streamed without a length: cut at the first chunk past the limit.
    const chunks = [big.slice(0, 600), big.slice(600, 1200), big.slice(1200)];
    const streamed = await fetch(served.url, {
      method: "POST",
      headers: { ...connected(id), "Acp-Session-Id": "s" },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(chunk));
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.text()).toMatch(
      /^request body is 1200 bytes, over the limit of 1000 bytes/,
    );
    // Our client refuses to send such a message at all, failing that call alone.
    const ours = client(createHttpStream(served.url, { maxMessageBytes: 1000 }));
    await ours.conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await ours.conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    await expect(
      ours.conn.agent.sessionPrompt({
        sessionId,
        prompt: [{ type: "text", text: "x".repeat(2000) }],
      }),
    ).rejects.toThrow(/over the limit of 1000 bytes/);
    // And a client with a larger limit gets the server's 413 as that call's error.
    const lax = client(createHttpStream(served.url));
    await lax.conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    const other = await lax.conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    await expect(
      lax.conn.agent.sessionPrompt({
        sessionId: other.sessionId,
        prompt: [{ type: "text", text: "x".repeat(2000) }],
      }),
    ).rejects.toThrow(/over the limit of 1000 bytes/);
    // That call alone: the connection goes on.
    const after = await lax.conn.agent.sessionPrompt({
      sessionId: other.sessionId,
      prompt: [{ type: "text", text: "updates 1" }],
    });
    expect(after.stopReason).toBe("end_turn");
  });

  it("closes a WebSocket that sends a message over maxMessageBytes, with a log line", async () => {
    const { served, server, lines } = await serveAgent({ maxMessageBytes: 1000 });
    const opened = await upgrade(served.url);
    if (!("socket" in opened)) throw new Error(`upgrade refused: ${opened.status}`);
    const closed = new Promise<number>((resolve) => opened.socket.once("close", resolve));
    opened.socket.send(
      JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "y".repeat(2000) } }),
    );
    // ws enforces maxPayload itself (1009); the server's own check is the same limit.
    expect([1008, 1009]).toContain(await closed);
    await eventually(() => server.connectionCount === 0);
    expect(lines.every((l) => l.startsWith("acp server: "))).toBe(true);
  });

  it("refuses connections past maxConnections with 503, over both transports", async () => {
    const { served, server } = await serveAgent({ maxConnections: 2 });
    await open(served.url);
    await open(served.url);
    const third = await send(served.url, { headers: JSON_HEADERS, body: initializeBody() });
    expect([third.status, third.text]).toEqual([
      503,
      "too many connections: 2 are open (maxConnections)\n",
    ]);
    expect(third.headers.get("Retry-After")).toBe("5");
    expect(await upgrade(served.url)).toEqual({
      status: 503,
      text: "too many connections: 2 are open (maxConnections)\n",
    });
    expect(server.connectionCount).toBe(2);
  });

  it("refuses a session stream past maxSessionsPerConnection with 429", async () => {
    const { served } = await serveAgent({ maxSessionsPerConnection: 2 });
    const id = await open(served.url);
    const stream = (session: string) =>
      send(served.url, {
        method: "GET",
        headers: {
          Accept: "text/event-stream",
          "Acp-Connection-Id": id,
          "Acp-Session-Id": session,
        },
      });
    expect((await stream("a")).status).toBe(200);
    expect((await stream("b")).status).toBe(200);
    const third = await stream("c");
    expect([third.status, third.text]).toEqual([
      429,
      "too many sessions on this connection: 2 (maxSessionsPerConnection)\n",
    ]);
  });

  it("drops a connection whose client opens sessions past the limit, saying so", async () => {
    const { served, lines } = await serveAgent({ maxSessionsPerConnection: 2 });
    const ws = client(createWebSocketStream(served.url, { WebSocket }));
    await ws.conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    await ws.conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    await ws.conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    await expect(ws.conn.agent.sessionNew({ cwd: "/", mcpServers: [] })).rejects.toThrow(
      /its client opened more than 2 sessions \(maxSessionsPerConnection\)/,
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^acp server: dropped connection [0-9a-f]{8}…: its client opened more than 2 sessions \(maxSessionsPerConnection\)$/,
      ),
    ]);
  });

  it("closes an HTTP connection its client left idle past idleTimeoutMs; the agent sees it end", async () => {
    const { served, server, log } = await serveAgent({ idleTimeoutMs: 200 });
    await open(served.url);
    expect(server.connectionCount).toBe(1);
    await eventually(() => server.connectionCount === 0 && log.closed === 1);
  });

  it("answers initialize with 504 when the agent does not answer in time", async () => {
    const streams: MessageStream[] = [];
    const { served, server } = await serveAgent({
      initializeTimeoutMs: 150,
      connect: (stream) => {
        streams.push(stream);
      },
    });
    const reply = await send(served.url, { headers: JSON_HEADERS, body: initializeBody() });
    expect([reply.status, reply.text]).toEqual([
      504,
      "the agent did not answer initialize within 150 ms (initializeTimeoutMs)\n",
    ]);
    expect(streams).toHaveLength(1);
    expect(server.connectionCount).toBe(0);
  });
});

describe("a slow or vanished client cannot grow the server's memory", { timeout: 30_000 }, () => {
  /** An agent that streams `updates` updates of `size` characters as fast as the transport takes them. */
  function flooding(sent: { count: number; failed: unknown }, updates: number, size: number) {
    return (stream: MessageStream) => {
      new AgentSideConnection(
        (agent) => ({
          initialize: () => ({ protocolVersion: PROTOCOL_VERSION }),
          sessionNew: () => ({ sessionId: "flood" }),
          async sessionPrompt({ sessionId }) {
            try {
              for (let i = 0; i < updates; i++) {
                await agent.client.sessionUpdate({
                  sessionId,
                  update: {
                    sessionUpdate: "agent_message_chunk",
                    content: { type: "text", text: "z".repeat(size) },
                  },
                });
                sent.count++;
              }
            } catch (error) {
              sent.failed = error;
            }
            return { stopReason: "end_turn" };
          },
          sessionCancel: () => {},
        }),
        stream,
        { log: () => {} },
      );
    };
  }

  it("HTTP: the agent's sends wait for a client that does not read, which is then dropped with a log line", async () => {
    const sent = { count: 0, failed: undefined as unknown };
    const { served, server, lines } = await serveAgent({
      connect: flooding(sent, 2000, 10_000),
      maxBufferedBytes: 100_000,
      maxOutputStallMs: 400,
    });
    const id = await open(served.url);
    // The session's stream is opened and never read.
    const stalled = await fetch(served.url, {
      headers: { Accept: "text/event-stream", "Acp-Connection-Id": id, "Acp-Session-Id": "flood" },
    });
    expect(stalled.status).toBe(200);
    await send(served.url, {
      headers: { ...connected(id), "Acp-Session-Id": "flood" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "session/prompt",
        params: { sessionId: "flood", prompt: [] },
      }),
    });
    await eventually(() => server.connectionCount === 0, 10_000);
    // 2000 updates of 10 kB would be 20 MB: the agent was held back after about the limit
    // plus what the sockets between hold, then its send failed.
    expect(sent.count).toBeLessThan(1000);
    expect(sent.failed).toBeDefined();
    expect(lines).toEqual([
      expect.stringMatching(
        /^acp server: dropped connection [0-9a-f]{8}…: its client read nothing for 400 ms/,
      ),
    ]);
    await stalled.body?.cancel().catch(() => {});
  });

  it("WebSocket: the same for a client that stops reading its socket", async () => {
    const sent = { count: 0, failed: undefined as unknown };
    const { served, server, lines } = await serveAgent({
      connect: flooding(sent, 2000, 10_000),
      maxBufferedBytes: 100_000,
      maxOutputStallMs: 400,
    });
    const opened = await upgrade(served.url);
    if (!("socket" in opened)) throw new Error(`upgrade refused: ${opened.status}`);
    const socket = opened.socket;
    const answers: unknown[] = [];
    socket.on("message", (data) => answers.push(JSON.parse(String(data))));
    socket.send(initializeBody());
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      }),
    );
    await eventually(() => answers.length === 2);
    // Stop reading: the server's socket buffer fills up.
    socket.pause();
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "session/prompt",
        params: { sessionId: "flood", prompt: [] },
      }),
    );
    await eventually(() => server.connectionCount === 0, 15_000);
    expect(sent.count).toBeLessThan(1000);
    expect(sent.failed).toBeDefined();
    expect(lines).toEqual([
      expect.stringMatching(
        /^acp server: dropped connection [0-9a-f]{8}…: its client (read nothing for 400 ms|is not reading)/,
      ),
    ]);
    socket.terminate();
  });
});
