/**
 * The remote transport on Node's `http` server: `serve` (listen, with WebSocket upgrades on
 * the same path), and the two adapters for applications that own their `http.Server`.
 * Part of `PKG/node`; the only code that touches the `ws` package, an optional peer
 * dependency, and only when `serve` starts WebSocket support (a dynamic import).
 *
 * Types here describe the members used (Node's `IncomingMessage`, `ServerResponse`, a
 * socket, `ws`'s `WebSocketServer`), so the declarations need neither @types/node nor
 * @types/ws.
 */
import { createServer } from "node:http";
import type { AcpServer } from "./remote-server.js";
import type { ReadableLike, RequestLike, StreamReadResult, WebSocketLike } from "./web-types.js";

/** What is read of Node's `IncomingMessage`. */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly complete?: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close" | "aborted", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** What is used of Node's `ServerResponse`. */
export interface NodeServerResponse {
  statusCode: number;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  setHeader(name: string, value: string | readonly string[]): unknown;
  flushHeaders(): void;
  write(chunk: Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  once(event: "drain" | "close" | "finish", listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  destroy(): unknown;
}

/** What is used of the socket of an `upgrade` event. */
export interface NodeUpgradeSocket {
  write(data: string): unknown;
  destroy(): unknown;
  once(event: "close" | "error", listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/** What is used of `ws`'s `WebSocketServer` (made with `noServer: true`). */
export interface NodeWebSocketServer {
  handleUpgrade(
    request: never,
    socket: never,
    head: never,
    callback: (socket: WebSocketLike) => void,
  ): void;
  on(event: "headers", listener: (headers: string[], request: never) => void): unknown;
  removeListener(event: "headers", listener: (...args: never[]) => void): unknown;
}

export interface NodeWebSocketOptions {
  /**
   * How often each socket is pinged; one that has not answered the previous ping is
   * terminated (a client that vanished without closing). Default 30 s; 0 turns it off.
   */
  readonly heartbeatMs?: number;
}

/** A request as the server reads it: headers, the body as it streams in, an abort signal. */
function requestOf(req: NodeIncomingMessage, signal?: AbortSignal): RequestLike {
  const host = firstHeader(req.headers.host) ?? "localhost";
  const safeHost = /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : "localhost";
  const method = req.method ?? "GET";
  return {
    method,
    url: `http://${safeHost}${req.url ?? "/"}`,
    headers: {
      get(name: string): string | null {
        const value = req.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: method === "GET" || method === "HEAD" ? null : bodyOf(req),
    ...(signal ? { signal } : {}),
  };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The request body as a reader that pauses the socket while the server is not reading.
 * Cancelling discards the rest instead of destroying the socket, so a 413 still reaches the
 * client.
 */
function bodyOf(req: NodeIncomingMessage): ReadableLike<Uint8Array> {
  return {
    getReader() {
      const chunks: Uint8Array[] = [];
      let ended = false;
      let failure: Error | undefined;
      let wake: (() => void) | undefined;
      const notify = () => {
        const resume = wake;
        wake = undefined;
        resume?.();
      };
      const onData = (chunk: Uint8Array) => {
        chunks.push(chunk);
        req.pause();
        notify();
      };
      const onEnd = () => {
        ended = true;
        notify();
      };
      const onError = (error: Error) => {
        failure ??= error;
        notify();
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("aborted", () => onError(new Error("the client aborted the request")));
      req.on("error", onError);
      const detach = () => {
        req.removeListener("data", onData);
        req.removeListener("end", onEnd);
      };
      return {
        async read(): Promise<StreamReadResult<Uint8Array>> {
          for (;;) {
            const chunk = chunks.shift();
            if (chunk) return { done: false, value: chunk };
            if (failure) throw failure;
            if (ended) return { done: true };
            req.resume();
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        releaseLock: detach,
        async cancel(): Promise<void> {
          detach();
          chunks.length = 0;
          // Read and drop the rest: the answer (413) can still be sent on this socket.
          req.resume();
        },
      };
    },
  };
}

/** Writes a fetch `Response` to Node's response, streaming its body with backpressure. */
async function writeResponse(res: NodeServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie?.() ?? [];
  response.headers.forEach((value, name) => {
    if (name.toLowerCase() !== "set-cookie") res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  // An event stream's headers go out now: the client learns the stream is open.
  res.flushHeaders();
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done || gone) break;
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.removeListener("drain", done);
            res.removeListener("close", done);
            resolve();
          };
          res.once("drain", done);
          res.once("close", done);
        });
      }
    }
  } catch {
    // The body failed after the status was sent: cut the response rather than end it cleanly.
    if (!gone) res.destroy();
    return;
  } finally {
    res.removeListener("close", onClose);
  }
  if (!gone && !res.writableEnded) res.end();
}

/**
 * A Node `request` listener serving the ACP endpoint with `server.handleRequest`: mount it
 * on your `http.Server` (or under your router, at the path you choose).
 */
export function createNodeHttpHandler(
  server: AcpServer,
): (req: NodeIncomingMessage, res: NodeServerResponse) => void {
  return (req, res) => {
    const aborter = new AbortController();
    const onClose = () => {
      if (!res.writableEnded) aborter.abort(new Error("the client went away"));
    };
    res.once("close", onClose);
    server
      .handleRequest(requestOf(req, aborter.signal))
      .then((response) => writeResponse(res, response as Response))
      .catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.statusCode = 500;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end(
          `the ACP server failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      });
  };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** Refuses an upgrade with a plain HTTP answer, then closes the socket. */
function refuseUpgrade(socket: NodeUpgradeSocket, status: number, message: string): void {
  const body = `${message}\n`;
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}

/**
 * A Node `upgrade` listener accepting WebSocket connections for `server`, through your
 * `ws` `WebSocketServer` (made with `noServer: true`; set its `maxPayload` to the server's
 * `limits.maxMessageBytes`). The upgrade is checked (origin, `authenticate`, limits) before
 * it is accepted; the 101 carries `Acp-Connection-Id`.
 */
export function createNodeWebSocketUpgradeHandler(
  server: AcpServer,
  webSocketServer: NodeWebSocketServer,
  options: NodeWebSocketOptions = {},
): (req: NodeIncomingMessage, socket: NodeUpgradeSocket, head: Uint8Array) => void {
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  return (req, socket, head) => {
    let gone = false;
    const onGone = () => {
      gone = true;
    };
    socket.once("close", onGone);
    socket.once("error", onGone);
    server
      .prepareWebSocketUpgrade(requestOf(req))
      .then((prepared) => {
        if (!prepared.ok) {
          refuseUpgrade(socket, prepared.status, prepared.message);
          return;
        }
        if (gone) {
          prepared.reject();
          return;
        }
        const onHeaders = (headers: string[], request: unknown) => {
          if (request !== req) return;
          for (const [name, value] of Object.entries(prepared.headers))
            headers.push(`${name}: ${value}`);
        };
        webSocketServer.on("headers", onHeaders as never);
        socket.removeListener("close", onGone);
        socket.removeListener("error", onGone);
        const failed = () => prepared.reject();
        socket.once("close", failed);
        webSocketServer.handleUpgrade(req as never, socket as never, head as never, (ws) => {
          webSocketServer.removeListener("headers", onHeaders as never);
          socket.removeListener("close", failed);
          prepared.accept(ws);
          if (heartbeatMs > 0) heartbeat(ws, heartbeatMs);
        });
      })
      .catch(() => refuseUpgrade(socket, 500, "the ACP server failed"));
  };
}

/** Pings `ws` every `ms`; a socket that did not answer the last ping is terminated. */
function heartbeat(ws: WebSocketLike, ms: number): void {
  const socket = ws as WebSocketLike & {
    ping?: () => void;
    terminate?: () => void;
    on(type: string, listener: () => void): unknown;
  };
  if (typeof socket.ping !== "function" || typeof socket.terminate !== "function") return;
  let alive = true;
  socket.on("pong", () => {
    alive = true;
  });
  const timer = setInterval(() => {
    if (!alive) {
      clearInterval(timer);
      socket.terminate?.();
      return;
    }
    alive = false;
    try {
      socket.ping?.();
    } catch {
      clearInterval(timer);
    }
  }, ms);
  timer.unref();
  socket.on("close", () => clearInterval(timer));
}

export interface ServeOptions extends NodeWebSocketOptions {
  /** Default `127.0.0.1`: this machine only. Listening wider is a choice to make with `authenticate`. */
  readonly host?: string;
  /** Default 0: a free port (read it from `url`). */
  readonly port?: number;
  /** The endpoint's path. Default `/acp`. */
  readonly path?: string;
  /** Accept WebSocket upgrades (needs the `ws` package). Default true. */
  readonly webSocket?: boolean;
}

/** A listening ACP endpoint. */
export interface ServedAcp {
  /** `http://host:port/path`: give it to `createHttpStream` or `createWebSocketStream`. */
  readonly url: string;
  /** Stops listening and ends every connection (`server.close()`). */
  close(): Promise<void>;
}

/**
 * Serves `server` on a new Node `http.Server`: HTTP and WebSocket upgrades on one path.
 *
 * @example
 * const served = await serve(new AcpServer({ connect: (stream) => new AgentSideConnection(agent, stream) }), { port: 8000 });
 */
export async function serve(server: AcpServer, options: ServeOptions = {}): Promise<ServedAcp> {
  const path = options.path ?? "/acp";
  const host = options.host ?? "127.0.0.1";
  const http = createNodeHttpHandler(server);
  let upgrade:
    | ((req: NodeIncomingMessage, socket: NodeUpgradeSocket, head: Uint8Array) => void)
    | undefined;
  let webSockets: { close(): void; clients?: Set<{ terminate(): void }> } | undefined;
  if (options.webSocket !== false) {
    let ws: {
      WebSocketServer: new (
        options: object,
      ) => NodeWebSocketServer & { close(): void; clients: Set<{ terminate(): void }> };
    };
    try {
      ws = (await import("ws")) as never;
    } catch {
      throw new Error(
        "serve(): WebSocket support needs the ws package (npm install ws), or pass { webSocket: false } to serve HTTP only",
      );
    }
    const wss = new ws.WebSocketServer({
      noServer: true,
      maxPayload: server.limits.maxMessageBytes,
      perMessageDeflate: false,
    });
    webSockets = wss;
    upgrade = createNodeWebSocketUpgradeHandler(server, wss, options);
  }
  const pathOf = (url: string | undefined) => (url ?? "/").split("?")[0];
  const httpServer = createServer((req, res) => {
    if (pathOf(req.url) !== path) {
      res.statusCode = 404;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(`not found: the ACP endpoint is ${path}\n`);
      return;
    }
    http(req, res);
  });
  httpServer.on("upgrade", (req, socket, head) => {
    if (!upgrade || pathOf(req.url) !== path) {
      refuseUpgrade(socket, 404, `not found: the ACP endpoint is ${path}`);
      return;
    }
    upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.removeListener("error", reject);
      resolve();
    });
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${path}`,
    async close() {
      await server.close();
      // The sockets were asked to close (1001); one whose client does not answer is cut
      // after a moment, rather than after ws's own 30 s.
      const open = webSockets?.clients;
      for (let waited = 0; open && open.size > 0 && waited < 500; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      for (const socket of open ?? []) socket.terminate();
      webSockets?.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}
