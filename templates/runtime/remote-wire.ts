/**
 * What both ends of the remote transport agree on: the upstream RFD "Streamable HTTP &
 * WebSocket transport" (one `/acp` endpoint: POST messages, GET event streams or a
 * WebSocket upgrade, DELETE to end), its header names, how a message names its session,
 * the server-sent-events framing, and how a unit of text becomes a message.
 */
import { InputEndedError, MalformedFrame } from "./message-stream.js";
import { peek } from "./peek.js";
import { lossyUtf8Decoder, randomBytes, utf8Encoder } from "./web-globals.js";
import type { WebSocketLike } from "./web-types.js";

/** Names the connection on every request after `initialize`, and on the WebSocket's 101. */
export const HEADER_CONNECTION_ID = "Acp-Connection-Id";
/** Names the session of a session-scoped POST, and of a session's event stream. */
export const HEADER_SESSION_ID = "Acp-Session-Id";
export const JSON_MIME_TYPE = "application/json";
export const EVENT_STREAM_MIME_TYPE = "text/event-stream";

/** The method that opens a connection over HTTP (its POST is answered with 200 and the id). */
export const INITIALIZE_METHOD = "initialize";

/**
 * The one request the RFD answers on the connection's stream although it names a session:
 * its client may not have that session's stream yet (it is reattaching the session).
 */
export const CONNECTION_STREAM_RESPONSES: ReadonlySet<string> = new Set(["session/load"]);

/** Default cap on one message (a POST body, a WebSocket message, an event): 16 MiB. */
export const DEFAULT_REMOTE_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * A connection id: 128 bits from the platform's cryptographic random source, as 32 hex
 * digits, after `prefix.` when the server has one (the instance's name, for a proxy to route
 * by). Unguessable, so knowing one proves the request comes from its connection's client.
 */
export function newConnectionId(prefix?: string): string {
  let id = prefix === undefined ? "" : `${prefix}.`;
  for (const byte of randomBytes(16)) id += byte.toString(16).padStart(2, "0");
  return id;
}

/** What a connection id prefix may be: a name a proxy's routing rule can match. */
export const ID_PREFIX = /^[A-Za-z0-9_-]{1,64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The session a message belongs to: the `sessionId` of its params (every session-scoped
 * method of every ACP version carries one), or of a result that opens a session.
 */
export function sessionOfParams(message: unknown): string | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  const id = message.params.sessionId;
  return typeof id === "string" ? id : undefined;
}

export function sessionOfResult(message: unknown): string | undefined {
  if (!isRecord(message) || !isRecord(message.result)) return undefined;
  const id = message.result.sessionId;
  return typeof id === "string" ? id : undefined;
}

/** A JSON-RPC id as a map key that keeps `1` and `"1"` apart. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `s${id}`;
  if (typeof id === "number" && Number.isFinite(id)) return `n${id}`;
  if (id === null) return "null";
  return undefined;
}

/**
 * One unit of received text (an event's data, a WebSocket message) as the connection reads
 * it: the JSON value, or a {@link MalformedFrame} it logs and answers without closing.
 */
export function decodeMessage(text: string, limit: number): unknown {
  const size = byteLength(text);
  if (size > limit)
    return new MalformedFrame("too-large", size, { peek: peek(text.slice(0, 4096)), limit });
  try {
    return JSON.parse(text);
  } catch {
    return new MalformedFrame("parse-error", size, { text });
  }
}

/** UTF-8 length of `text` without encoding it. */
export function byteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: four bytes for its two code units.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

const encoder = utf8Encoder();

/**
 * Messages as server-sent events, each with its id (for `Last-Event-ID`); `JSON.stringify`
 * leaves no line break in the text.
 */
export function sseEvents(items: ReadonlyArray<{ seq: number; json: string }>): Uint8Array {
  let text = "";
  for (const item of items) text += `id: ${item.seq}\ndata: ${item.json}\n\n`;
  return encoder.encode(text);
}

/** A comment line: keeps proxies from timing the stream out, and finds a vanished client. */
export const SSE_KEEPALIVE: Uint8Array = encoder.encode(": keep-alive\n\n");

/**
 * Reads server-sent events incrementally: `push` takes decoded text as it arrives and
 * returns every event it completed, its data and id. Comments and other fields are skipped. An event whose data grows past `limit` bytes is dropped as
 * it arrives (never buffered) and reported once, as its size so far.
 */
/** A server-sent event's data, and its id when it has one. */
export interface SseEvent {
  readonly data: string;
  readonly id?: string;
}

export class SseReader {
  /** The id field of the event being read. */
  private id: string | undefined;
  /** The line read so far (no terminator seen yet). */
  private line = "";
  /** The current line is too long to be kept: its text is counted, not stored. */
  private discarding = false;
  private data: string[] = [];
  private dataBytes = 0;
  private oversize = false;
  /** The last chunk ended in `\r`: a `\n` starting the next one ends the same line. */
  private afterCr = false;

  constructor(private readonly limit: number) {}

  push(text: string): Array<SseEvent | { tooLarge: number }> {
    const events: Array<SseEvent | { tooLarge: number }> = [];
    let at = 0;
    if (this.afterCr && text.charCodeAt(0) === 0x0a) at = 1;
    this.afterCr = false;
    const terminator = /[\r\n]/g;
    for (;;) {
      terminator.lastIndex = at;
      const found = terminator.exec(text);
      if (!found) {
        this.keep(text.slice(at));
        return events;
      }
      const end = found.index;
      if (this.discarding) {
        this.dataBytes += byteLength(text.slice(at, end));
        this.discarding = false;
      } else {
        this.take(this.line + text.slice(at, end), events);
      }
      this.line = "";
      at = end + 1;
      if (text.charCodeAt(end) === 0x0d) {
        if (at === text.length) this.afterCr = true;
        else if (text.charCodeAt(at) === 0x0a) at++;
      }
    }
  }

  /** Text of a line whose end has not arrived yet. */
  private keep(rest: string): void {
    if (rest === "") return;
    if (this.discarding) {
      this.dataBytes += byteLength(rest);
      return;
    }
    this.line += rest;
    // A line longer than the limit cannot hold a message: stop keeping it.
    if (this.line.length > this.limit + 8) {
      this.oversize = true;
      this.discarding = true;
      this.dataBytes += byteLength(this.line);
      this.data = [];
      this.line = "";
    }
  }

  private take(line: string, events: Array<SseEvent | { tooLarge: number }>): void {
    if (line === "") {
      if (this.oversize) events.push({ tooLarge: this.dataBytes });
      else if (this.data.length > 0)
        events.push(
          this.id === undefined
            ? { data: this.data.join("\n") }
            : { data: this.data.join("\n"), id: this.id },
        );
      this.id = undefined;
      this.data = [];
      this.dataBytes = 0;
      this.oversize = false;
      return;
    }
    if (line.startsWith("id:")) {
      this.id = line.charCodeAt(3) === 0x20 ? line.slice(4) : line.slice(3);
      return;
    }
    if (!line.startsWith("data:")) return;
    const value = line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5);
    this.dataBytes += byteLength(value) + (this.data.length > 0 ? 1 : 0);
    if (this.oversize) return;
    if (this.dataBytes > this.limit) {
      this.oversize = true;
      this.data = [];
      return;
    }
    this.data.push(value);
  }
}

/**
 * Why a remote stream ended when the server ended it (it closed the WebSocket, forgot the
 * connection, went away): the connection closes with this as its reason, so every pending
 * call rejects saying so. Open a new stream to reconnect (`initialize`, then `session/load`).
 */
export class RemoteClosedError extends InputEndedError {
  override readonly name = "RemoteClosedError";
  /** The HTTP status or WebSocket close code that said so, when there was one. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    if (status !== undefined) this.status = status;
  }
}

/** What a WebSocket reports, whichever style it has. */
export interface SocketEvents {
  open?(): void;
  /** A text message (`binary` false) or a binary one, as text or bytes as the socket gives it. */
  message?(data: string | Uint8Array | undefined, binary: boolean): void;
  close?(code: number, reason: string): void;
  error?(message: string | undefined): void;
  /** `ws` only: the 101 response's headers (for cookies). */
  upgrade?(headers: Record<string, string | string[] | undefined>): void;
}

/**
 * Listens to a socket of either style: the `ws` package's `on(type, ...args)` (preferred
 * where present: its message listener says whether a message is binary), or the web's
 * `addEventListener(type, event)`.
 */
export function listenToSocket(socket: WebSocketLike, events: SocketEvents): void {
  if (typeof socket.on === "function") {
    const on = socket.on.bind(socket) as (
      type: string,
      listener: (...args: unknown[]) => void,
    ) => unknown;
    if (events.open) on("open", () => events.open?.());
    if (events.message)
      on("message", (data, isBinary) => events.message?.(messageData(data), isBinary === true));
    on("close", (code, reason) =>
      events.close?.(typeof code === "number" ? code : 1005, reasonText(reason)),
    );
    on("error", (error) => events.error?.(error instanceof Error ? error.message : undefined));
    if (events.upgrade)
      on("upgrade", (response) => {
        const headers = (response as { headers?: unknown } | undefined)?.headers;
        if (typeof headers === "object" && headers !== null)
          events.upgrade?.(headers as Record<string, string | string[] | undefined>);
      });
    return;
  }
  const listen = socket.addEventListener?.bind(socket) as
    | ((type: string, listener: (event: Record<string, unknown>) => void) => void)
    | undefined;
  if (!listen) throw new TypeError("the WebSocket has neither on() nor addEventListener()");
  if (events.open) listen("open", () => events.open?.());
  if (events.message)
    listen("message", (event) => {
      const data = event.data;
      events.message?.(messageData(data), typeof data !== "string");
    });
  listen("close", (event) =>
    events.close?.(
      typeof event.code === "number" ? event.code : 1005,
      typeof event.reason === "string" ? event.reason : "",
    ),
  );
  listen("error", (event) =>
    events.error?.(typeof event.message === "string" ? event.message : undefined),
  );
}

/** A close reason as text (`ws` gives a Buffer): short and UTF-8 by the protocol. */
function reasonText(reason: unknown): string {
  if (typeof reason === "string") return reason;
  const bytes = messageData(reason);
  return bytes instanceof Uint8Array ? lossyUtf8Decoder().decode(bytes) : "";
}

/** A message's payload as text or one byte array (`ws` may give a Buffer, an ArrayBuffer or fragments). */
function messageData(data: unknown): string | Uint8Array | undefined {
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data) && data.every((d) => d instanceof Uint8Array)) {
    const parts = data as Uint8Array[];
    const all = new Uint8Array(parts.reduce((sum, d) => sum + d.length, 0));
    let at = 0;
    for (const d of parts) {
      all.set(d, at);
      at += d.length;
    }
    return all;
  }
  return undefined;
}
