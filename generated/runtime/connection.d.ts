import type { CallOptions, ConnectionOptions, MethodTables } from "./connection-types.js";
import { type MessageStream } from "./message-stream.js";
import type { PlatformAbortSignal } from "./web-types.js";
/** The method the runtime implements itself: the peer gives up on one of our requests in flight. */
export declare const CANCEL_REQUEST_METHOD = "$/cancel_request";
/**
 * A JSON-RPC 2.0 endpoint over a {@link MessageStream}: both sides send requests and
 * notifications concurrently, each routes what it receives by (kind, wire name) through
 * its method tables to a handler object.
 *
 * Ordering: incoming messages are dispatched in arrival order, synchronously when nothing
 * waits. Notification handlers run one at a time: an asynchronous one holds back the
 * requests and notifications after it until it settles, so a `session/update` stream is
 * applied in order. Request handlers run concurrently with each other and with everything
 * after them (so `session/cancel` reaches a running prompt). Responses resolve their calls
 * on arrival, never held back.
 */
export declare class Connection {
    private readonly stream;
    private readonly served;
    private readonly called;
    private readonly cancelEntry;
    private readonly checkReceived;
    private readonly checkSent;
    private readonly log;
    private readonly lifetime;
    private readonly pending;
    private readonly abandoned;
    /** Incoming requests whose answer is not sent yet, with the controller behind their signal. */
    private readonly inFlight;
    private nextId;
    private handlers;
    private reader;
    private readonly writer;
    /** Tail of the write queue: messages go out whole and in the order they were sent. */
    private writes;
    /** Incoming calls, started in arrival order (see the class comment). */
    private readonly arrivals;
    private readonly closedPromise;
    private resolveClosed;
    constructor(tables: MethodTables, stream: MessageStream, options?: ConnectionOptions);
    /** Aborts when the connection closes; its reason is a `ConnectionClosedError`. */
    get signal(): PlatformAbortSignal;
    /** Resolves once the connection has closed and its queued output was flushed. Never rejects. */
    get closed(): Promise<void>;
    /**
     * Start reading, routing incoming calls to `handlers`: for each served method the member
     * named by its table entry; `extMethod`/`extNotification` for names starting with `_`.
     */
    serve(handlers: object): void;
    /** Send a request; resolves with the peer's result, rejects with its `RequestError`. */
    request(method: string, params?: unknown, options?: CallOptions): Promise<unknown>;
    /** Send a notification; resolves once it is handed to the transport. */
    notify(method: string, params?: unknown): Promise<void>;
    /**
     * Close: pending calls reject with a `ConnectionClosedError`, handlers in flight see their
     * signal abort (their answers are not sent), input is cancelled and output closed after
     * what was already queued. Idempotent.
     */
    close(reason?: unknown): void;
    private get isClosed();
    private closedError;
    private readLoop;
    private receive;
    private malformed;
    private answerWithError;
    private onRequest;
    private answer;
    private runRequest;
    private notFound;
    private errorObjectFor;
    private onNotification;
    /** Calls the handler; a promise when it is asynchronous. Never rejects: the queue must go on. */
    private runNotification;
    /** The handler call for one notification, or undefined (logged) when it is dropped. */
    private notificationCall;
    private onCancelRequest;
    private onResult;
    private onErrorResponse;
    private unmatched;
    /** Takes a pending call out of the table, or undefined if it is not (or no longer) pending. */
    private settle;
    /** The caller aborted: stop waiting, tell the peer, drop its answer when it comes. */
    private abandon;
    /**
     * Queue one message. A transport failure closes the connection; a message that cannot be
     * encoded fails only its own call.
     */
    private send;
    private note;
    private handler;
}
