/**
 * What both ends of the remote transport agree on: the upstream RFD "Streamable HTTP &
 * WebSocket transport" (one `/acp` endpoint: POST messages, GET event streams or a
 * WebSocket upgrade, DELETE to end), its header names, how a message names its session,
 * the server-sent-events framing, and how a unit of text becomes a message.
 */
import { InputEndedError } from "./message-stream.js";
import type { WebSocketLike } from "./web-types.js";
/** Names the connection on every request after `initialize`, and on the WebSocket's 101. */
export declare const HEADER_CONNECTION_ID = "Acp-Connection-Id";
/** Names the session of a session-scoped POST, and of a session's event stream. */
export declare const HEADER_SESSION_ID = "Acp-Session-Id";
export declare const JSON_MIME_TYPE = "application/json";
export declare const EVENT_STREAM_MIME_TYPE = "text/event-stream";
/** The method that opens a connection over HTTP (its POST is answered with 200 and the id). */
export declare const INITIALIZE_METHOD = "initialize";
/**
 * The one request the RFD answers on the connection's stream although it names a session:
 * its client may not have that session's stream yet (it is reattaching the session).
 */
export declare const CONNECTION_STREAM_RESPONSES: ReadonlySet<string>;
/** Default cap on one message (a POST body, a WebSocket message, an event): 16 MiB. */
export declare const DEFAULT_REMOTE_MAX_MESSAGE_BYTES: number;
/**
 * A connection id: 128 bits from the platform's cryptographic random source, as 32 hex
 * digits, after `prefix.` when the server has one (the instance's name, for a proxy to route
 * by). Unguessable, so knowing one proves the request comes from its connection's client.
 */
export declare function newConnectionId(prefix?: string): string;
/** What a connection id prefix may be: a name a proxy's routing rule can match. */
export declare const ID_PREFIX: RegExp;
/**
 * The session a message belongs to: the `sessionId` of its params (every session-scoped
 * method of every ACP version carries one), or of a result that opens a session.
 */
export declare function sessionOfParams(message: unknown): string | undefined;
export declare function sessionOfResult(message: unknown): string | undefined;
/** A JSON-RPC id as a map key that keeps `1` and `"1"` apart. */
export declare function idKey(id: unknown): string | undefined;
/**
 * One unit of received text (an event's data, a WebSocket message) as the connection reads
 * it: the JSON value, or a {@link MalformedFrame} it logs and answers without closing.
 */
export declare function decodeMessage(text: string, limit: number): unknown;
/** UTF-8 length of `text` without encoding it. */
export declare function byteLength(text: string): number;
/**
 * Messages as server-sent events, each with its id (for `Last-Event-ID`); `JSON.stringify`
 * leaves no line break in the text.
 */
export declare function sseEvents(items: ReadonlyArray<{
    seq: number;
    json: string;
}>): Uint8Array;
/** A comment line: keeps proxies from timing the stream out, and finds a vanished client. */
export declare const SSE_KEEPALIVE: Uint8Array;
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
export declare class SseReader {
    private readonly limit;
    /** The id field of the event being read. */
    private id;
    /** The line read so far (no terminator seen yet). */
    private line;
    /** The current line is too long to be kept: its text is counted, not stored. */
    private discarding;
    private data;
    private dataBytes;
    private oversize;
    /** The last chunk ended in `\r`: a `\n` starting the next one ends the same line. */
    private afterCr;
    constructor(limit: number);
    push(text: string): Array<SseEvent | {
        tooLarge: number;
    }>;
    /** Text of a line whose end has not arrived yet. */
    private keep;
    private take;
}
/**
 * Why a remote stream ended when the server ended it (it closed the WebSocket, forgot the
 * connection, went away): the connection closes with this as its reason, so every pending
 * call rejects saying so. Open a new stream to reconnect (`initialize`, then `session/load`).
 */
export declare class RemoteClosedError extends InputEndedError {
    readonly name = "RemoteClosedError";
    /** The HTTP status or WebSocket close code that said so, when there was one. */
    readonly status?: number;
    constructor(message: string, status?: number);
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
export declare function listenToSocket(socket: WebSocketLike, events: SocketEvents): void;
