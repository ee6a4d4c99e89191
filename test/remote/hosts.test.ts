import { describe, expect, it } from "vitest";
import { AcpServer, type WebSocketLike } from "../../.test-package/package/remote/index.js";
import { agentConnect, eventually, newLog } from "./support.js";

/**
 * Hosts other than Node's `http`: `handleRequest` as a plain fetch handler, and a WebSocket
 * handed over the way Deno, Bun or a worker hand one (a web `WebSocket`, with
 * `addEventListener`), through `prepareWebSocketUpgrade` and `accept`.
 */

/** A server-side web socket as such hosts give it: events in, `send` out. */
class WebSocketOfAHost extends EventTarget implements WebSocketLike {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: unknown[] = [];
  closedWith: number | undefined;
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  receive(data: unknown): void {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  hangUp(code: number): void {
    this.readyState = 3;
    const event = new Event("close") as Event & { code: number };
    event.code = code;
    this.dispatchEvent(event);
  }
}

const URL_ = "https://agent.example/acp";

describe("a host that hands over the socket", { timeout: 20_000 }, () => {
  it("checks the upgrade first, then serves the socket it is given", async () => {
    const log = newLog();
    const server = new AcpServer({
      connect: agentConnect(log),
      allowedOrigins: ["https://ok.example"],
    });
    const refused = await server.prepareWebSocketUpgrade(
      new Request(URL_, { headers: { Origin: "https://evil.example", Upgrade: "websocket" } }),
    );
    expect(refused).toEqual({
      ok: false,
      status: 403,
      message: 'Origin "https://evil.example" is not allowed (AcpServer allowedOrigins)',
    });
    const prepared = await server.prepareWebSocketUpgrade(
      new Request(URL_, { headers: { Origin: "https://ok.example", Upgrade: "websocket" } }),
    );
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.headers).toEqual({ "Acp-Connection-Id": prepared.connectionId });
    expect(log.connections).toBe(0);
    const socket = new WebSocketOfAHost();
    prepared.accept(socket);
    expect(() => prepared.accept(socket)).toThrow(
      "AcpServer: this WebSocket upgrade was already settled",
    );
    socket.receive(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: 1 },
      }),
    );
    socket.receive(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      }),
    );
    // A binary message is ignored, as the RFD says.
    socket.receive(new ArrayBuffer(8));
    await eventually(() => socket.sent.length === 2);
    expect(socket.sent.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(server.connectionCount).toBe(1);
    socket.hangUp(1006);
    await eventually(() => server.connectionCount === 0 && log.closed === 1);
  });

  it("answers a fetch handler's requests with the platform's Response", async () => {
    const server = new AcpServer({ connect: agentConnect() });
    const response = await server.handleRequest(
      new Request(URL_, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: 1 },
        }),
      }),
    );
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: 1, agentCapabilities: { loadSession: true } },
    });
    const upgrade = await server.handleRequest(
      new Request(URL_, { headers: { Upgrade: "websocket", Accept: "text/event-stream" } }),
    );
    expect(upgrade.status).toBe(426);
    await server.close();
    expect(server.connectionCount).toBe(0);
    const after = await server.handleRequest(new Request(URL_, { method: "DELETE" }));
    expect([after.status, await after.text()]).toEqual([503, "the ACP server is shutting down\n"]);
  });
});
