import { type MessageStream } from "./message-stream.js";
import type { PlatformAbortSignal, WebSocketLike } from "./web-types.js";
/** The limits of an `AcpServer`, each with its default. */
export interface RemoteLimits {
    /**
     * Longest message in either direction, in bytes: a POST body (413 past it), a WebSocket
     * message (closed with 1009), a message the agent sends (its call fails with a
     * `MessageTooLargeError`). Default 16 MiB.
     */
    readonly maxMessageBytes?: number;
    /** Open connections, over both transports (503 past it). Default 1024. */
    readonly maxConnections?: number;
    /**
     * Sessions one connection may use (an HTTP event stream each): a session stream past it
     * is refused with 429, and a connection whose agent opens more is closed. Default 64.
     */
    readonly maxSessionsPerConnection?: number;
    /**
     * Output one stream holds for a client that has not read it, counted in UTF-16 code units
     * of its JSON text (bytes, for ASCII); over a WebSocket, the socket's `bufferedAmount`.
     * Past it the agent's writes wait; at twice it the connection is dropped. Input the agent
     * has not read yet has the same limit, and so has what an HTTP stream keeps of what it
     * sent, for a client that reconnects with `Last-Event-ID`. Default 8 MiB.
     */
    readonly maxBufferedBytes?: number;
    /**
     * How long a full stream waits for its client to read anything before the connection is
     * dropped. Default 30 s.
     */
    readonly maxOutputStallMs?: number;
    /**
     * How long an HTTP connection may have neither its event stream open nor a request in
     * flight (its client went away without DELETE) before it is closed. Default 30 s.
     */
    readonly idleTimeoutMs?: number;
    /** How long the agent may take to answer `initialize` over HTTP (504 past it). Default 30 s. */
    readonly initializeTimeoutMs?: number;
    /** Longest session id or request id a client may send (400 past it). Default 1024. */
    readonly maxIdLength?: number;
}
export type ResolvedLimits = {
    readonly [K in keyof RemoteLimits]-?: number;
};
export declare const DEFAULT_REMOTE_LIMITS: ResolvedLimits;
export declare function resolveLimits(limits: RemoteLimits): ResolvedLimits;
/** What `connect` learns about the connection it serves. */
export interface RemoteConnectionInfo {
    /** The `Acp-Connection-Id`. */
    readonly connectionId: string;
    readonly transport: "http" | "websocket";
    /** What `authenticate` returned for the request that opened it, when it was a string. */
    readonly principal?: string;
    /** Aborts when the connection ends, with the reason. */
    readonly signal: PlatformAbortSignal;
}
/** One message of an event stream: its JSON text, and its event id (a sequence number). */
export interface Queued {
    readonly seq: number;
    readonly json: string;
}
/**
 * The output waiting for one HTTP event stream's client, and that client while attached.
 *
 * Every event carries an id. What was sent is kept (up to `replayBytes`, oldest dropped
 * first): a client that reconnects with `Last-Event-ID` gets what followed it again, so
 * messages written into a connection that dropped are not lost. (The RFD defers resumption
 * to v2; a client that sends no `Last-Event-ID` sees what the RFD describes.)
 */
export declare class Outbox {
    private readonly replayBytes;
    private queue;
    private seq;
    private sent;
    private sentHead;
    private sentBytes;
    /** Length of the queued JSON texts. */
    bytes: number;
    /** No more output will come: an attached body ends once it has sent what is queued. */
    finished: boolean;
    /** The attached response body, by identity; a new GET takes the stream over. */
    receiver: object | undefined;
    private waiters;
    /** Called whenever the client takes output (for the stall clock and waiting writers). */
    onTake: () => void;
    constructor(replayBytes: number);
    push(json: string): void;
    /** Queued messages, oldest first, up to about `budget` in length (at least one). */
    take(budget: number): Queued[];
    private remember;
    /**
     * A client reconnecting after event `last`: what was sent after it goes out again, before
     * what is queued. An id this stream never gave is ignored.
     */
    resume(last: number): void;
    get empty(): boolean;
    /** Resolves on the next push, finish or takeover, or after `ms` with false. */
    next(ms: number): Promise<boolean>;
    notify(): void;
    finish(): void;
    clear(): void;
}
export interface ConnectionHooks {
    /** The connection ended: the server forgets it. */
    closed(connection: RemoteConnection): void;
    log(line: string): void;
}
/** The connection's id, shortened for a log line: enough to grep, too little to use. */
export declare const shortId: (id: string) => string;
export declare class RemoteConnection {
    readonly id: string;
    readonly transport: "http" | "websocket";
    readonly principal: string | undefined;
    private readonly limits;
    private readonly hooks;
    readonly info: RemoteConnectionInfo;
    private readonly lifetime;
    private isClosed;
    private readonly input;
    private inputBytes;
    private inputEnded;
    private wakeReader;
    private readonly inputRoom;
    private readonly outputRoom;
    /** HTTP: the connection's event stream, and one per session. */
    readonly outbox: Outbox;
    readonly sessions: Map<string, Outbox>;
    /** HTTP: the session (or null: the connection's stream) each pending client request is answered on. */
    private readonly routes;
    /** HTTP: streams attached and requests in flight; at zero the idle clock runs. */
    private activity;
    private idle;
    private stall;
    /** HTTP `initialize`: the POST waiting for the agent's answer. */
    private initializing;
    private socket;
    /** WebSocket: the sessions its agent opened (an HTTP connection counts its session streams). */
    private readonly socketSessions;
    readonly stream: MessageStream;
    constructor(id: string, transport: "http" | "websocket", principal: string | undefined, limits: ResolvedLimits, hooks: ConnectionHooks);
    get closed(): boolean;
    get signal(): PlatformAbortSignal;
    /** WebSocket: the socket the agent's output goes to. */
    attachSocket(socket: WebSocketLike): void;
    /**
     * A message from the client, for the agent. Resolves once the agent has room for more
     * (rejects if the connection ends first): an HTTP POST is answered then.
     */
    deliver(value: unknown, size: number): Promise<void>;
    /** HTTP: the session (or null) a client request's answer goes to; false when its id is in use. */
    expectAnswer(id: unknown, method: string, session: string | undefined): boolean;
    /** HTTP `initialize`: resolves with the agent's answer to request `id` as JSON text. */
    expectInitialize(id: unknown): Promise<string>;
    /** HTTP: the outbox of a session's stream, made if new; undefined past the session limit. */
    sessionOutbox(session: string): Outbox | undefined;
    /** Counts a session as used by this connection; false past the limit. */
    private useSession;
    /** HTTP: a request (or stream) started; `end` when it is over. Keeps the idle clock stopped. */
    busy(): () => void;
    private settle;
    private reader;
    private writer;
    private send;
    private sendBatch;
    /** Resolves once `outbox` is under the limit; drops the connection at twice it. */
    private roomIn;
    private watch;
    private sendOnSocket;
    /** The agent is done: streams end after what is queued, and then the connection. */
    private finishOutput;
    /** Close over a limit the client broke, with a log line saying which. */
    drop(why: string): void;
    /**
     * End the connection: the agent's input ends (so its connection closes and every handler
     * in flight sees its signal abort), its writes reject, the client's streams end.
     */
    close(reason: Error, code?: number, text?: string): void;
    private endInput;
    private release;
    private closedError;
}
