import { createServer, request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { serve } from "../../.test-package/package/node/index.js";
import {
  AcpServer,
  createHttpStream,
  createWebSocketStream,
} from "../../.test-package/package/remote/index.js";
import { JSON_HEADERS, open, send } from "./raw.js";
import { agentConnect, client, closeAfter, newLog, texts, turn } from "./support.js";

/**
 * Several instances behind one reverse proxy, routed as the README's proxy configuration
 * routes them: `initialize` (no connection id yet) to any instance, every later request by
 * the `idPrefix` its connection id starts with, WebSocket upgrades to any instance (a socket
 * stays where it was accepted).
 */

const proxies: Server[] = [];
afterEach(() => {
  for (const p of proxies.splice(0)) {
    p.closeAllConnections();
    p.close();
  }
});

/** A minimal reverse proxy: the routing rule of the README's nginx map, in Node. */
async function proxy(backends: Record<string, number>): Promise<string> {
  const names = Object.keys(backends);
  let next = 0;
  const pick = (connectionId: string | undefined): number => {
    const prefix = connectionId?.split(".", 1)[0];
    if (prefix !== undefined && prefix in backends) return backends[prefix] as number;
    return backends[names[next++ % names.length] as string] as number;
  };
  const server = createServer((req, res) => {
    const id = req.headers["acp-connection-id"];
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port: pick(typeof id === "string" ? id : undefined),
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on("upgrade", (req, socket, head) => {
    const upstream = connect(pick(undefined), "127.0.0.1", () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxies.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/acp`;
}

async function instance(name: string) {
  const log = newLog();
  const served = await serve(new AcpServer({ connect: agentConnect(log), idPrefix: name }));
  closeAfter(served);
  return { log, served, port: Number(new URL(served.url).port) };
}

describe("several instances behind a reverse proxy", { timeout: 30_000 }, () => {
  it("names each connection after its instance, and refuses a prefix that is no name", async () => {
    const a = await instance("a");
    expect(await open(a.served.url)).toMatch(/^a\.[0-9a-f]{32}$/);
    expect(() => new AcpServer({ connect() {}, idPrefix: "a.b" })).toThrow(
      'AcpServer: idPrefix must be 1 to 64 letters, digits, _ or -, not "a.b"',
    );
  });

  it("carries every client's turns to the instance that holds its connection", async () => {
    const a = await instance("a");
    const b = await instance("b");
    const url = await proxy({ a: a.port, b: b.port });
    const clients = [
      client(createHttpStream(url)),
      client(createHttpStream(url)),
      client(createHttpStream(url)),
      client(createWebSocketStream(url, { WebSocket })),
      client(createWebSocketStream(url, { WebSocket })),
    ];
    const results = await Promise.all(clients.map((c) => turn(c.conn, "updates 4")));
    expect(results.map((r) => r.result.stopReason)).toEqual(Array(5).fill("end_turn"));
    for (const c of clients)
      expect(texts(c.updates)).toEqual(["chunk 0", "chunk 1", "chunk 2", "chunk 3"]);
    // Both instances served some: routing spread the connections and kept each in place.
    expect(a.log.prompts).toBeGreaterThan(0);
    expect(b.log.prompts).toBeGreaterThan(0);
    expect(a.log.prompts + b.log.prompts).toBe(5);
  });

  it("needs the routing: another instance does not know the connection", async () => {
    const a = await instance("a");
    const b = await instance("b");
    const id = await open(a.served.url);
    const elsewhere = await send(b.served.url, {
      headers: { ...JSON_HEADERS, "Acp-Connection-Id": id },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      }),
    });
    expect(elsewhere.status).toBe(404);
  });
});
