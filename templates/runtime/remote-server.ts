/**
 * `AcpServer`: the agent's end of the remote transport, as a WHATWG fetch handler
 * (`handleRequest`) plus WebSocket acceptance for hosts that hand over the socket. Web
 * platform only; `PKG/node` mounts it on Node's `http` server.
 *
 * Safe by default, in this order on every request and upgrade: a browser `Origin` that is
 * not on the allow-list is refused (403; the list is empty, so no web page can drive a
 * local agent until allowed), then `authenticate` runs, then the connection id must name a
 * live connection of the same principal. Ids are 128 random bits. Every body, queue and
 * wait has a limit (`RemoteLimits`).
 */
import { classify } from "./json-rpc.js";
import { MalformedFrame, type MessageStream } from "./message-stream.js";
import {
  type ConnectionHooks,
  RemoteConnection,
  type RemoteConnectionInfo,
  type RemoteLimits,
  type ResolvedLimits,
  resolveLimits,
  shortId,
} from "./remote-connection.js";
import {
  decodeMessage,
  EVENT_STREAM_MIME_TYPE,
  HEADER_CONNECTION_ID,
  HEADER_SESSION_ID,
  ID_PREFIX,
  INITIALIZE_METHOD,
  JSON_MIME_TYPE,
  listenToSocket,
  newConnectionId,
  RemoteClosedError,
  SSE_KEEPALIVE,
  sessionOfParams,
  sseEvents,
} from "./remote-wire.js";
import {
  consoleWarn,
  newByteStream,
  newResponse,
  startTimer,
  strictUtf8Decoder,
} from "./web-globals.js";
import type { PlatformResponse, RequestLike, ResponseLike, WebSocketLike } from "./web-types.js";

export type { RemoteConnectionInfo, RemoteLimits } from "./remote-connection.js";

/** What `authenticate` decides: see {@link AcpServerOptions.authenticate}. */
export type AuthenticateResult = boolean | string | ResponseLike | null | undefined;

export interface AcpServerOptions extends RemoteLimits {
  /**
   * Serve one client connection: called once per connection, with the stream to hand to a
   * connection of any surface (`new AgentSideConnection(handlers, stream)`) or a router.
   */
  connect(stream: MessageStream, connection: RemoteConnectionInfo): unknown;
  /**
   * The browser origins allowed to connect (`https://editor.example.com`), or a function
   * deciding. A request carrying any other `Origin` is refused with 403 before anything else;
   * requests without one (not from a browser) pass. Default: none, so every web page is
   * refused until allowed. `"*"` allows every origin: only behind `authenticate`.
   */
  readonly allowedOrigins?: readonly string[] | ((origin: string) => boolean);
  /**
   * Checks every request and every WebSocket upgrade (a bearer token, a cookie). Return
   * `true` to let it through, a string to let it through as that principal (the connection
   * is bound to it: a request of another principal does not find it), a `Response` to
   * answer with, or `false` for 401. Default: every request passes.
   */
  authenticate?(request: RequestLike): AuthenticateResult | Promise<AuthenticateResult>;
  /** Where a dropped connection is reported, one line each. Default `console.warn`. */
  log?(line: string): void;
  /**
   * This instance's name, put before every connection id it makes (`a.9f3c…`), so a reverse
   * proxy in front of several instances can send each request to the one holding its
   * connection: letters, digits, `_` and `-`.
   */
  readonly idPrefix?: string;
}

/** The outcome of {@link AcpServer.prepareWebSocketUpgrade}. */
export type WebSocketUpgrade =
  | {
      readonly ok: true;
      readonly connectionId: string;
      /** Headers for the 101 response: `Acp-Connection-Id` (a WebSocket needs no CORS). */
      readonly headers: Readonly<Record<string, string>>;
      /** The upgrade succeeded: serve the connection on `socket`. */
      accept(socket: WebSocketLike): void;
      /** The upgrade failed: forget the connection. */
      reject(): void;
    }
  | {
      readonly ok: false;
      /** The status to refuse the upgrade with, and its one-line reason. */
      readonly status: number;
      readonly message: string;
    };

/** What an event stream's body sends in one chunk when output is queued (about 64 KiB). */
const SSE_BATCH = 64 * 1024;
/** A comment on an event stream that is quiet this long (ms). */
const KEEPALIVE_MS = 15_000;

const ALLOW_METHODS = "GET, POST, DELETE, OPTIONS";

export class AcpServer {
  /** The limits in force, defaults filled in. */
  readonly limits: ResolvedLimits;
  private readonly connections = new Map<string, RemoteConnection>();
  private readonly hooks: ConnectionHooks;
  private isClosed = false;

  constructor(private readonly options: AcpServerOptions) {
    if (typeof options?.connect !== "function")
      throw new TypeError("AcpServer: options.connect(stream, connection) is required");
    this.limits = resolveLimits(options);
    if (options.idPrefix !== undefined && !ID_PREFIX.test(options.idPrefix))
      throw new RangeError(
        `AcpServer: idPrefix must be 1 to 64 letters, digits, _ or -, not ${JSON.stringify(options.idPrefix)}`,
      );
    const log = options.log ?? ((line: string) => consoleWarn(line));
    this.hooks = {
      closed: (connection) => {
        if (this.connections.get(connection.id) === connection)
          this.connections.delete(connection.id);
      },
      log,
    };
  }

  /** Open connections, over both transports. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Handles one request to the ACP endpoint: a WHATWG fetch handler. */
  async handleRequest(request: RequestLike): Promise<PlatformResponse> {
    const origin = request.headers.get("Origin");
    const refused = this.originProblem(origin);
    if (refused) return text(403, refused);
    const cors = corsHeaders(origin);
    if (request.method === "OPTIONS") return preflight(request, cors);
    const auth = await this.authenticate(request, cors);
    if ("response" in auth) return auth.response;
    if (this.isClosed) return text(503, "the ACP server is shutting down", cors);
    switch (request.method) {
      case "POST":
        return this.post(request, auth.principal, cors);
      case "GET":
        return this.get(request, auth.principal, cors);
      case "DELETE":
        return this.delete(request, auth.principal, cors);
      default:
        return text(405, `method ${request.method} is not allowed here`, {
          ...cors,
          Allow: ALLOW_METHODS,
        });
    }
  }

  /**
   * For a host that upgrades the WebSocket itself: checks the upgrade request (origin,
   * `authenticate`, the connection limit) before the upgrade is accepted, and names the
   * connection for the 101 response. Then `accept(socket)` serves it.
   */
  async prepareWebSocketUpgrade(request: RequestLike): Promise<WebSocketUpgrade> {
    const origin = request.headers.get("Origin");
    const refused = this.originProblem(origin);
    if (refused) return { ok: false, status: 403, message: refused };
    const auth = await this.authenticate(request);
    if ("response" in auth)
      return { ok: false, status: auth.response.status, message: "unauthorized" };
    if (this.isClosed)
      return { ok: false, status: 503, message: "the ACP server is shutting down" };
    const full = this.fullProblem();
    if (full) return { ok: false, status: 503, message: full };
    const id = newConnectionId(this.options.idPrefix);
    let settled = false;
    return {
      ok: true,
      connectionId: id,
      headers: { [HEADER_CONNECTION_ID]: id },
      accept: (socket) => {
        if (settled) throw new Error("AcpServer: this WebSocket upgrade was already settled");
        settled = true;
        if (this.isClosed) {
          socket.close(1001, "the ACP server is shutting down");
          return;
        }
        this.serveSocket(id, auth.principal, socket);
      },
      reject: () => {
        settled = true;
      },
    };
  }

  /** Ends every connection (WebSockets close with 1001) and refuses new ones. */
  async close(): Promise<void> {
    this.isClosed = true;
    for (const connection of [...this.connections.values()])
      connection.close(
        new RemoteClosedError("the ACP server shut down"),
        1001,
        "server shutting down",
      );
    this.connections.clear();
  }

  // --- Checks --------------------------------------------------------------------------

  private originProblem(origin: string | null): string | undefined {
    if (origin === null) return undefined;
    const allowed = this.options.allowedOrigins ?? [];
    const ok =
      typeof allowed === "function"
        ? allowed(origin) === true
        : allowed.includes(origin) || allowed.includes("*");
    return ok
      ? undefined
      : `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed (AcpServer allowedOrigins)`;
  }

  private async authenticate(
    request: RequestLike,
    cors: Record<string, string> = {},
  ): Promise<{ principal: string | undefined } | { response: PlatformResponse }> {
    const authenticate = this.options.authenticate;
    if (!authenticate) return { principal: undefined };
    let result: AuthenticateResult;
    try {
      result = await authenticate.call(this.options, request);
    } catch (error) {
      this.hooks.log(
        `acp server: authenticate() threw: ${error instanceof Error ? error.message : String(error)}`,
      );
      return { response: text(500, "authentication failed on the server", cors) };
    }
    if (result === true) return { principal: undefined };
    if (typeof result === "string") return { principal: result };
    if (typeof result === "object" && result !== null)
      return { response: result as unknown as PlatformResponse };
    // With CORS for an allowed page, so it can read why.
    return { response: text(401, "unauthorized", { ...cors, "WWW-Authenticate": "Bearer" }) };
  }

  private fullProblem(): string | undefined {
    return this.connections.size >= this.limits.maxConnections
      ? `too many connections: ${this.limits.maxConnections} are open (maxConnections)`
      : undefined;
  }

  /** The connection a request names, if it is live and its principal's; else the answer. */
  private find(
    request: RequestLike,
    principal: string | undefined,
    cors: Record<string, string>,
  ): RemoteConnection | PlatformResponse {
    const id = request.headers.get(HEADER_CONNECTION_ID);
    if (id === null) return text(400, `missing ${HEADER_CONNECTION_ID} header`, cors);
    const connection = this.connections.get(id);
    // Another principal's connection is not found either: its existence is not revealed.
    if (!connection || connection.closed || connection.principal !== principal)
      return text(
        404,
        `unknown ${HEADER_CONNECTION_ID}: the connection ended or never existed`,
        cors,
      );
    return connection;
  }

  private open(
    transport: "http" | "websocket",
    principal: string | undefined,
    id = newConnectionId(this.options.idPrefix),
  ): RemoteConnection {
    const connection = new RemoteConnection(id, transport, principal, this.limits, this.hooks);
    this.connections.set(id, connection);
    try {
      this.options.connect(connection.stream, connection.info);
    } catch (error) {
      connection.close(new RemoteClosedError("connect() failed"));
      throw error;
    }
    return connection;
  }

  // --- HTTP ----------------------------------------------------------------------------

  private async post(
    request: RequestLike,
    principal: string | undefined,
    cors: Record<string, string>,
  ): Promise<PlatformResponse> {
    const type = request.headers.get("Content-Type");
    if (type?.split(";")[0]?.trim().toLowerCase() !== JSON_MIME_TYPE)
      return text(415, `Content-Type must be ${JSON_MIME_TYPE}`, cors);
    const body = await readBody(request, this.limits.maxMessageBytes);
    if (typeof body !== "string") {
      if ("tooLarge" in body)
        return text(
          413,
          `request body is ${body.tooLarge} bytes, over the limit of ${this.limits.maxMessageBytes} bytes (maxMessageBytes)`,
          cors,
        );
      return text(400, "request body is not UTF-8", cors);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return text(400, `request body is not JSON (${body.length} characters)`, cors);
    }
    if (Array.isArray(value))
      return json(
        501,
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: JSON-RPC batches are not supported" },
        }),
        cors,
      );
    const message = classify(value);
    if (message.kind === "invalid")
      return text(400, `not a JSON-RPC message: ${message.reason}`, cors);
    const header = request.headers.get(HEADER_CONNECTION_ID);
    const isInitialize = message.kind === "request" && message.method === INITIALIZE_METHOD;
    if (header === null) {
      if (!isInitialize)
        return text(
          400,
          `missing ${HEADER_CONNECTION_ID} header (only initialize opens a connection)`,
          cors,
        );
      return this.initialize(request, principal, value, body.length, message.id, cors);
    }
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection)) return found;
    const connection = found;
    if (isInitialize) return text(400, "initialize on a connection that is already open", cors);
    const idProblem = this.idProblem(message);
    if (idProblem) return text(400, idProblem, cors);
    // The session a message names must be the one the request says it is for.
    const named = sessionOfParams(value);
    const headerSession = request.headers.get(HEADER_SESSION_ID) ?? undefined;
    if (named !== undefined && headerSession === undefined)
      return text(
        400,
        `missing ${HEADER_SESSION_ID} header for session-scoped ${describe(message)}`,
        cors,
      );
    if (named !== undefined && headerSession !== named)
      return text(
        400,
        `${HEADER_SESSION_ID} does not match the sessionId of ${describe(message)}`,
        cors,
      );
    if (headerSession !== undefined && headerSession.length > this.limits.maxIdLength)
      return text(
        400,
        `${HEADER_SESSION_ID} is longer than ${this.limits.maxIdLength} characters (maxIdLength)`,
        cors,
      );
    const done = connection.busy();
    try {
      if (message.kind === "request") {
        if (headerSession !== undefined && !connection.sessionOutbox(headerSession))
          return text(429, tooManySessions(this.limits), cors);
        if (!connection.expectAnswer(message.id, message.method, headerSession))
          return text(
            400,
            `request id ${JSON.stringify(message.id)} is already pending on this connection`,
            cors,
          );
      }
      await raceAbort(connection.deliver(value, body.length), request);
      return empty(202, cors);
    } catch {
      return text(404, `unknown ${HEADER_CONNECTION_ID}: the connection ended`, cors);
    } finally {
      done();
    }
  }

  private idProblem(message: ReturnType<typeof classify>): string | undefined {
    const id = "id" in message ? message.id : undefined;
    return typeof id === "string" && id.length > this.limits.maxIdLength
      ? `request id is longer than ${this.limits.maxIdLength} characters (maxIdLength)`
      : undefined;
  }

  private async initialize(
    request: RequestLike,
    principal: string | undefined,
    value: unknown,
    size: number,
    id: unknown,
    cors: Record<string, string>,
  ): Promise<PlatformResponse> {
    const full = this.fullProblem();
    if (full) return text(503, full, { ...cors, "Retry-After": "5" });
    let connection: RemoteConnection;
    try {
      connection = this.open("http", principal);
    } catch (error) {
      this.hooks.log(
        `acp server: connect() threw: ${error instanceof Error ? error.message : String(error)}`,
      );
      return text(500, "the agent could not be started for this connection", cors);
    }
    const done = connection.busy();
    try {
      const answered = connection.expectInitialize(id);
      await connection.deliver(value, size);
      let timer: { cancel(): void } | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = startTimer(this.limits.initializeTimeoutMs, () => resolve("timeout"));
      });
      const answer = await raceAbort(Promise.race([answered, timeout]), request).finally(() =>
        timer?.cancel(),
      );
      if (answer === "timeout") {
        connection.close(new RemoteClosedError("the agent did not answer initialize in time"));
        return text(
          504,
          `the agent did not answer initialize within ${this.limits.initializeTimeoutMs} ms (initializeTimeoutMs)`,
          cors,
        );
      }
      // An agent that refuses initialize leaves nothing to connect to.
      if ("error" in (JSON.parse(answer) as object)) {
        connection.close(new RemoteClosedError("the agent refused initialize"));
        return json(200, answer, cors);
      }
      return json(200, answer, { ...cors, [HEADER_CONNECTION_ID]: connection.id });
    } catch {
      connection.close(new RemoteClosedError("the client went away during initialize"));
      return text(499, "the client went away during initialize", cors);
    } finally {
      done();
    }
  }

  private get(
    request: RequestLike,
    principal: string | undefined,
    cors: Record<string, string>,
  ): PlatformResponse {
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket")
      return text(
        426,
        "this host does not upgrade to WebSocket here (see prepareWebSocketUpgrade)",
        cors,
      );
    if (!request.headers.get("Accept")?.toLowerCase().includes(EVENT_STREAM_MIME_TYPE))
      return text(406, `Accept must include ${EVENT_STREAM_MIME_TYPE}`, cors);
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection)) return found;
    const session = request.headers.get(HEADER_SESSION_ID);
    if (session !== null && session.length > this.limits.maxIdLength)
      return text(
        400,
        `${HEADER_SESSION_ID} is longer than ${this.limits.maxIdLength} characters (maxIdLength)`,
        cors,
      );
    const outbox = session === null ? found.outbox : found.sessionOutbox(session);
    if (!outbox) return text(429, tooManySessions(this.limits), cors);
    const connection = found;
    const receiver = {};
    // A new GET takes the stream over (a client reconnecting before the server noticed),
    // and gets again what followed the last event it saw.
    outbox.receiver = receiver;
    const last = request.headers.get("Last-Event-ID");
    if (last !== null && /^\d{1,15}$/.test(last)) outbox.resume(Number(last));
    outbox.notify();
    const done = connection.busy();
    const detach = () => {
      if (outbox.receiver === receiver) outbox.receiver = undefined;
      done();
    };
    const body = newByteStream({
      async pull(controller) {
        for (;;) {
          if (outbox.receiver !== receiver) {
            detach();
            controller.close();
            return;
          }
          const items = outbox.take(SSE_BATCH);
          if (items.length > 0) {
            controller.enqueue(sseEvents(items));
            return;
          }
          if (outbox.finished) {
            detach();
            controller.close();
            return;
          }
          if (
            !(await outbox.next(KEEPALIVE_MS)) &&
            outbox.receiver === receiver &&
            !outbox.finished
          ) {
            controller.enqueue(SSE_KEEPALIVE);
            return;
          }
        }
      },
      cancel: detach,
    });
    return newResponse(body, 200, {
      ...cors,
      "Content-Type": EVENT_STREAM_MIME_TYPE,
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    });
  }

  private delete(
    request: RequestLike,
    principal: string | undefined,
    cors: Record<string, string>,
  ): PlatformResponse {
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection)) return found;
    found.close(new RemoteClosedError("the client ended the connection"));
    return empty(202, cors);
  }

  // --- WebSocket -----------------------------------------------------------------------

  private serveSocket(id: string, principal: string | undefined, socket: WebSocketLike): void {
    let connection: RemoteConnection;
    try {
      connection = new RemoteConnection(id, "websocket", principal, this.limits, this.hooks);
      connection.attachSocket(socket);
      this.connections.set(id, connection);
      this.options.connect(connection.stream, connection.info);
    } catch (error) {
      this.hooks.log(
        `acp server: connect() threw: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.connections.delete(id);
      socket.close(1011, "the agent could not be started");
      return;
    }
    const limit = this.limits.maxMessageBytes;
    const decoder = strictUtf8Decoder();
    let warnedBinary = false;
    const tooBig = (size: number) => {
      connection.drop(
        `its client sent a ${size}-byte message, over the limit of ${limit} bytes (maxMessageBytes)`,
      );
    };
    listenToSocket(socket, {
      message: (data, binary) => {
        if (connection.closed || data === undefined) return;
        if (data.length > limit) {
          tooBig(data.length);
          return;
        }
        if (binary) {
          // The RFD: binary messages are ignored.
          if (!warnedBinary)
            this.hooks.log(
              `acp server: connection ${shortId(id)} sent a binary WebSocket message; ignored`,
            );
          warnedBinary = true;
          return;
        }
        let value: unknown;
        if (typeof data === "string") value = decodeMessage(data, limit);
        else {
          try {
            value = decodeMessage(decoder.decode(data), limit);
          } catch {
            value = new MalformedFrame("invalid-utf8", data.length);
          }
        }
        connection.deliver(value, data.length).catch(() => {});
      },
      close: (code) => {
        connection.close(new RemoteClosedError(`the client closed the WebSocket (${code})`, code));
      },
      error: () => {
        connection.close(new RemoteClosedError("the WebSocket failed"));
      },
    });
  }
}

function tooManySessions(limits: ResolvedLimits): string {
  return `too many sessions on this connection: ${limits.maxSessionsPerConnection} (maxSessionsPerConnection)`;
}

function describe(message: ReturnType<typeof classify>): string {
  return "method" in message ? message.method : `answer to ${JSON.stringify(message.id)}`;
}

/** Rejects when the request is aborted (its client went away) before `promise` settles. */
function raceAbort<T>(promise: Promise<T>, request: RequestLike): Promise<T> {
  const signal = request.signal;
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error("request aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("request aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The body as text, or how it broke the limit (never buffering past it), or not UTF-8. */
async function readBody(
  request: RequestLike,
  limit: number,
): Promise<string | { tooLarge: number } | { invalid: true }> {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared > limit) {
    // Not read: the host discards it.
    request.body
      ?.getReader()
      .cancel()
      .catch(() => {});
    return { tooLarge: declared };
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done || !next.value) break;
    size += next.value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return { tooLarge: size };
    }
    chunks.push(next.value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  try {
    return strictUtf8Decoder().decode(all);
  } catch {
    return { invalid: true };
  }
}

/** The CORS headers for a request from an allowed origin (none for non-browser clients). */
function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Expose-Headers": HEADER_CONNECTION_ID,
    Vary: "Origin",
  };
}

function preflight(request: RequestLike, cors: Record<string, string>): PlatformResponse {
  return empty(204, {
    ...cors,
    "Access-Control-Allow-Methods": ALLOW_METHODS,
    "Access-Control-Allow-Headers":
      request.headers.get("Access-Control-Request-Headers") ??
      `Content-Type, Authorization, ${HEADER_CONNECTION_ID}, ${HEADER_SESSION_ID}`,
    "Access-Control-Max-Age": "600",
  });
}

function text(
  status: number,
  line: string,
  headers: Record<string, string> = {},
): PlatformResponse {
  return newResponse(`${line}\n`, status, {
    ...headers,
    "Content-Type": "text/plain; charset=utf-8",
  });
}

function json(status: number, body: string, headers: Record<string, string>): PlatformResponse {
  return newResponse(body, status, { ...headers, "Content-Type": JSON_MIME_TYPE });
}

function empty(status: number, headers: Record<string, string>): PlatformResponse {
  return newResponse(null, status, headers);
}
