import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  createHttpStream,
  createWebSocketStream,
  RemoteClosedError,
} from "../../.test-package/package/remote/index.js";
import { ConnectionClosedError, PROTOCOL_VERSION } from "../../.test-package/package/v1/index.js";
import { initializeBody, JSON_HEADERS, open, send, upgrade } from "./raw.js";
import { client, eventually, serveAgent, texts, turn } from "./support.js";

const EVIL = "https://evil.example";
const EDITOR = "https://editor.example";

describe("Origin: a web page must be allowed explicitly", { timeout: 20_000 }, () => {
  it("refuses a POST carrying an Origin when the allow-list is empty (the default), opening nothing", async () => {
    const { served, server, log } = await serveAgent();
    const reply = await send(served.url, {
      headers: { ...JSON_HEADERS, Origin: EVIL },
      body: initializeBody(),
    });
    expect(reply.status).toBe(403);
    expect(reply.text).toBe(
      'Origin "https://evil.example" is not allowed (AcpServer allowedOrigins)\n',
    );
    expect(reply.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(reply.headers.get("Acp-Connection-Id")).toBeNull();
    expect(server.connectionCount).toBe(0);
    expect(log.connections).toBe(0);
  });

  it("refuses a WebSocket upgrade from a page not allowed, before the socket opens", async () => {
    const { served, server, log } = await serveAgent({ allowedOrigins: [EDITOR] });
    const refused = await upgrade(served.url, { Origin: EVIL });
    expect(refused).toEqual({
      status: 403,
      text: 'Origin "https://evil.example" is not allowed (AcpServer allowedOrigins)\n',
    });
    expect(server.connectionCount).toBe(0);
    expect(log.connections).toBe(0);
  });

  it("refuses the preflight and every other method from a page not allowed", async () => {
    const { served } = await serveAgent({ allowedOrigins: [EDITOR] });
    for (const method of ["OPTIONS", "GET", "DELETE", "PUT"]) {
      const reply = await send(served.url, { method, headers: { Origin: EVIL } });
      expect(reply.status, method).toBe(403);
    }
  });

  it("serves an allowed origin over both transports, with CORS for it alone", async () => {
    const { served } = await serveAgent({ allowedOrigins: [EDITOR] });
    const preflight = await send(served.url, {
      method: "OPTIONS",
      headers: {
        Origin: EDITOR,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, acp-connection-id",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe(EDITOR);
    expect(preflight.headers.get("Access-Control-Allow-Credentials")).toBe("true");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe(
      "content-type, acp-connection-id",
    );
    const reply = await send(served.url, {
      headers: { ...JSON_HEADERS, Origin: EDITOR },
      body: initializeBody(),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Access-Control-Allow-Origin")).toBe(EDITOR);
    expect(reply.headers.get("Access-Control-Expose-Headers")).toBe("Acp-Connection-Id");
    // Over WebSocket, as a browser page of that origin would connect.
    const ws = client(
      createWebSocketStream(served.url, { WebSocket, headers: { Origin: EDITOR } }),
    );
    expect((await turn(ws.conn, "updates 2")).result.stopReason).toBe("end_turn");
  });

  it("takes a predicate, or '*' for every origin", async () => {
    const predicate = await serveAgent({ allowedOrigins: (o) => o.endsWith(".editor.example") });
    const ok = await send(predicate.served.url, {
      headers: { ...JSON_HEADERS, Origin: "https://a.editor.example" },
      body: initializeBody(),
    });
    const no = await send(predicate.served.url, {
      headers: { ...JSON_HEADERS, Origin: "https://editor.example.evil" },
      body: initializeBody(),
    });
    expect([ok.status, no.status]).toEqual([200, 403]);
    const any = await serveAgent({ allowedOrigins: ["*"] });
    const anyReply = await send(any.served.url, {
      headers: { ...JSON_HEADERS, Origin: EVIL },
      body: initializeBody(),
    });
    expect(anyReply.status).toBe(200);
  });
});

describe("authenticate: every request and every upgrade", { timeout: 20_000 }, () => {
  const bearer = (request: { headers: { get(name: string): string | null } }) => {
    const token = request.headers.get("Authorization");
    return token === "Bearer alice-token" ? "alice" : token === "Bearer bob-token" ? "bob" : false;
  };

  it("is asked about each request a turn makes over HTTP, and about the upgrade over WebSocket", async () => {
    const seen: string[] = [];
    const { served } = await serveAgent({
      authenticate(request) {
        seen.push(request.method);
        return bearer(request);
      },
    });
    const http = client(
      createHttpStream(served.url, { headers: { Authorization: "Bearer alice-token" } }),
    );
    await turn(http.conn, "updates 3");
    http.conn.close();
    await eventually(() => seen.includes("DELETE"));
    // initialize, session/new and the prompt are POSTs; the connection's and the session's
    // event streams are GETs; closing is a DELETE: each one was authenticated.
    expect(seen.filter((m) => m === "POST")).toHaveLength(3);
    expect(seen.filter((m) => m === "GET")).toHaveLength(2);
    seen.length = 0;
    const ws = client(
      createWebSocketStream(served.url, {
        WebSocket,
        headers: { Authorization: "Bearer alice-token" },
      }),
    );
    await turn(ws.conn, "updates 3");
    expect(seen).toEqual(["GET"]);
  });

  it("refuses a client without credentials with 401, over both transports", async () => {
    const { served, server } = await serveAgent({ authenticate: bearer });
    const reply = await send(served.url, { headers: JSON_HEADERS, body: initializeBody() });
    expect([reply.status, reply.text]).toEqual([401, "unauthorized\n"]);
    expect(await upgrade(served.url)).toEqual({ status: 401, text: "unauthorized\n" });
    // Our client says why initialize failed, and its stream ends with the same reason.
    const http = client(createHttpStream(served.url));
    await expect(http.conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION })).rejects.toThrow(
      "the ACP server answered HTTP 401: unauthorized",
    );
    const ws = client(createWebSocketStream(served.url, { WebSocket }));
    const failed = await ws.conn.agent
      .initialize({ protocolVersion: PROTOCOL_VERSION })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionClosedError);
    expect((failed as ConnectionClosedError).reason).toBeInstanceOf(RemoteClosedError);
    expect((failed as Error).message).toMatch(/401/);
    expect(server.connectionCount).toBe(0);
  });

  it("binds a connection to its principal: another principal's requests do not find it", async () => {
    const { served } = await serveAgent({ authenticate: bearer });
    const alice = { Authorization: "Bearer alice-token" };
    const bob = { Authorization: "Bearer bob-token" };
    const id = await open(served.url, alice);
    const asBob = await send(served.url, {
      headers: { ...JSON_HEADERS, ...bob, "Acp-Connection-Id": id },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      }),
    });
    expect(asBob.status).toBe(404);
    const stream = await send(served.url, {
      method: "GET",
      headers: { ...bob, Accept: "text/event-stream", "Acp-Connection-Id": id },
    });
    expect(stream.status).toBe(404);
    const close = await send(served.url, {
      method: "DELETE",
      headers: { ...bob, "Acp-Connection-Id": id },
    });
    expect(close.status).toBe(404);
    // Alice's connection is untouched by all that.
    const asAlice = await send(served.url, {
      method: "GET",
      headers: { ...alice, Accept: "text/event-stream", "Acp-Connection-Id": id },
    });
    expect(asAlice.status).toBe(200);
  });

  it("answers with the Response authenticate returns", async () => {
    const { served } = await serveAgent({
      authenticate: () => new Response("come back later\n", { status: 429 }),
    });
    const reply = await send(served.url, { headers: JSON_HEADERS, body: initializeBody() });
    expect([reply.status, reply.text]).toEqual([429, "come back later\n"]);
  });
});

describe("ids: unguessable, and bound to their connection", { timeout: 20_000 }, () => {
  it("names connections with 128 random bits, never twice", async () => {
    const { served } = await serveAgent();
    const ids = await Promise.all(Array.from({ length: 40 }, () => open(served.url)));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit position varies: nothing fixed (a counter, a timestamp) is in them.
    for (let i = 0; i < 32; i++) expect(new Set(ids.map((id) => id[i])).size).toBeGreaterThan(1);
  });

  it("answers a forged or malformed connection id with 404, whatever the method", async () => {
    const { served } = await serveAgent();
    await open(served.url);
    const forged = "0".repeat(32);
    for (const [method, extra] of [
      ["POST", JSON_HEADERS],
      ["GET", { Accept: "text/event-stream" }],
      ["DELETE", {}],
    ] as const) {
      for (const id of [forged, "../../etc/passwd", "x".repeat(5000)]) {
        const reply = await send(served.url, {
          method,
          headers: { ...extra, "Acp-Connection-Id": id },
          ...(method === "POST"
            ? {
                body: JSON.stringify({
                  jsonrpc: "2.0",
                  method: "session/cancel",
                  params: { sessionId: "s" },
                }),
              }
            : {}),
        });
        expect(reply.status, `${method} ${id.slice(0, 10)}`).toBe(404);
      }
    }
  });

  it("never lets connection B see the updates of connection A's session", async () => {
    const { served } = await serveAgent();
    const a = client(createHttpStream(served.url));
    await a.conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await a.conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    // B opens a stream for A's session id on its own connection.
    const b = await open(served.url);
    const spy = await fetch(served.url, {
      headers: { Accept: "text/event-stream", "Acp-Connection-Id": b, "Acp-Session-Id": sessionId },
    });
    expect(spy.status).toBe(200);
    let spied = "";
    const reading = (async () => {
      const reader = spy.body?.getReader();
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) return;
        spied += new TextDecoder().decode(next.value);
      }
    })();
    await a.conn.agent.sessionPrompt({ sessionId, prompt: [{ type: "text", text: "updates 20" }] });
    expect(texts(a.updates)).toHaveLength(20);
    await send(served.url, { method: "DELETE", headers: { "Acp-Connection-Id": b } });
    await reading;
    expect(spied).not.toContain("chunk");
  });

  it("keeps the answers of two connections apart when both use the same request ids", async () => {
    const { served } = await serveAgent();
    const a = client(createHttpStream(served.url));
    const b = client(createWebSocketStream(served.url, { WebSocket }));
    const c = client(createHttpStream(served.url));
    // Each connection numbers its requests from 0: the same ids, concurrently.
    const [ra, rb, rc] = await Promise.all([
      turn(a.conn, "updates 7"),
      turn(b.conn, "updates 3"),
      turn(c.conn, "updates 5"),
    ]);
    expect([ra, rb, rc].map((r) => r.result.stopReason)).toEqual([
      "end_turn",
      "end_turn",
      "end_turn",
    ]);
    expect([a, b, c].map((x) => texts(x.updates).length)).toEqual([7, 3, 5]);
    expect(new Set([ra.sessionId, rb.sessionId, rc.sessionId]).size).toBe(3);
  });

  it("refuses a request id already pending on the same connection", async () => {
    const { served } = await serveAgent();
    const id = await open(served.url);
    const stream = await fetch(served.url, {
      headers: { Accept: "text/event-stream", "Acp-Connection-Id": id },
    });
    const prompt = (sessionId: string) =>
      send(served.url, {
        headers: { ...JSON_HEADERS, "Acp-Connection-Id": id, "Acp-Session-Id": sessionId },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "session/prompt",
          params: { sessionId, prompt: [{ type: "text", text: "hang" }] },
        }),
      });
    expect((await prompt("s")).status).toBe(202);
    const again = await prompt("s");
    expect([again.status, again.text]).toEqual([
      400,
      "request id 7 is already pending on this connection\n",
    ]);
    await stream.body?.cancel();
  });
});
