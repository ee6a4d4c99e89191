/**
 * The client's end of the remote transport: `createHttpStream` (POST out, server-sent
 * events in) and `createWebSocketStream`, each a {@link MessageStream} like `ndJsonStream`'s,
 * so the `ClientSideConnection` of every surface runs on it unchanged. Web platform only.
 *
 * Reconnection, where the RFD leaves it to implementations: an HTTP event stream that drops
 * while its connection lives is reopened (a few times, backing off) with the id of the last
 * event received as `Last-Event-ID`; our server then sends again what followed (the RFD
 * defers resumption to v2: a server that does not resume still delivers what it queued). When the server no longer knows the connection, the
 * WebSocket closes, or the server cannot be reached, the stream ends with a
 * `RemoteClosedError` saying so and every pending call rejects with it. To go on, open a new
 * stream with the same `cookieStore` (for sticky routing), `initialize`, then `session/load`.
 */
import { Fifo } from "./fifo.js";
import type { JsonRpcBatch, JsonRpcMessage } from "./json-rpc.js";
import {
  MalformedFrame,
  MessageEncodingError,
  type MessageStream,
  MessageTooLargeError,
} from "./message-stream.js";
import {
  byteLength,
  DEFAULT_REMOTE_MAX_MESSAGE_BYTES,
  decodeMessage,
  EVENT_STREAM_MIME_TYPE,
  HEADER_CONNECTION_ID,
  HEADER_SESSION_ID,
  INITIALIZE_METHOD,
  idKey,
  JSON_MIME_TYPE,
  listenToSocket,
  RemoteClosedError,
  SseReader,
  sessionOfParams,
  sessionOfResult,
} from "./remote-wire.js";
import {
  type AbortControllerLike,
  lossyUtf8Decoder,
  newAbortController,
  platformFetch,
  platformWebSocket,
  sleep,
  type WebSocketConstructor,
} from "./web-globals.js";
import type {
  FetchLike,
  HeadersLike,
  ResponseLike,
  SignalLike,
  StreamReader,
  StreamReadResult,
  StreamWriter,
  WebSocketLike,
} from "./web-types.js";

export type { WebSocketConstructor } from "./web-globals.js";

/**
 * Cookies for routing affinity (a load balancer's sticky-session cookie), kept across
 * reconnects when the application passes the same store to the next stream. In a browser
 * the platform keeps cookies itself; this store is for other hosts (Node's fetch keeps none).
 */
export interface AcpCookieStore {
  /** Takes the cookies of a response's `Set-Cookie` headers. */
  store(headers: HeadersLike & { getSetCookie?(): string[] }): void;
  /** Sets the `Cookie` header of a request from what is stored. */
  apply(headers: {
    get(name: string): string | null;
    set(name: string, value: string): void;
  }): void;
  clear(): void;
}

/**
 * A cookie store in memory: names and values only (no domain, path or expiry handling),
 * which is what affinity needs. Not for authentication.
 */
export class MemoryAcpCookieStore implements AcpCookieStore {
  private readonly cookies = new Map<string, string>();

  store(headers: HeadersLike & { getSetCookie?(): string[] }): void {
    const lines =
      typeof headers.getSetCookie === "function"
        ? headers.getSetCookie()
        : (headers.get("Set-Cookie")?.split(/,(?=\s*[^;,\s]+=)/) ?? []);
    for (const line of lines) {
      const pair = line.split(";", 1)[0] ?? "";
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  apply(headers: {
    get(name: string): string | null;
    set(name: string, value: string): void;
  }): void {
    if (this.cookies.size === 0) return;
    const ours = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const theirs = headers.get("Cookie");
    headers.set("Cookie", theirs ? `${theirs}; ${ours}` : ours);
  }

  clear(): void {
    this.cookies.clear();
  }
}

export interface RemoteStreamOptions {
  /** Headers for every request (an `Authorization` bearer token). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Whether requests carry cookies (`credentials` in a browser). Default `"include"`. */
  readonly cookies?: "include" | "omit";
  /**
   * Where cookies are kept between requests outside a browser; pass the same store to the
   * stream that reconnects. Default: a store of this stream's own, cleared when it ends.
   */
  readonly cookieStore?: AcpCookieStore;
  /** Longest message in either direction, in bytes. Default 16 MiB. */
  readonly maxMessageBytes?: number;
  /** Aborting it ends the stream (and, over HTTP, the connection: DELETE). */
  readonly signal?: SignalLike;
}

export interface HttpStreamOptions extends RemoteStreamOptions {
  /** The `fetch` to use. Default: the platform's. */
  readonly fetch?: FetchLike;
  /** Reopening an event stream that dropped: tries, and the first wait (doubling). Default 4 tries from 250 ms. */
  readonly reconnect?: { readonly attempts?: number; readonly delayMs?: number };
}

export interface WebSocketStreamOptions extends RemoteStreamOptions {
  /** The WebSocket constructor: the platform's by default; on Node 20, the `ws` package's. */
  readonly WebSocket?: WebSocketConstructor;
  /** Subprotocols to request. */
  readonly protocols?: string | string[];
}

/** The readable side: values for the connection, then the end or why it ended. */
class Inbox {
  private readonly queue = new Fifo<unknown>();
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly onCancel: () => void) {}

  get open(): boolean {
    return !this.ended && !this.failure;
  }

  push(value: unknown): void {
    if (!this.open) return;
    this.queue.push(value);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: Error): void {
    if (!this.open) return;
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  reader(): StreamReader<unknown> {
    return {
      read: async (): Promise<StreamReadResult<unknown>> => {
        for (;;) {
          if (this.queue.length > 0) return { done: false, value: this.queue.shift() };
          if (this.failure) throw this.failure;
          if (this.ended) return { done: true };
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
        }
      },
      releaseLock: () => {},
      cancel: async () => {
        this.ended = true;
        this.queue.clear();
        this.onCancel();
      },
    };
  }
}

/** A message as JSON text, refused (failing that one call) when it cannot be sent. */
function encode(message: JsonRpcMessage | JsonRpcBatch, limit: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(message);
  } catch (error) {
    throw new MessageEncodingError(error);
  }
  if (json === undefined) throw new MessageEncodingError(undefined);
  const size = byteLength(json);
  if (size > limit) throw new MessageTooLargeError(describe(message), size, limit);
  return json;
}

function describe(message: JsonRpcMessage | JsonRpcBatch): string {
  if (isBatch(message)) return `a batch of ${message.length} messages`;
  if ("method" in message)
    return "id" in message ? `the ${message.method} request` : `the ${message.method} notification`;
  return `the answer to request ${JSON.stringify(message.id)}`;
}

/** Headers as a mutable record with case-insensitive get/set, for `AcpCookieStore.apply`. */
function headerBag(base: Readonly<Record<string, string>>): {
  record: Record<string, string>;
  get(name: string): string | null;
  set(name: string, value: string): void;
} {
  const record: Record<string, string> = { ...base };
  const find = (name: string) =>
    Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  return {
    record,
    get: (name) => {
      const key = find(name);
      return key === undefined ? null : (record[key] ?? null);
    },
    set: (name, value) => {
      record[find(name) ?? name] = value;
    },
  };
}

/** One line of an error body, cut short: what the server said, never a whole page. */
async function errorLine(response: ResponseLike): Promise<string> {
  if (!response.body) return response.statusText;
  const reader = response.body.getReader();
  const decoder = lossyUtf8Decoder();
  let text = "";
  try {
    while (text.length < 1024) {
      const next = await reader.read();
      if (next.done || !next.value) break;
      text += decoder.decode(next.value);
    }
  } catch {
    // Whatever arrived is enough.
  } finally {
    reader.cancel().catch(() => {});
  }
  const line = text.trim().split(/\r?\n/)[0]?.slice(0, 300) ?? "";
  return line || response.statusText;
}

const isNumber = (id: string | undefined): id is string =>
  id !== undefined && /^\d{1,15}$/.test(id);

/** Statuses that mean the connection itself is unusable: refused, or unknown to the server. */
const CONNECTION_GONE = new Set([401, 403, 404, 410]);

interface Pending {
  readonly id: unknown;
  readonly session: string | undefined;
}

/**
 * ACP over the RFD's streamable HTTP: `initialize` is POSTed first and answered in the
 * response with the connection's id; every later message is a POST answered 202, and the
 * agent's messages arrive as server-sent events on the connection's stream and one stream
 * per session. Cookies are kept (`cookieStore`) for sticky routing.
 *
 * A POST the server refuses fails only its own call where it can (the request's answer is an
 * error naming the HTTP status; 413 is a `MessageTooLargeError`); 401, 403, 404 and 410 mean
 * the connection is gone, and end the stream with a `RemoteClosedError`.
 */
export function createHttpStream(url: string, options: HttpStreamOptions = {}): MessageStream {
  return new HttpTransport(url, options).stream;
}

class HttpTransport {
  readonly stream: MessageStream;
  private readonly fetch: FetchLike;
  private readonly limit: number;
  private readonly cookies: AcpCookieStore | undefined;
  private readonly ownsCookies: boolean;
  private readonly aborter: AbortControllerLike = newAbortController();
  private readonly inbox = new Inbox(() => this.end());
  private connectionId: string | undefined;
  private readonly streams = new Set<string | null>();
  /** Our requests not answered yet, for failing those of a session whose stream failed. */
  private readonly pending = new Map<string, Pending>();
  /** The agent's requests that came on a session's stream: their answers name the session. */
  private readonly agentRequests = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();
  private isClosed = false;

  constructor(
    private readonly url: string,
    private readonly options: HttpStreamOptions,
  ) {
    const fetch = options.fetch ?? platformFetch();
    if (!fetch)
      throw new TypeError("createHttpStream: this platform has no fetch; pass options.fetch");
    this.fetch = fetch;
    this.limit = options.maxMessageBytes ?? DEFAULT_REMOTE_MAX_MESSAGE_BYTES;
    const include = (options.cookies ?? "include") === "include";
    this.cookies = include ? (options.cookieStore ?? new MemoryAcpCookieStore()) : undefined;
    this.ownsCookies = options.cookieStore === undefined;
    options.signal?.addEventListener("abort", () => this.end(), { once: true });
    this.stream = {
      readable: { getReader: () => this.inbox.reader() },
      writable: {
        getWriter: (): StreamWriter<JsonRpcMessage | JsonRpcBatch> => ({
          write: (message) => {
            // The HTTP profile carries no batches (its servers answer them 501): a batch's
            // messages go one by one, each where it belongs.
            if (isBatch(message))
              return Promise.all(message.map((m) => this.queue(m))).then(() => {});
            return this.queue(message);
          },
          close: async () => this.end(),
          releaseLock: () => {},
        }),
      },
    };
  }

  /** Writes `message` after every message written before it. */
  private queue(message: JsonRpcMessage): Promise<void> {
    const sent = this.chain.then(() => this.write(message));
    this.chain = sent.catch(() => {});
    return sent;
  }

  private request(method: string, headers: Record<string, string>, body?: string) {
    const bag = headerBag({ ...this.options.headers, ...headers });
    this.cookies?.apply(bag);
    return this.fetch(this.url, {
      method,
      headers: bag.record,
      ...(body === undefined ? {} : { body }),
      signal: this.aborter.signal,
      credentials: this.cookies ? "include" : "omit",
    }).then((response) => {
      this.cookies?.store(response.headers);
      return response;
    });
  }

  private async write(message: JsonRpcMessage): Promise<void> {
    if (this.isClosed) throw new RemoteClosedError("the HTTP stream is closed");
    const json = encode(message, this.limit);
    const connectionId = this.connectionId;
    if (connectionId === undefined) return this.initialize(message, json);
    const isRequest = "method" in message && "id" in message;
    const key = "id" in message ? idKey(message.id) : undefined;
    let session = sessionOfParams(message);
    if (session === undefined && !("method" in message) && key !== undefined) {
      session = this.agentRequests.get(key);
      this.agentRequests.delete(key);
    }
    if (session !== undefined) this.listen(session);
    if (isRequest && key !== undefined) this.pending.set(key, { id: message.id, session });
    const headers: Record<string, string> = {
      "Content-Type": JSON_MIME_TYPE,
      [HEADER_CONNECTION_ID]: connectionId,
      ...(session === undefined ? {} : { [HEADER_SESSION_ID]: session }),
    };
    let response: ResponseLike;
    try {
      response = await this.request("POST", headers, json);
    } catch (error) {
      if (this.isClosed) throw new RemoteClosedError("the HTTP stream is closed");
      throw this.lost(error);
    }
    if (response.status >= 200 && response.status < 300) {
      response.body
        ?.getReader()
        .cancel()
        .catch(() => {});
      return;
    }
    const line = await errorLine(response);
    if (key !== undefined) this.pending.delete(key);
    if (response.status === 413) {
      const limit = /limit of (\d+)/.exec(line)?.[1];
      throw new MessageTooLargeError(describe(message), byteLength(json), Number(limit ?? 0));
    }
    if (CONNECTION_GONE.has(response.status)) {
      const gone = this.gone(response.status, line);
      if (isRequest) this.answerWithError(message.id, response.status, line);
      this.fail(gone);
      return;
    }
    if (isRequest) {
      this.answerWithError(message.id, response.status, line);
      return;
    }
    throw new Error(
      `the ACP server refused ${describe(message)}: HTTP ${response.status}: ${line}`,
    );
  }

  private async initialize(message: JsonRpcMessage, json: string): Promise<void> {
    if (!("method" in message && "id" in message) || message.method !== INITIALIZE_METHOD)
      throw new Error(
        `the first message on an HTTP stream must be the ${INITIALIZE_METHOD} request`,
      );
    let response: ResponseLike;
    try {
      response = await this.request("POST", { "Content-Type": JSON_MIME_TYPE }, json);
    } catch (error) {
      throw this.lost(error);
    }
    if (response.status !== 200) {
      const line = await errorLine(response);
      this.answerWithError(message.id, response.status, line);
      this.fail(
        new RemoteClosedError(
          `the ACP server at ${this.url} refused initialize: HTTP ${response.status}: ${line}`,
          response.status,
        ),
      );
      return;
    }
    const text = await this.readBody(response);
    const value = decodeMessage(text, this.limit);
    const id = response.headers.get(HEADER_CONNECTION_ID);
    this.inbox.push(value);
    if (id === null) {
      // The agent refused initialize (its error is the answer): nothing to connect to.
      this.fail(new RemoteClosedError(`the agent at ${this.url} refused initialize`));
      return;
    }
    this.connectionId = id;
    this.listen(null);
  }

  private async readBody(response: ResponseLike): Promise<string> {
    if (!response.body) return "";
    const reader = response.body.getReader();
    const decoder = lossyUtf8Decoder();
    let text = "";
    let size = 0;
    for (;;) {
      const next = await reader.read();
      if (next.done || !next.value) break;
      size += next.value.length;
      if (size > this.limit) {
        reader.cancel().catch(() => {});
        break;
      }
      text += decoder.decode(next.value);
    }
    return text;
  }

  /** Opens (once) the event stream of the connection (null) or of a session, and keeps it open. */
  private listen(session: string | null): void {
    if (this.isClosed || this.streams.has(session)) return;
    this.streams.add(session);
    void this.read(session).finally(() => this.streams.delete(session));
  }

  private async read(session: string | null): Promise<void> {
    const attempts = this.options.reconnect?.attempts ?? 4;
    const delay = this.options.reconnect?.delayMs ?? 250;
    let failures = 0;
    let lastError: unknown;
    /** The id of the last event of this stream, for `Last-Event-ID`. */
    const seen: { last?: string } = {};
    while (!this.isClosed) {
      if (failures > 0) {
        if (failures > attempts) {
          this.fail(this.lost(lastError));
          return;
        }
        await sleep(delay * 2 ** (failures - 1));
        if (this.isClosed) return;
      }
      let response: ResponseLike;
      try {
        response = await this.request("GET", {
          Accept: EVENT_STREAM_MIME_TYPE,
          [HEADER_CONNECTION_ID]: this.connectionId as string,
          ...(session === null ? {} : { [HEADER_SESSION_ID]: session }),
          // Reconnecting: the server sends again what followed (where it keeps it).
          ...(seen.last === undefined ? {} : { "Last-Event-ID": seen.last }),
        });
      } catch (error) {
        lastError = error;
        failures++;
        continue;
      }
      if (response.status !== 200 || !response.body) {
        const line = await errorLine(response);
        if (CONNECTION_GONE.has(response.status) || session === null) {
          this.fail(this.gone(response.status, line));
          return;
        }
        // Only this session's stream is refused (too many sessions): its calls fail.
        this.failSession(session, response.status, line);
        return;
      }
      failures = 0;
      try {
        await this.events(response.body, session, seen);
      } catch (error) {
        lastError = error;
      }
      if (this.isClosed) return;
      // The stream ended while the connection lives: reopen it.
      failures++;
    }
  }

  private async events(
    body: NonNullable<ResponseLike["body"]>,
    session: string | null,
    seen: { last?: string },
  ) {
    const reader = body.getReader();
    const decoder = lossyUtf8Decoder();
    const sse = new SseReader(this.limit);
    const stop = () => reader.cancel().catch(() => {});
    this.aborter.signal.addEventListener("abort", stop, { once: true });
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done || !next.value || this.isClosed) return;
        for (const event of sse.push(decoder.decode(next.value))) {
          if ("tooLarge" in event) {
            this.inbox.push(new MalformedFrame("too-large", event.tooLarge, { limit: this.limit }));
            continue;
          }
          if (event.id !== undefined) {
            // Sent again after a reconnect, but seen already: skipped.
            if (isNumber(event.id) && isNumber(seen.last) && Number(event.id) <= Number(seen.last))
              continue;
            seen.last = event.id;
          }
          this.received(decodeMessage(event.data, this.limit), session);
        }
      }
    } finally {
      this.aborter.signal.removeEventListener("abort", stop);
    }
  }

  private received(value: unknown, session: string | null): void {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const message = value as Record<string, unknown>;
      const key = idKey(message.id);
      if (!("method" in message) && key !== undefined) this.pending.delete(key);
      else if ("method" in message && key !== undefined && session !== null)
        this.agentRequests.set(key, session);
      // A session just opened (session/new, load, resume, fork): listen to it now.
      const opened = sessionOfResult(message);
      if (opened !== undefined) this.listen(opened);
    }
    this.inbox.push(value);
  }

  private answerWithError(id: unknown, status: number, line: string): void {
    const key = idKey(id);
    if (key !== undefined) this.pending.delete(key);
    this.inbox.push({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32603,
        message: `Internal error: the ACP server answered HTTP ${status}: ${line}`,
        data: { status, body: line },
      },
    });
  }

  private failSession(session: string, status: number, line: string): void {
    for (const [key, pending] of [...this.pending])
      if (pending.session === session) {
        this.pending.delete(key);
        this.answerWithError(pending.id, status, line);
      }
  }

  private gone(status: number, line: string): RemoteClosedError {
    const what =
      status === 404 || status === 410
        ? "no longer knows this connection (it ended it, or restarted)"
        : "refused this connection";
    return new RemoteClosedError(
      `the ACP server at ${this.url} ${what}: HTTP ${status}: ${line}`,
      status,
    );
  }

  private lost(error: unknown): RemoteClosedError {
    const cause =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    return new RemoteClosedError(`cannot reach the ACP server at ${this.url}: ${cause}`);
  }

  private fail(error: Error): void {
    this.inbox.fail(error);
    this.end();
  }

  /** Ends the stream: streams stop, the server is told (DELETE), owned cookies go. */
  private end(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.aborter.abort();
    this.inbox.end();
    const connectionId = this.connectionId;
    const forget = () => {
      if (this.ownsCookies) this.cookies?.clear();
    };
    if (connectionId === undefined) {
      forget();
      return;
    }
    const bag = headerBag({ ...this.options.headers, [HEADER_CONNECTION_ID]: connectionId });
    this.cookies?.apply(bag);
    this.fetch(this.url, {
      method: "DELETE",
      headers: bag.record,
      credentials: this.cookies ? "include" : "omit",
    })
      .then((response) => response.body?.getReader().cancel())
      .catch(() => {})
      .finally(forget);
  }
}

/**
 * ACP over a WebSocket to the RFD's endpoint: one JSON-RPC message per text message. An
 * `http(s)://` URL is turned into `ws(s)://`. The client still sends `initialize` first.
 * In Node 20, pass `{ WebSocket }` from the `ws` package (Node 22 and browsers have one);
 * `headers` and `cookieStore` reach constructors that take headers (`ws`), while a browser
 * sends its own cookies.
 */
export function createWebSocketStream(
  url: string,
  options: WebSocketStreamOptions = {},
): MessageStream {
  return new WebSocketTransport(url, options).stream;
}

/** The client pauses its writes while this much waits in the socket (bytes). */
const CLIENT_HIGH_WATER = 4 * 1024 * 1024;

class WebSocketTransport {
  readonly stream: MessageStream;
  private readonly socket: WebSocketLike;
  private readonly inbox = new Inbox(() => this.end());
  private readonly limit: number;
  private readonly opened: Promise<void>;
  private isClosed = false;
  private readonly cookies: AcpCookieStore | undefined;
  private readonly ownsCookies: boolean;

  constructor(
    private readonly url: string,
    options: WebSocketStreamOptions,
  ) {
    const WebSocket = options.WebSocket ?? platformWebSocket();
    if (!WebSocket)
      throw new TypeError(
        "createWebSocketStream: this platform has no WebSocket; pass options.WebSocket (the ws package's, on Node 20)",
      );
    this.limit = options.maxMessageBytes ?? DEFAULT_REMOTE_MAX_MESSAGE_BYTES;
    const include = (options.cookies ?? "include") === "include";
    this.cookies = include ? (options.cookieStore ?? new MemoryAcpCookieStore()) : undefined;
    this.ownsCookies = options.cookieStore === undefined;
    const bag = headerBag({ ...options.headers });
    this.cookies?.apply(bag);
    const target = url.replace(/^http(s?):/i, "ws$1:");
    this.socket =
      Object.keys(bag.record).length > 0
        ? new WebSocket(target, options.protocols, { headers: bag.record })
        : new WebSocket(target, options.protocols);
    let opened: () => void = () => {};
    let failed: (error: Error) => void = () => {};
    this.opened = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.opened.catch(() => {});
    let errorText: string | undefined;
    listenToSocket(this.socket, {
      open: opened,
      upgrade: (headers) => {
        const setCookie = headers["set-cookie"];
        const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
        this.cookies?.store({ get: () => null, getSetCookie: () => lines });
      },
      message: (data, binary) => {
        if (binary || data === undefined || this.isClosed) return;
        const text = typeof data === "string" ? data : lossyUtf8Decoder().decode(data);
        this.inbox.push(decodeMessage(text, this.limit));
      },
      error: (message) => {
        errorText ??= message;
      },
      close: (code, reason) => {
        const ours = this.isClosed;
        this.isClosed = true;
        const error = new RemoteClosedError(
          errorText && code === 1006
            ? `cannot keep a WebSocket to the ACP server at ${this.url}: ${errorText}`
            : `the ACP server at ${this.url} closed the WebSocket (${code}${reason ? `: ${reason}` : ""})`,
          code,
        );
        failed(error);
        if (ours) this.inbox.end();
        else this.inbox.fail(error);
        if (this.ownsCookies) this.cookies?.clear();
      },
    });
    options.signal?.addEventListener("abort", () => this.end(), { once: true });
    this.stream = {
      readable: { getReader: () => this.inbox.reader() },
      writable: {
        getWriter: () => ({
          write: (message) => this.write(message),
          close: async () => this.end(),
          releaseLock: () => {},
        }),
      },
    };
  }

  private async write(message: JsonRpcMessage | JsonRpcBatch): Promise<void> {
    const json = encode(message, this.limit);
    if (this.socket.readyState === 0) await this.opened;
    if (this.isClosed || this.socket.readyState !== 1)
      throw new RemoteClosedError(`the WebSocket to ${this.url} is closed`);
    this.socket.send(json);
    // Backpressure: while the socket holds a lot, the next write waits.
    let poll = 5;
    while ((this.socket.bufferedAmount ?? 0) > CLIENT_HIGH_WATER && this.socket.readyState === 1) {
      await sleep(poll);
      poll = Math.min(poll * 2, 200);
    }
  }

  private end(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.inbox.end();
    try {
      this.socket.close(1000, "client closed");
    } catch {
      // Already closing.
    }
  }
}

function isBatch(message: JsonRpcMessage | JsonRpcBatch): message is JsonRpcBatch {
  return Array.isArray(message);
}
