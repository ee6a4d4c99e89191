// dist/runtime/remote-client.js
import { Fifo } from "./index.js";
import { MalformedFrame as MalformedFrame2, MessageEncodingError, MessageTooLargeError } from "./index.js";

// dist/runtime/remote-wire.js
import { InputEndedError, MalformedFrame } from "./index.js";
import { peek } from "./index.js";
import { lossyUtf8Decoder, randomBytes, utf8Encoder } from "./index.js";
var HEADER_CONNECTION_ID = "Acp-Connection-Id";
var HEADER_SESSION_ID = "Acp-Session-Id";
var JSON_MIME_TYPE = "application/json";
var EVENT_STREAM_MIME_TYPE = "text/event-stream";
var INITIALIZE_METHOD = "initialize";
var CONNECTION_STREAM_RESPONSES = /* @__PURE__ */ new Set(["session/load"]);
var DEFAULT_REMOTE_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
function newConnectionId(prefix) {
  let id = prefix === void 0 ? "" : `${prefix}.`;
  for (const byte of randomBytes(16))
    id += byte.toString(16).padStart(2, "0");
  return id;
}
var ID_PREFIX = /^[A-Za-z0-9_-]{1,64}$/;
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function sessionOfParams(message) {
  if (!isRecord(message) || !isRecord(message.params))
    return void 0;
  const id = message.params.sessionId;
  return typeof id === "string" ? id : void 0;
}
function sessionOfResult(message) {
  if (!isRecord(message) || !isRecord(message.result))
    return void 0;
  const id = message.result.sessionId;
  return typeof id === "string" ? id : void 0;
}
function idKey(id) {
  if (typeof id === "string")
    return `s${id}`;
  if (typeof id === "number" && Number.isFinite(id))
    return `n${id}`;
  if (id === null)
    return "null";
  return void 0;
}
function decodeMessage(text2, limit) {
  const size = byteLength(text2);
  if (size > limit)
    return new MalformedFrame("too-large", size, { peek: peek(text2.slice(0, 4096)), limit });
  try {
    return JSON.parse(text2);
  } catch {
    return new MalformedFrame("parse-error", size, { text: text2 });
  }
}
function byteLength(text2) {
  let bytes = text2.length;
  for (let i = 0; i < text2.length; i++) {
    const code = text2.charCodeAt(i);
    if (code < 128)
      continue;
    if (code < 2048)
      bytes += 1;
    else if (code >= 55296 && code <= 56319 && (text2.charCodeAt(i + 1) & 64512) === 56320) {
      bytes += 2;
      i++;
    } else
      bytes += 2;
  }
  return bytes;
}
var encoder = utf8Encoder();
function sseEvents(items) {
  let text2 = "";
  for (const item of items)
    text2 += `id: ${item.seq}
data: ${item.json}

`;
  return encoder.encode(text2);
}
var SSE_KEEPALIVE = encoder.encode(": keep-alive\n\n");
var SseReader = class {
  constructor(limit) {
    this.limit = limit;
    this.line = "";
    this.discarding = false;
    this.data = [];
    this.dataBytes = 0;
    this.oversize = false;
    this.afterCr = false;
  }
  push(text2) {
    const events = [];
    let at = 0;
    if (this.afterCr && text2.charCodeAt(0) === 10)
      at = 1;
    this.afterCr = false;
    const terminator = /[\r\n]/g;
    for (; ; ) {
      terminator.lastIndex = at;
      const found = terminator.exec(text2);
      if (!found) {
        this.keep(text2.slice(at));
        return events;
      }
      const end = found.index;
      if (this.discarding) {
        this.dataBytes += byteLength(text2.slice(at, end));
        this.discarding = false;
      } else {
        this.take(this.line + text2.slice(at, end), events);
      }
      this.line = "";
      at = end + 1;
      if (text2.charCodeAt(end) === 13) {
        if (at === text2.length)
          this.afterCr = true;
        else if (text2.charCodeAt(at) === 10)
          at++;
      }
    }
  }
  /** Text of a line whose end has not arrived yet. */
  keep(rest) {
    if (rest === "")
      return;
    if (this.discarding) {
      this.dataBytes += byteLength(rest);
      return;
    }
    this.line += rest;
    if (this.line.length > this.limit + 8) {
      this.oversize = true;
      this.discarding = true;
      this.dataBytes += byteLength(this.line);
      this.data = [];
      this.line = "";
    }
  }
  take(line, events) {
    if (line === "") {
      if (this.oversize)
        events.push({ tooLarge: this.dataBytes });
      else if (this.data.length > 0)
        events.push(this.id === void 0 ? { data: this.data.join("\n") } : { data: this.data.join("\n"), id: this.id });
      this.id = void 0;
      this.data = [];
      this.dataBytes = 0;
      this.oversize = false;
      return;
    }
    if (line.startsWith("id:")) {
      this.id = line.charCodeAt(3) === 32 ? line.slice(4) : line.slice(3);
      return;
    }
    if (!line.startsWith("data:"))
      return;
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
    this.dataBytes += byteLength(value) + (this.data.length > 0 ? 1 : 0);
    if (this.oversize)
      return;
    if (this.dataBytes > this.limit) {
      this.oversize = true;
      this.data = [];
      return;
    }
    this.data.push(value);
  }
};
var RemoteClosedError = class extends InputEndedError {
  constructor(message, status) {
    super(message);
    this.name = "RemoteClosedError";
    if (status !== void 0)
      this.status = status;
  }
};
function listenToSocket(socket, events) {
  if (typeof socket.on === "function") {
    const on = socket.on.bind(socket);
    if (events.open)
      on("open", () => events.open?.());
    if (events.message)
      on("message", (data, isBinary) => events.message?.(messageData(data), isBinary === true));
    on("close", (code, reason) => events.close?.(typeof code === "number" ? code : 1005, reasonText(reason)));
    on("error", (error) => events.error?.(error instanceof Error ? error.message : void 0));
    if (events.upgrade)
      on("upgrade", (response) => {
        const headers = response?.headers;
        if (typeof headers === "object" && headers !== null)
          events.upgrade?.(headers);
      });
    return;
  }
  const listen = socket.addEventListener?.bind(socket);
  if (!listen)
    throw new TypeError("the WebSocket has neither on() nor addEventListener()");
  if (events.open)
    listen("open", () => events.open?.());
  if (events.message)
    listen("message", (event) => {
      const data = event.data;
      events.message?.(messageData(data), typeof data !== "string");
    });
  listen("close", (event) => events.close?.(typeof event.code === "number" ? event.code : 1005, typeof event.reason === "string" ? event.reason : ""));
  listen("error", (event) => events.error?.(typeof event.message === "string" ? event.message : void 0));
}
function reasonText(reason) {
  if (typeof reason === "string")
    return reason;
  const bytes = messageData(reason);
  return bytes instanceof Uint8Array ? lossyUtf8Decoder().decode(bytes) : "";
}
function messageData(data) {
  if (typeof data === "string")
    return data;
  if (data instanceof Uint8Array)
    return data;
  if (data instanceof ArrayBuffer)
    return new Uint8Array(data);
  if (Array.isArray(data) && data.every((d) => d instanceof Uint8Array)) {
    const parts = data;
    const all = new Uint8Array(parts.reduce((sum, d) => sum + d.length, 0));
    let at = 0;
    for (const d of parts) {
      all.set(d, at);
      at += d.length;
    }
    return all;
  }
  return void 0;
}

// dist/runtime/remote-client.js
import { lossyUtf8Decoder as lossyUtf8Decoder2, newAbortController, platformFetch, platformWebSocket, sleep } from "./index.js";
var MemoryAcpCookieStore = class {
  constructor() {
    this.cookies = /* @__PURE__ */ new Map();
  }
  store(headers) {
    const lines = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : headers.get("Set-Cookie")?.split(/,(?=\s*[^;,\s]+=)/) ?? [];
    for (const line of lines) {
      const pair = line.split(";", 1)[0] ?? "";
      const at = pair.indexOf("=");
      if (at <= 0)
        continue;
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  apply(headers) {
    if (this.cookies.size === 0)
      return;
    const ours = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const theirs = headers.get("Cookie");
    headers.set("Cookie", theirs ? `${theirs}; ${ours}` : ours);
  }
  clear() {
    this.cookies.clear();
  }
};
var Inbox = class {
  constructor(onCancel) {
    this.onCancel = onCancel;
    this.queue = new Fifo();
    this.ended = false;
  }
  get open() {
    return !this.ended && !this.failure;
  }
  push(value) {
    if (!this.open)
      return;
    this.queue.push(value);
    this.notify();
  }
  end() {
    this.ended = true;
    this.notify();
  }
  fail(error) {
    if (!this.open)
      return;
    this.failure = error;
    this.notify();
  }
  notify() {
    const wake = this.wake;
    this.wake = void 0;
    wake?.();
  }
  reader() {
    return {
      read: async () => {
        for (; ; ) {
          if (this.queue.length > 0)
            return { done: false, value: this.queue.shift() };
          if (this.failure)
            throw this.failure;
          if (this.ended)
            return { done: true };
          await new Promise((resolve) => {
            this.wake = resolve;
          });
        }
      },
      releaseLock: () => {
      },
      cancel: async () => {
        this.ended = true;
        this.queue.clear();
        this.onCancel();
      }
    };
  }
};
function encode(message, limit) {
  let json2;
  try {
    json2 = JSON.stringify(message);
  } catch (error) {
    throw new MessageEncodingError(error);
  }
  if (json2 === void 0)
    throw new MessageEncodingError(void 0);
  const size = byteLength(json2);
  if (size > limit)
    throw new MessageTooLargeError(describe(message), size, limit);
  return json2;
}
function describe(message) {
  if (isBatch(message))
    return `a batch of ${message.length} messages`;
  if ("method" in message)
    return "id" in message ? `the ${message.method} request` : `the ${message.method} notification`;
  return `the answer to request ${JSON.stringify(message.id)}`;
}
function headerBag(base) {
  const record = { ...base };
  const find = (name) => Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  return {
    record,
    get: (name) => {
      const key = find(name);
      return key === void 0 ? null : record[key] ?? null;
    },
    set: (name, value) => {
      record[find(name) ?? name] = value;
    }
  };
}
async function errorLine(response) {
  if (!response.body)
    return response.statusText;
  const reader = response.body.getReader();
  const decoder = lossyUtf8Decoder2();
  let text2 = "";
  try {
    while (text2.length < 1024) {
      const next = await reader.read();
      if (next.done || !next.value)
        break;
      text2 += decoder.decode(next.value);
    }
  } catch {
  } finally {
    reader.cancel().catch(() => {
    });
  }
  const line = text2.trim().split(/\r?\n/)[0]?.slice(0, 300) ?? "";
  return line || response.statusText;
}
var isNumber = (id) => id !== void 0 && /^\d{1,15}$/.test(id);
var CONNECTION_GONE = /* @__PURE__ */ new Set([401, 403, 404, 410]);
function createHttpStream(url, options = {}) {
  return new HttpTransport(url, options).stream;
}
var HttpTransport = class {
  constructor(url, options) {
    this.url = url;
    this.options = options;
    this.aborter = newAbortController();
    this.inbox = new Inbox(() => this.end());
    this.streams = /* @__PURE__ */ new Set();
    this.pending = /* @__PURE__ */ new Map();
    this.agentRequests = /* @__PURE__ */ new Map();
    this.chain = Promise.resolve();
    this.isClosed = false;
    const fetch = options.fetch ?? platformFetch();
    if (!fetch)
      throw new TypeError("createHttpStream: this platform has no fetch; pass options.fetch");
    this.fetch = fetch;
    this.limit = options.maxMessageBytes ?? DEFAULT_REMOTE_MAX_MESSAGE_BYTES;
    const include = (options.cookies ?? "include") === "include";
    this.cookies = include ? options.cookieStore ?? new MemoryAcpCookieStore() : void 0;
    this.ownsCookies = options.cookieStore === void 0;
    options.signal?.addEventListener("abort", () => this.end(), { once: true });
    this.stream = {
      readable: { getReader: () => this.inbox.reader() },
      writable: {
        getWriter: () => ({
          write: (message) => {
            if (isBatch(message))
              return Promise.all(message.map((m) => this.queue(m))).then(() => {
              });
            return this.queue(message);
          },
          close: async () => this.end(),
          releaseLock: () => {
          }
        })
      }
    };
  }
  /** Writes `message` after every message written before it. */
  queue(message) {
    const sent = this.chain.then(() => this.write(message));
    this.chain = sent.catch(() => {
    });
    return sent;
  }
  request(method, headers, body) {
    const bag = headerBag({ ...this.options.headers, ...headers });
    this.cookies?.apply(bag);
    return this.fetch(this.url, {
      method,
      headers: bag.record,
      ...body === void 0 ? {} : { body },
      signal: this.aborter.signal,
      credentials: this.cookies ? "include" : "omit"
    }).then((response) => {
      this.cookies?.store(response.headers);
      return response;
    });
  }
  async write(message) {
    if (this.isClosed)
      throw new RemoteClosedError("the HTTP stream is closed");
    const json2 = encode(message, this.limit);
    const connectionId = this.connectionId;
    if (connectionId === void 0)
      return this.initialize(message, json2);
    const isRequest = "method" in message && "id" in message;
    const key = "id" in message ? idKey(message.id) : void 0;
    let session = sessionOfParams(message);
    if (session === void 0 && !("method" in message) && key !== void 0) {
      session = this.agentRequests.get(key);
      this.agentRequests.delete(key);
    }
    if (session !== void 0)
      this.listen(session);
    if (isRequest && key !== void 0)
      this.pending.set(key, { id: message.id, session });
    const headers = {
      "Content-Type": JSON_MIME_TYPE,
      [HEADER_CONNECTION_ID]: connectionId,
      ...session === void 0 ? {} : { [HEADER_SESSION_ID]: session }
    };
    let response;
    try {
      response = await this.request("POST", headers, json2);
    } catch (error) {
      if (this.isClosed)
        throw new RemoteClosedError("the HTTP stream is closed");
      throw this.lost(error);
    }
    if (response.status >= 200 && response.status < 300) {
      response.body?.getReader().cancel().catch(() => {
      });
      return;
    }
    const line = await errorLine(response);
    if (key !== void 0)
      this.pending.delete(key);
    if (response.status === 413) {
      const limit = /limit of (\d+)/.exec(line)?.[1];
      throw new MessageTooLargeError(describe(message), byteLength(json2), Number(limit ?? 0));
    }
    if (CONNECTION_GONE.has(response.status)) {
      const gone = this.gone(response.status, line);
      if (isRequest)
        this.answerWithError(message.id, response.status, line);
      this.fail(gone);
      return;
    }
    if (isRequest) {
      this.answerWithError(message.id, response.status, line);
      return;
    }
    throw new Error(`the ACP server refused ${describe(message)}: HTTP ${response.status}: ${line}`);
  }
  async initialize(message, json2) {
    if (!("method" in message && "id" in message) || message.method !== INITIALIZE_METHOD)
      throw new Error(`the first message on an HTTP stream must be the ${INITIALIZE_METHOD} request`);
    let response;
    try {
      response = await this.request("POST", { "Content-Type": JSON_MIME_TYPE }, json2);
    } catch (error) {
      throw this.lost(error);
    }
    if (response.status !== 200) {
      const line = await errorLine(response);
      this.answerWithError(message.id, response.status, line);
      this.fail(new RemoteClosedError(`the ACP server at ${this.url} refused initialize: HTTP ${response.status}: ${line}`, response.status));
      return;
    }
    const text2 = await this.readBody(response);
    const value = decodeMessage(text2, this.limit);
    const id = response.headers.get(HEADER_CONNECTION_ID);
    this.inbox.push(value);
    if (id === null) {
      this.fail(new RemoteClosedError(`the agent at ${this.url} refused initialize`));
      return;
    }
    this.connectionId = id;
    this.listen(null);
  }
  async readBody(response) {
    if (!response.body)
      return "";
    const reader = response.body.getReader();
    const decoder = lossyUtf8Decoder2();
    let text2 = "";
    let size = 0;
    for (; ; ) {
      const next = await reader.read();
      if (next.done || !next.value)
        break;
      size += next.value.length;
      if (size > this.limit) {
        reader.cancel().catch(() => {
        });
        break;
      }
      text2 += decoder.decode(next.value);
    }
    return text2;
  }
  /** Opens (once) the event stream of the connection (null) or of a session, and keeps it open. */
  listen(session) {
    if (this.isClosed || this.streams.has(session))
      return;
    this.streams.add(session);
    void this.read(session).finally(() => this.streams.delete(session));
  }
  async read(session) {
    const attempts = this.options.reconnect?.attempts ?? 4;
    const delay = this.options.reconnect?.delayMs ?? 250;
    let failures = 0;
    let lastError;
    const seen = {};
    while (!this.isClosed) {
      if (failures > 0) {
        if (failures > attempts) {
          this.fail(this.lost(lastError));
          return;
        }
        await sleep(delay * 2 ** (failures - 1));
        if (this.isClosed)
          return;
      }
      let response;
      try {
        response = await this.request("GET", {
          Accept: EVENT_STREAM_MIME_TYPE,
          [HEADER_CONNECTION_ID]: this.connectionId,
          ...session === null ? {} : { [HEADER_SESSION_ID]: session },
          // Reconnecting: the server sends again what followed (where it keeps it).
          ...seen.last === void 0 ? {} : { "Last-Event-ID": seen.last }
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
        this.failSession(session, response.status, line);
        return;
      }
      failures = 0;
      try {
        await this.events(response.body, session, seen);
      } catch (error) {
        lastError = error;
      }
      if (this.isClosed)
        return;
      failures++;
    }
  }
  async events(body, session, seen) {
    const reader = body.getReader();
    const decoder = lossyUtf8Decoder2();
    const sse = new SseReader(this.limit);
    const stop = () => reader.cancel().catch(() => {
    });
    this.aborter.signal.addEventListener("abort", stop, { once: true });
    try {
      for (; ; ) {
        const next = await reader.read();
        if (next.done || !next.value || this.isClosed)
          return;
        for (const event of sse.push(decoder.decode(next.value))) {
          if ("tooLarge" in event) {
            this.inbox.push(new MalformedFrame2("too-large", event.tooLarge, { limit: this.limit }));
            continue;
          }
          if (event.id !== void 0) {
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
  received(value, session) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const message = value;
      const key = idKey(message.id);
      if (!("method" in message) && key !== void 0)
        this.pending.delete(key);
      else if ("method" in message && key !== void 0 && session !== null)
        this.agentRequests.set(key, session);
      const opened = sessionOfResult(message);
      if (opened !== void 0)
        this.listen(opened);
    }
    this.inbox.push(value);
  }
  answerWithError(id, status, line) {
    const key = idKey(id);
    if (key !== void 0)
      this.pending.delete(key);
    this.inbox.push({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32603,
        message: `Internal error: the ACP server answered HTTP ${status}: ${line}`,
        data: { status, body: line }
      }
    });
  }
  failSession(session, status, line) {
    for (const [key, pending] of [...this.pending])
      if (pending.session === session) {
        this.pending.delete(key);
        this.answerWithError(pending.id, status, line);
      }
  }
  gone(status, line) {
    const what = status === 404 || status === 410 ? "no longer knows this connection (it ended it, or restarted)" : "refused this connection";
    return new RemoteClosedError(`the ACP server at ${this.url} ${what}: HTTP ${status}: ${line}`, status);
  }
  lost(error) {
    const cause = error instanceof Error ? error.cause instanceof Error ? error.cause.message : error.message : String(error);
    return new RemoteClosedError(`cannot reach the ACP server at ${this.url}: ${cause}`);
  }
  fail(error) {
    this.inbox.fail(error);
    this.end();
  }
  /** Ends the stream: streams stop, the server is told (DELETE), owned cookies go. */
  end() {
    if (this.isClosed)
      return;
    this.isClosed = true;
    this.aborter.abort();
    this.inbox.end();
    const connectionId = this.connectionId;
    const forget = () => {
      if (this.ownsCookies)
        this.cookies?.clear();
    };
    if (connectionId === void 0) {
      forget();
      return;
    }
    const bag = headerBag({ ...this.options.headers, [HEADER_CONNECTION_ID]: connectionId });
    this.cookies?.apply(bag);
    this.fetch(this.url, {
      method: "DELETE",
      headers: bag.record,
      credentials: this.cookies ? "include" : "omit"
    }).then((response) => response.body?.getReader().cancel()).catch(() => {
    }).finally(forget);
  }
};
function createWebSocketStream(url, options = {}) {
  return new WebSocketTransport(url, options).stream;
}
var CLIENT_HIGH_WATER = 4 * 1024 * 1024;
var WebSocketTransport = class {
  constructor(url, options) {
    this.url = url;
    this.inbox = new Inbox(() => this.end());
    this.isClosed = false;
    const WebSocket = options.WebSocket ?? platformWebSocket();
    if (!WebSocket)
      throw new TypeError("createWebSocketStream: this platform has no WebSocket; pass options.WebSocket (the ws package's, on Node 20)");
    this.limit = options.maxMessageBytes ?? DEFAULT_REMOTE_MAX_MESSAGE_BYTES;
    const include = (options.cookies ?? "include") === "include";
    this.cookies = include ? options.cookieStore ?? new MemoryAcpCookieStore() : void 0;
    this.ownsCookies = options.cookieStore === void 0;
    const bag = headerBag({ ...options.headers });
    this.cookies?.apply(bag);
    const target = url.replace(/^http(s?):/i, "ws$1:");
    this.socket = Object.keys(bag.record).length > 0 ? new WebSocket(target, options.protocols, { headers: bag.record }) : new WebSocket(target, options.protocols);
    let opened = () => {
    };
    let failed = () => {
    };
    this.opened = new Promise((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.opened.catch(() => {
    });
    let errorText;
    listenToSocket(this.socket, {
      open: opened,
      upgrade: (headers) => {
        const setCookie = headers["set-cookie"];
        const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
        this.cookies?.store({ get: () => null, getSetCookie: () => lines });
      },
      message: (data, binary) => {
        if (binary || data === void 0 || this.isClosed)
          return;
        const text2 = typeof data === "string" ? data : lossyUtf8Decoder2().decode(data);
        this.inbox.push(decodeMessage(text2, this.limit));
      },
      error: (message) => {
        errorText ?? (errorText = message);
      },
      close: (code, reason) => {
        const ours = this.isClosed;
        this.isClosed = true;
        const error = new RemoteClosedError(errorText && code === 1006 ? `cannot keep a WebSocket to the ACP server at ${this.url}: ${errorText}` : `the ACP server at ${this.url} closed the WebSocket (${code}${reason ? `: ${reason}` : ""})`, code);
        failed(error);
        if (ours)
          this.inbox.end();
        else
          this.inbox.fail(error);
        if (this.ownsCookies)
          this.cookies?.clear();
      }
    });
    options.signal?.addEventListener("abort", () => this.end(), { once: true });
    this.stream = {
      readable: { getReader: () => this.inbox.reader() },
      writable: {
        getWriter: () => ({
          write: (message) => this.write(message),
          close: async () => this.end(),
          releaseLock: () => {
          }
        })
      }
    };
  }
  async write(message) {
    const json2 = encode(message, this.limit);
    if (this.socket.readyState === 0)
      await this.opened;
    if (this.isClosed || this.socket.readyState !== 1)
      throw new RemoteClosedError(`the WebSocket to ${this.url} is closed`);
    this.socket.send(json2);
    let poll = 5;
    while ((this.socket.bufferedAmount ?? 0) > CLIENT_HIGH_WATER && this.socket.readyState === 1) {
      await sleep(poll);
      poll = Math.min(poll * 2, 200);
    }
  }
  end() {
    if (this.isClosed)
      return;
    this.isClosed = true;
    this.inbox.end();
    try {
      this.socket.close(1e3, "client closed");
    } catch {
    }
  }
};
function isBatch(message) {
  return Array.isArray(message);
}

// dist/runtime/remote-connection.js
import { Fifo as Fifo2 } from "./index.js";
import { MessageEncodingError as MessageEncodingError2, MessageTooLargeError as MessageTooLargeError2 } from "./index.js";
import { ConnectionClosedError } from "./index.js";
import { newAbortController as newAbortController2, startTimer } from "./index.js";
var DEFAULT_REMOTE_LIMITS = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxConnections: 1024,
  maxSessionsPerConnection: 64,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxOutputStallMs: 3e4,
  idleTimeoutMs: 3e4,
  initializeTimeoutMs: 3e4,
  maxIdLength: 1024
};
function resolveLimits(limits) {
  const resolved = { ...DEFAULT_REMOTE_LIMITS };
  for (const key of Object.keys(DEFAULT_REMOTE_LIMITS)) {
    const value = limits[key];
    if (value === void 0)
      continue;
    if (!Number.isSafeInteger(value) || value <= 0 || value > 2 ** 31 - 1)
      throw new RangeError(`AcpServer: ${key} must be a positive integer below 2^31, not ${value}`);
    resolved[key] = value;
  }
  return resolved;
}
var Outbox = class {
  constructor(replayBytes) {
    this.replayBytes = replayBytes;
    this.queue = new Fifo2();
    this.seq = 0;
    this.sent = [];
    this.sentHead = 0;
    this.sentBytes = 0;
    this.bytes = 0;
    this.finished = false;
    this.waiters = /* @__PURE__ */ new Set();
    this.onTake = () => {
    };
  }
  push(json2) {
    this.queue.push({ seq: ++this.seq, json: json2 });
    this.bytes += json2.length;
    this.notify();
  }
  /** Queued messages, oldest first, up to about `budget` in length (at least one). */
  take(budget) {
    const taken = [];
    let length = 0;
    while (this.queue.length > 0 && (taken.length === 0 || length < budget)) {
      const item = this.queue.shift();
      taken.push(item);
      length += item.json.length;
      this.remember(item);
    }
    if (taken.length > 0) {
      this.bytes -= length;
      this.onTake();
    }
    return taken;
  }
  remember(item) {
    this.sent.push(item);
    this.sentBytes += item.json.length;
    while (this.sentBytes > this.replayBytes && this.sentHead < this.sent.length) {
      this.sentBytes -= this.sent[this.sentHead].json.length;
      this.sent[this.sentHead++] = void 0;
    }
    if (this.sentHead > 1024 && this.sentHead * 2 > this.sent.length) {
      this.sent = this.sent.slice(this.sentHead);
      this.sentHead = 0;
    }
  }
  /**
   * A client reconnecting after event `last`: what was sent after it goes out again, before
   * what is queued. An id this stream never gave is ignored.
   */
  resume(last) {
    if (!Number.isSafeInteger(last) || last < 0 || last >= this.seq)
      return;
    const kept = this.sent.slice(this.sentHead);
    const again = kept.filter((item) => item.seq > last);
    if (again.length === 0)
      return;
    this.sent = kept.filter((item) => item.seq <= last);
    this.sentHead = 0;
    this.sentBytes = this.sent.reduce((sum, item) => sum + item.json.length, 0);
    const queue = new Fifo2();
    for (const item of again) {
      queue.push(item);
      this.bytes += item.json.length;
    }
    for (let item = this.queue.shift(); item; item = this.queue.shift())
      queue.push(item);
    this.queue = queue;
  }
  get empty() {
    return this.queue.length === 0;
  }
  /** Resolves on the next push, finish or takeover, or after `ms` with false. */
  next(ms) {
    return new Promise((resolve) => {
      const wake = () => {
        timer.cancel();
        this.waiters.delete(wake);
        resolve(true);
      };
      const timer = startTimer(ms, () => {
        this.waiters.delete(wake);
        resolve(false);
      });
      this.waiters.add(wake);
    });
  }
  notify() {
    for (const wake of [...this.waiters])
      wake();
  }
  finish() {
    this.finished = true;
    this.notify();
  }
  clear() {
    this.queue.clear();
    this.bytes = 0;
    this.sent = [];
    this.sentHead = 0;
    this.sentBytes = 0;
  }
};
var SOCKET_POLL_MIN = 5;
var SOCKET_POLL_MAX = 200;
var shortId = (id) => `${id.slice(0, 8)}…`;
var RemoteConnection = class {
  constructor(id, transport, principal, limits, hooks) {
    this.id = id;
    this.transport = transport;
    this.principal = principal;
    this.limits = limits;
    this.hooks = hooks;
    this.lifetime = newAbortController2();
    this.isClosed = false;
    this.input = new Fifo2();
    this.inputBytes = 0;
    this.inputEnded = false;
    this.inputRoom = /* @__PURE__ */ new Set();
    this.outputRoom = /* @__PURE__ */ new Set();
    this.sessions = /* @__PURE__ */ new Map();
    this.routes = /* @__PURE__ */ new Map();
    this.activity = 0;
    this.socketSessions = /* @__PURE__ */ new Set();
    this.info = {
      connectionId: id,
      transport,
      ...principal === void 0 ? {} : { principal },
      signal: this.lifetime.signal
    };
    this.outbox = new Outbox(limits.maxBufferedBytes);
    this.watch(this.outbox);
    this.stream = {
      readable: { getReader: () => this.reader() },
      writable: { getWriter: () => this.writer() }
    };
    if (transport === "http")
      this.settle();
  }
  get closed() {
    return this.isClosed;
  }
  get signal() {
    return this.lifetime.signal;
  }
  /** WebSocket: the socket the agent's output goes to. */
  attachSocket(socket) {
    this.socket = socket;
  }
  // --- The client's side -------------------------------------------------------------
  /**
   * A message from the client, for the agent. Resolves once the agent has room for more
   * (rejects if the connection ends first): an HTTP POST is answered then.
   */
  deliver(value, size) {
    if (this.isClosed)
      return Promise.reject(this.closedError());
    this.input.push({ value, size });
    this.inputBytes += size;
    const wake = this.wakeReader;
    this.wakeReader = void 0;
    wake?.();
    if (this.inputBytes <= this.limits.maxBufferedBytes)
      return Promise.resolve();
    if (this.inputBytes > 2 * this.limits.maxBufferedBytes) {
      this.drop(`its client sent ${this.inputBytes} bytes the agent has not read (maxBufferedBytes ${this.limits.maxBufferedBytes})`);
      return Promise.reject(this.closedError());
    }
    return new Promise((resolve, reject) => {
      const onRoom = () => {
        if (this.isClosed)
          reject(this.closedError());
        else if (this.inputBytes <= this.limits.maxBufferedBytes) {
          this.inputRoom.delete(onRoom);
          resolve();
        }
      };
      this.inputRoom.add(onRoom);
    });
  }
  /** HTTP: the session (or null) a client request's answer goes to; false when its id is in use. */
  expectAnswer(id, method, session) {
    const key = idKey(id);
    if (key === void 0)
      return true;
    if (this.routes.has(key))
      return false;
    this.routes.set(key, session === void 0 || CONNECTION_STREAM_RESPONSES.has(method) ? null : session);
    return true;
  }
  /** HTTP `initialize`: resolves with the agent's answer to request `id` as JSON text. */
  expectInitialize(id) {
    return new Promise((resolve) => {
      this.initializing = { key: idKey(id) ?? "", resolve };
    });
  }
  /** HTTP: the outbox of a session's stream, made if new; undefined past the session limit. */
  sessionOutbox(session) {
    const existing = this.sessions.get(session);
    if (existing)
      return existing;
    if (this.sessions.size >= this.limits.maxSessionsPerConnection)
      return void 0;
    const outbox = new Outbox(this.limits.maxBufferedBytes);
    this.watch(outbox);
    this.sessions.set(session, outbox);
    return outbox;
  }
  /** Counts a session as used by this connection; false past the limit. */
  useSession(session) {
    if (this.transport === "http")
      return this.sessionOutbox(session) !== void 0;
    if (this.socketSessions.has(session))
      return true;
    if (this.socketSessions.size >= this.limits.maxSessionsPerConnection)
      return false;
    this.socketSessions.add(session);
    return true;
  }
  /** HTTP: a request (or stream) started; `end` when it is over. Keeps the idle clock stopped. */
  busy() {
    this.activity++;
    this.idle?.cancel();
    this.idle = void 0;
    let ended = false;
    return () => {
      if (ended)
        return;
      ended = true;
      this.activity--;
      this.settle();
    };
  }
  settle() {
    if (this.isClosed || this.activity > 0 || this.idle)
      return;
    this.idle = startTimer(this.limits.idleTimeoutMs, () => {
      this.idle = void 0;
      if (this.activity === 0)
        this.close(new RemoteClosedError(`idle for ${this.limits.idleTimeoutMs} ms (idleTimeoutMs)`));
    });
  }
  // --- The agent's side --------------------------------------------------------------
  reader() {
    return {
      read: async () => {
        for (; ; ) {
          const next = this.input.shift();
          if (next) {
            this.inputBytes -= next.size;
            for (const onRoom of [...this.inputRoom])
              onRoom();
            return { done: false, value: next.value };
          }
          if (this.inputEnded)
            return { done: true };
          await new Promise((resolve) => {
            this.wakeReader = resolve;
          });
        }
      },
      releaseLock: () => {
      },
      cancel: async () => {
        this.close(new RemoteClosedError("the agent stopped reading"));
      }
    };
  }
  writer() {
    return {
      write: (message) => this.send(message),
      close: async () => {
        this.finishOutput();
      },
      releaseLock: () => {
      }
    };
  }
  send(message) {
    if (this.isClosed)
      return Promise.reject(this.closedError());
    if (isBatch2(message))
      return this.sendBatch(message);
    let json2;
    try {
      json2 = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(new MessageEncodingError2(error));
    }
    if (json2 === void 0)
      return Promise.reject(new MessageEncodingError2(void 0));
    if (json2.length > this.limits.maxMessageBytes)
      return Promise.reject(new MessageTooLargeError2("the agent's message", json2.length, this.limits.maxMessageBytes));
    const isAnswer = !("method" in message);
    const key = isAnswer ? idKey(message.id) : void 0;
    if (this.initializing && key === this.initializing.key) {
      const { resolve } = this.initializing;
      this.initializing = void 0;
      resolve(json2);
      return Promise.resolve();
    }
    const opened = isAnswer ? sessionOfResult(message) : void 0;
    if (opened !== void 0 && !this.useSession(opened)) {
      this.drop(`its client opened more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`);
      return Promise.reject(this.closedError());
    }
    if (this.socket)
      return this.sendOnSocket(this.socket, json2);
    let outbox = this.outbox;
    let session;
    if (key !== void 0) {
      session = this.routes.get(key);
      this.routes.delete(key);
    } else
      session = sessionOfParams(message);
    if (typeof session === "string") {
      const found = this.sessionOutbox(session);
      if (!found) {
        this.drop(`its agent used more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`);
        return Promise.reject(this.closedError());
      }
      outbox = found;
    }
    outbox.push(json2);
    return this.roomIn(outbox);
  }
  sendBatch(batch) {
    if (!this.socket)
      return Promise.all(batch.map((m) => this.send(m))).then(() => {
      });
    for (const message of batch) {
      const opened = "method" in message ? void 0 : sessionOfResult(message);
      if (opened !== void 0 && !this.useSession(opened)) {
        this.drop(`its client opened more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`);
        return Promise.reject(this.closedError());
      }
    }
    let json2;
    try {
      json2 = JSON.stringify(batch);
    } catch (error) {
      return Promise.reject(new MessageEncodingError2(error));
    }
    if (json2 === void 0)
      return Promise.reject(new MessageEncodingError2(void 0));
    if (json2.length > this.limits.maxMessageBytes)
      return Promise.reject(new MessageTooLargeError2("the agent's batch", json2.length, this.limits.maxMessageBytes));
    return this.sendOnSocket(this.socket, json2);
  }
  /** Resolves once `outbox` is under the limit; drops the connection at twice it. */
  roomIn(outbox) {
    const limit = this.limits.maxBufferedBytes;
    if (outbox.bytes <= limit)
      return Promise.resolve();
    if (outbox.bytes > 2 * limit) {
      this.drop(`its client is not reading: ${outbox.bytes} bytes wait for it (maxBufferedBytes ${limit})`);
      return Promise.reject(this.closedError());
    }
    this.stall ?? (this.stall = startTimer(this.limits.maxOutputStallMs, () => {
      this.drop(`its client read nothing for ${this.limits.maxOutputStallMs} ms with ${outbox.bytes} bytes waiting (maxOutputStallMs)`);
    }));
    return new Promise((resolve, reject) => {
      const onRoom = () => {
        if (this.isClosed) {
          this.outputRoom.delete(onRoom);
          reject(this.closedError());
        } else if (outbox.bytes <= limit) {
          this.outputRoom.delete(onRoom);
          resolve();
        }
      };
      this.outputRoom.add(onRoom);
    });
  }
  watch(outbox) {
    outbox.onTake = () => {
      this.stall?.cancel();
      this.stall = void 0;
      for (const onRoom of [...this.outputRoom])
        onRoom();
      if (this.outputRoom.size > 0 && !this.isClosed)
        this.stall = startTimer(this.limits.maxOutputStallMs, () => {
          this.drop(`its client read nothing for ${this.limits.maxOutputStallMs} ms with a full stream (maxOutputStallMs)`);
        });
    };
  }
  async sendOnSocket(socket, json2) {
    if (socket.readyState !== 1)
      throw this.closedError();
    socket.send(json2);
    const limit = this.limits.maxBufferedBytes;
    let buffered = socket.bufferedAmount ?? 0;
    if (buffered <= limit)
      return;
    if (buffered > 2 * limit) {
      this.drop(`its client is not reading: ${buffered} bytes wait in the socket (maxBufferedBytes ${limit})`);
      throw this.closedError();
    }
    let poll = SOCKET_POLL_MIN;
    let stalled = 0;
    while (buffered > limit) {
      if (this.isClosed)
        throw this.closedError();
      if (stalled >= this.limits.maxOutputStallMs) {
        this.drop(`its client read nothing for ${this.limits.maxOutputStallMs} ms with ${buffered} bytes waiting (maxOutputStallMs)`);
        throw this.closedError();
      }
      await new Promise((resolve) => startTimer(poll, resolve, true));
      stalled += poll;
      poll = Math.min(poll * 2, SOCKET_POLL_MAX);
      const now = socket.bufferedAmount ?? 0;
      if (now < buffered) {
        stalled = 0;
        poll = SOCKET_POLL_MIN;
      }
      buffered = now;
    }
  }
  /** The agent is done: streams end after what is queued, and then the connection. */
  finishOutput() {
    if (this.isClosed)
      return;
    if (this.socket) {
      this.close(new RemoteClosedError("the agent closed the connection"), 1e3);
      return;
    }
    this.outbox.finish();
    for (const outbox of this.sessions.values())
      outbox.finish();
    this.endInput();
    this.hooks.closed(this);
    this.isClosed = true;
    this.lifetime.abort(new RemoteClosedError("the agent closed the connection"));
    this.release();
  }
  // --- Ending --------------------------------------------------------------------------
  /** Close over a limit the client broke, with a log line saying which. */
  drop(why) {
    if (this.isClosed)
      return;
    this.hooks.log(`acp server: dropped connection ${shortId(this.id)}: ${why}`);
    this.close(new RemoteClosedError(`dropped: ${why}`), 1008, why);
  }
  /**
   * End the connection: the agent's input ends (so its connection closes and every handler
   * in flight sees its signal abort), its writes reject, the client's streams end.
   */
  close(reason, code = 1001, text2 = reason.message) {
    if (this.isClosed)
      return;
    this.isClosed = true;
    this.lifetime.abort(reason);
    this.endInput();
    this.outbox.clear();
    this.outbox.finish();
    for (const outbox of this.sessions.values()) {
      outbox.clear();
      outbox.finish();
    }
    if (this.socket && this.socket.readyState <= 1) {
      try {
        this.socket.close(code, text2.slice(0, 120));
      } catch {
      }
    }
    this.release();
    this.hooks.closed(this);
  }
  endInput() {
    this.inputEnded = true;
    this.input.clear();
    this.inputBytes = 0;
    const wake = this.wakeReader;
    this.wakeReader = void 0;
    wake?.();
  }
  release() {
    this.idle?.cancel();
    this.stall?.cancel();
    this.routes.clear();
    this.initializing = void 0;
    for (const onRoom of [...this.inputRoom, ...this.outputRoom])
      onRoom();
    this.inputRoom.clear();
    this.outputRoom.clear();
  }
  closedError() {
    return new ConnectionClosedError(this.lifetime.signal.reason, "closed");
  }
};
function isBatch2(message) {
  return Array.isArray(message);
}

// dist/runtime/remote-server.js
import { classify } from "./index.js";
import { MalformedFrame as MalformedFrame3 } from "./index.js";
import { consoleWarn, newByteStream, newResponse, startTimer as startTimer2, strictUtf8Decoder } from "./index.js";
var SSE_BATCH = 64 * 1024;
var KEEPALIVE_MS = 15e3;
var ALLOW_METHODS = "GET, POST, DELETE, OPTIONS";
var AcpServer = class {
  constructor(options) {
    this.options = options;
    this.connections = /* @__PURE__ */ new Map();
    this.isClosed = false;
    if (typeof options?.connect !== "function")
      throw new TypeError("AcpServer: options.connect(stream, connection) is required");
    this.limits = resolveLimits(options);
    if (options.idPrefix !== void 0 && !ID_PREFIX.test(options.idPrefix))
      throw new RangeError(`AcpServer: idPrefix must be 1 to 64 letters, digits, _ or -, not ${JSON.stringify(options.idPrefix)}`);
    const log = options.log ?? ((line) => consoleWarn(line));
    this.hooks = {
      closed: (connection) => {
        if (this.connections.get(connection.id) === connection)
          this.connections.delete(connection.id);
      },
      log
    };
  }
  /** Open connections, over both transports. */
  get connectionCount() {
    return this.connections.size;
  }
  /** Handles one request to the ACP endpoint: a WHATWG fetch handler. */
  async handleRequest(request) {
    const origin = request.headers.get("Origin");
    const refused = this.originProblem(origin);
    if (refused)
      return text(403, refused);
    const cors = corsHeaders(origin);
    if (request.method === "OPTIONS")
      return preflight(request, cors);
    const auth = await this.authenticate(request, cors);
    if ("response" in auth)
      return auth.response;
    if (this.isClosed)
      return text(503, "the ACP server is shutting down", cors);
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
          Allow: ALLOW_METHODS
        });
    }
  }
  /**
   * For a host that upgrades the WebSocket itself: checks the upgrade request (origin,
   * `authenticate`, the connection limit) before the upgrade is accepted, and names the
   * connection for the 101 response. Then `accept(socket)` serves it.
   */
  async prepareWebSocketUpgrade(request) {
    const origin = request.headers.get("Origin");
    const refused = this.originProblem(origin);
    if (refused)
      return { ok: false, status: 403, message: refused };
    const auth = await this.authenticate(request);
    if ("response" in auth)
      return { ok: false, status: auth.response.status, message: "unauthorized" };
    if (this.isClosed)
      return { ok: false, status: 503, message: "the ACP server is shutting down" };
    const full = this.fullProblem();
    if (full)
      return { ok: false, status: 503, message: full };
    const id = newConnectionId(this.options.idPrefix);
    let settled = false;
    return {
      ok: true,
      connectionId: id,
      headers: { [HEADER_CONNECTION_ID]: id },
      accept: (socket) => {
        if (settled)
          throw new Error("AcpServer: this WebSocket upgrade was already settled");
        settled = true;
        if (this.isClosed) {
          socket.close(1001, "the ACP server is shutting down");
          return;
        }
        this.serveSocket(id, auth.principal, socket);
      },
      reject: () => {
        settled = true;
      }
    };
  }
  /** Ends every connection (WebSockets close with 1001) and refuses new ones. */
  async close() {
    this.isClosed = true;
    for (const connection of [...this.connections.values()])
      connection.close(new RemoteClosedError("the ACP server shut down"), 1001, "server shutting down");
    this.connections.clear();
  }
  // --- Checks --------------------------------------------------------------------------
  originProblem(origin) {
    if (origin === null)
      return void 0;
    const allowed = this.options.allowedOrigins ?? [];
    const ok = typeof allowed === "function" ? allowed(origin) === true : allowed.includes(origin) || allowed.includes("*");
    return ok ? void 0 : `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed (AcpServer allowedOrigins)`;
  }
  async authenticate(request, cors = {}) {
    const authenticate = this.options.authenticate;
    if (!authenticate)
      return { principal: void 0 };
    let result;
    try {
      result = await authenticate.call(this.options, request);
    } catch (error) {
      this.hooks.log(`acp server: authenticate() threw: ${error instanceof Error ? error.message : String(error)}`);
      return { response: text(500, "authentication failed on the server", cors) };
    }
    if (result === true)
      return { principal: void 0 };
    if (typeof result === "string")
      return { principal: result };
    if (typeof result === "object" && result !== null)
      return { response: result };
    return { response: text(401, "unauthorized", { ...cors, "WWW-Authenticate": "Bearer" }) };
  }
  fullProblem() {
    return this.connections.size >= this.limits.maxConnections ? `too many connections: ${this.limits.maxConnections} are open (maxConnections)` : void 0;
  }
  /** The connection a request names, if it is live and its principal's; else the answer. */
  find(request, principal, cors) {
    const id = request.headers.get(HEADER_CONNECTION_ID);
    if (id === null)
      return text(400, `missing ${HEADER_CONNECTION_ID} header`, cors);
    const connection = this.connections.get(id);
    if (!connection || connection.closed || connection.principal !== principal)
      return text(404, `unknown ${HEADER_CONNECTION_ID}: the connection ended or never existed`, cors);
    return connection;
  }
  open(transport, principal, id = newConnectionId(this.options.idPrefix)) {
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
  async post(request, principal, cors) {
    const type = request.headers.get("Content-Type");
    if (type?.split(";")[0]?.trim().toLowerCase() !== JSON_MIME_TYPE)
      return text(415, `Content-Type must be ${JSON_MIME_TYPE}`, cors);
    const body = await readBody(request, this.limits.maxMessageBytes);
    if (typeof body !== "string") {
      if ("tooLarge" in body)
        return text(413, `request body is ${body.tooLarge} bytes, over the limit of ${this.limits.maxMessageBytes} bytes (maxMessageBytes)`, cors);
      return text(400, "request body is not UTF-8", cors);
    }
    let value;
    try {
      value = JSON.parse(body);
    } catch {
      return text(400, `request body is not JSON (${body.length} characters)`, cors);
    }
    if (Array.isArray(value))
      return json(501, JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid request: JSON-RPC batches are not supported" }
      }), cors);
    const message = classify(value);
    if (message.kind === "invalid")
      return text(400, `not a JSON-RPC message: ${message.reason}`, cors);
    const header = request.headers.get(HEADER_CONNECTION_ID);
    const isInitialize = message.kind === "request" && message.method === INITIALIZE_METHOD;
    if (header === null) {
      if (!isInitialize)
        return text(400, `missing ${HEADER_CONNECTION_ID} header (only initialize opens a connection)`, cors);
      return this.initialize(request, principal, value, body.length, message.id, cors);
    }
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection))
      return found;
    const connection = found;
    if (isInitialize)
      return text(400, "initialize on a connection that is already open", cors);
    const idProblem = this.idProblem(message);
    if (idProblem)
      return text(400, idProblem, cors);
    const named = sessionOfParams(value);
    const headerSession = request.headers.get(HEADER_SESSION_ID) ?? void 0;
    if (named !== void 0 && headerSession === void 0)
      return text(400, `missing ${HEADER_SESSION_ID} header for session-scoped ${describe2(message)}`, cors);
    if (named !== void 0 && headerSession !== named)
      return text(400, `${HEADER_SESSION_ID} does not match the sessionId of ${describe2(message)}`, cors);
    if (headerSession !== void 0 && headerSession.length > this.limits.maxIdLength)
      return text(400, `${HEADER_SESSION_ID} is longer than ${this.limits.maxIdLength} characters (maxIdLength)`, cors);
    const done = connection.busy();
    try {
      if (message.kind === "request") {
        if (headerSession !== void 0 && !connection.sessionOutbox(headerSession))
          return text(429, tooManySessions(this.limits), cors);
        if (!connection.expectAnswer(message.id, message.method, headerSession))
          return text(400, `request id ${JSON.stringify(message.id)} is already pending on this connection`, cors);
      }
      await raceAbort(connection.deliver(value, body.length), request);
      return empty(202, cors);
    } catch {
      return text(404, `unknown ${HEADER_CONNECTION_ID}: the connection ended`, cors);
    } finally {
      done();
    }
  }
  idProblem(message) {
    const id = "id" in message ? message.id : void 0;
    return typeof id === "string" && id.length > this.limits.maxIdLength ? `request id is longer than ${this.limits.maxIdLength} characters (maxIdLength)` : void 0;
  }
  async initialize(request, principal, value, size, id, cors) {
    const full = this.fullProblem();
    if (full)
      return text(503, full, { ...cors, "Retry-After": "5" });
    let connection;
    try {
      connection = this.open("http", principal);
    } catch (error) {
      this.hooks.log(`acp server: connect() threw: ${error instanceof Error ? error.message : String(error)}`);
      return text(500, "the agent could not be started for this connection", cors);
    }
    const done = connection.busy();
    try {
      const answered = connection.expectInitialize(id);
      await connection.deliver(value, size);
      let timer;
      const timeout = new Promise((resolve) => {
        timer = startTimer2(this.limits.initializeTimeoutMs, () => resolve("timeout"));
      });
      const answer = await raceAbort(Promise.race([answered, timeout]), request).finally(() => timer?.cancel());
      if (answer === "timeout") {
        connection.close(new RemoteClosedError("the agent did not answer initialize in time"));
        return text(504, `the agent did not answer initialize within ${this.limits.initializeTimeoutMs} ms (initializeTimeoutMs)`, cors);
      }
      if ("error" in JSON.parse(answer)) {
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
  get(request, principal, cors) {
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket")
      return text(426, "this host does not upgrade to WebSocket here (see prepareWebSocketUpgrade)", cors);
    if (!request.headers.get("Accept")?.toLowerCase().includes(EVENT_STREAM_MIME_TYPE))
      return text(406, `Accept must include ${EVENT_STREAM_MIME_TYPE}`, cors);
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection))
      return found;
    const session = request.headers.get(HEADER_SESSION_ID);
    if (session !== null && session.length > this.limits.maxIdLength)
      return text(400, `${HEADER_SESSION_ID} is longer than ${this.limits.maxIdLength} characters (maxIdLength)`, cors);
    const outbox = session === null ? found.outbox : found.sessionOutbox(session);
    if (!outbox)
      return text(429, tooManySessions(this.limits), cors);
    const connection = found;
    const receiver = {};
    outbox.receiver = receiver;
    const last = request.headers.get("Last-Event-ID");
    if (last !== null && /^\d{1,15}$/.test(last))
      outbox.resume(Number(last));
    outbox.notify();
    const done = connection.busy();
    const detach = () => {
      if (outbox.receiver === receiver)
        outbox.receiver = void 0;
      done();
    };
    const body = newByteStream({
      async pull(controller) {
        for (; ; ) {
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
          if (!await outbox.next(KEEPALIVE_MS) && outbox.receiver === receiver && !outbox.finished) {
            controller.enqueue(SSE_KEEPALIVE);
            return;
          }
        }
      },
      cancel: detach
    });
    return newResponse(body, 200, {
      ...cors,
      "Content-Type": EVENT_STREAM_MIME_TYPE,
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no"
    });
  }
  delete(request, principal, cors) {
    const found = this.find(request, principal, cors);
    if (!(found instanceof RemoteConnection))
      return found;
    found.close(new RemoteClosedError("the client ended the connection"));
    return empty(202, cors);
  }
  // --- WebSocket -----------------------------------------------------------------------
  serveSocket(id, principal, socket) {
    let connection;
    try {
      connection = new RemoteConnection(id, "websocket", principal, this.limits, this.hooks);
      connection.attachSocket(socket);
      this.connections.set(id, connection);
      this.options.connect(connection.stream, connection.info);
    } catch (error) {
      this.hooks.log(`acp server: connect() threw: ${error instanceof Error ? error.message : String(error)}`);
      this.connections.delete(id);
      socket.close(1011, "the agent could not be started");
      return;
    }
    const limit = this.limits.maxMessageBytes;
    const decoder = strictUtf8Decoder();
    let warnedBinary = false;
    const tooBig = (size) => {
      connection.drop(`its client sent a ${size}-byte message, over the limit of ${limit} bytes (maxMessageBytes)`);
    };
    listenToSocket(socket, {
      message: (data, binary) => {
        if (connection.closed || data === void 0)
          return;
        if (data.length > limit) {
          tooBig(data.length);
          return;
        }
        if (binary) {
          if (!warnedBinary)
            this.hooks.log(`acp server: connection ${shortId(id)} sent a binary WebSocket message; ignored`);
          warnedBinary = true;
          return;
        }
        let value;
        if (typeof data === "string")
          value = decodeMessage(data, limit);
        else {
          try {
            value = decodeMessage(decoder.decode(data), limit);
          } catch {
            value = new MalformedFrame3("invalid-utf8", data.length);
          }
        }
        connection.deliver(value, data.length).catch(() => {
        });
      },
      close: (code) => {
        connection.close(new RemoteClosedError(`the client closed the WebSocket (${code})`, code));
      },
      error: () => {
        connection.close(new RemoteClosedError("the WebSocket failed"));
      }
    });
  }
};
function tooManySessions(limits) {
  return `too many sessions on this connection: ${limits.maxSessionsPerConnection} (maxSessionsPerConnection)`;
}
function describe2(message) {
  return "method" in message ? message.method : `answer to ${JSON.stringify(message.id)}`;
}
function raceAbort(promise, request) {
  const signal = request.signal;
  if (!signal)
    return promise;
  if (signal.aborted)
    return Promise.reject(new Error("request aborted"));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error("request aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    }, (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}
async function readBody(request, limit) {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared > limit) {
    request.body?.getReader().cancel().catch(() => {
    });
    return { tooLarge: declared };
  }
  if (!request.body)
    return "";
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (; ; ) {
    const next = await reader.read();
    if (next.done || !next.value)
      break;
    size += next.value.length;
    if (size > limit) {
      reader.cancel().catch(() => {
      });
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
function corsHeaders(origin) {
  if (origin === null)
    return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Expose-Headers": HEADER_CONNECTION_ID,
    Vary: "Origin"
  };
}
function preflight(request, cors) {
  return empty(204, {
    ...cors,
    "Access-Control-Allow-Methods": ALLOW_METHODS,
    "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers") ?? `Content-Type, Authorization, ${HEADER_CONNECTION_ID}, ${HEADER_SESSION_ID}`,
    "Access-Control-Max-Age": "600"
  });
}
function text(status, line, headers = {}) {
  return newResponse(`${line}
`, status, {
    ...headers,
    "Content-Type": "text/plain; charset=utf-8"
  });
}
function json(status, body, headers) {
  return newResponse(body, status, { ...headers, "Content-Type": JSON_MIME_TYPE });
}
function empty(status, headers) {
  return newResponse(null, status, headers);
}
export {
  AcpServer,
  CONNECTION_STREAM_RESPONSES,
  DEFAULT_REMOTE_LIMITS,
  DEFAULT_REMOTE_MAX_MESSAGE_BYTES,
  EVENT_STREAM_MIME_TYPE,
  HEADER_CONNECTION_ID,
  HEADER_SESSION_ID,
  ID_PREFIX,
  INITIALIZE_METHOD,
  JSON_MIME_TYPE,
  MemoryAcpCookieStore,
  Outbox,
  RemoteClosedError,
  RemoteConnection,
  SSE_KEEPALIVE,
  SseReader,
  byteLength,
  createHttpStream,
  createWebSocketStream,
  decodeMessage,
  idKey,
  listenToSocket,
  newConnectionId,
  resolveLimits,
  sessionOfParams,
  sessionOfResult,
  shortId,
  sseEvents
};
