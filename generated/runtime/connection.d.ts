import type { CallOptions, ConnectionOptions, MethodTables } from "./connection-types.js";
import { type MessageStream } from "./message-stream.js";
import { type Negotiated } from "./negotiation.js";
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
 * requests, notifications and answers after it until it settles, so a `session/update`
 * stream is applied in order and a call resolves only after the notifications received
 * before its answer were handled (a turn ends after its updates). Two exceptions keep this
 * free of deadlocks: an answer is delivered at once when a notification received before
 * its request was sent is still being handled (that handler may be the one waiting for
 * it), and cancellations are acted on as they arrive. Request handlers run concurrently
 * with each other and with everything after them (so `session/cancel` reaches a running
 * prompt). A notification handler that never settles therefore holds back everything
 * received after it until the connection closes, which rejects the calls still waiting.
 *
 * Backlog: while 1024 incoming calls wait for a slow handler, the connection stops reading
 * (the peer's writes then wait on the pipe) until no more than 256 do, except while a call
 * sent from a running handler is pending (its answer may be behind the backlog).
 */
export declare class Connection {
    /** How received calls are read and routed: the path every connection role shares. */
    private readonly incoming;
    private readonly options;
    private readonly called;
    private readonly cancelEntry;
    /** The handshake's state and the capability checks, when the tables have a handshake. */
    private readonly negotiation;
    private readonly trace;
    private readonly answerMalformed;
    /** Malformed lines seen: the first is a warning, the rest (a whole login screen) debug. */
    private malformedLines;
    private readonly lifetime;
    /** `lifetime.signal.aborted`, kept as a field: it is read several times for every message. */
    private isClosed;
    private readonly pending;
    /** What keeps notifications and answers in arrival order (see the class comment). */
    private readonly order;
    private readonly abandoned;
    /** Incoming requests whose answer is not sent yet, with the controller behind their signal. */
    private readonly inFlight;
    private nextId;
    private handlers;
    private reader;
    private readonly writer;
    /** Incoming calls, started in arrival order (see the class comment). */
    private readonly arrivals;
    private readonly closedPromise;
    private resolveClosed;
    private readonly stream;
    constructor(tables: MethodTables, stream: MessageStream, options?: ConnectionOptions);
    /** Aborts when the connection closes; its reason is a `ConnectionClosedError`. */
    get signal(): PlatformAbortSignal;
    /** Resolves once the connection has closed and its queued output was flushed. Never rejects. */
    get closed(): Promise<void>;
    /** What `initialize` negotiated, once it has completed; undefined before (or without a handshake). */
    get negotiated(): Negotiated | undefined;
    /**
     * Start reading, routing incoming calls to `handlers`: for each served method the member
     * named by its table entry; `extMethod`/`extNotification` for other names starting with `_`.
     */
    serve(handlers: object): void;
    /** Send a request; resolves with the peer's result, rejects with its `RequestError`. */
    request(method: string, params?: unknown, options?: CallOptions): Promise<unknown>;
    /** Send a notification; resolves once it is handed to the transport. */
    notify(method: string, params?: unknown): Promise<void>;
    /**
     * Sends the requests and notifications `calls` makes (synchronously) as one JSON-RPC
     * batch; returns what `calls` returned. Only where the surface allows batches.
     */
    batch<T>(calls: () => T): T;
    /**
     * Close: pending calls reject with a `ConnectionClosedError`, handlers in flight see their
     * signal abort (their answers are not sent), input is cancelled and output closed after
     * what was already queued. Idempotent.
     */
    close(reason?: unknown): void;
    private shutDown;
    private closedError;
    private readLoop;
    private receive;
    private malformed;
    /**
     * A message over the size limit was skipped. Its head usually names it: a request is
     * answered with its own id, so the peer's call fails instead of waiting; an answer to one
     * of our calls fails that call.
     */
    private tooLarge;
    private answerWithError;
    private onRequest;
    /** Starts a queued call (see {@link ArrivalQueue}): a promise while later calls must wait. */
    private start;
    private answer;
    private runRequest;
    private errorObjectFor;
    private onNotification;
    /**
     * Calls the handler; a promise when it is asynchronous. Never rejects: the queue must go
     * on. Counts the notification handled once the handler has returned or settled.
     */
    private runNotification;
    private notificationFailed;
    /**
     * Calls the handler of one notification: what it returned, what it threw (as a `Threw`),
     * or DROPPED when the notification does not reach a handler (logged).
     */
    private callNotificationHandler;
    private onCancelRequest;
    /**
     * Hands an answer to its call once every notification received before it has been
     * handled: an agent sends a turn's updates before it answers the prompt, and the caller
     * must see the turn end after them. The exception: when a notification received before
     * the request was sent is still being handled, that handler may be waiting for this very
     * answer (a handler that calls the peer), so it is delivered at once rather than never.
     */
    private onResponse;
    private deliver;
    private onResult;
    private onErrorResponse;
    private unmatched;
    /** Takes a pending call out of the table, or undefined if it is not (or no longer) pending. */
    private settle;
    /**
     * The caller aborted a call the protocol stops with a notification (`session/prompt`:
     * `session/cancel`): send it, and keep waiting, since the peer still answers the call
     * (ACP: with `stopReason: "cancelled"`). Peers seen in the field ignore
     * `$/cancel_request` but honour this.
     */
    private stopByNotification;
    /** The caller aborted: stop waiting, tell the peer, drop its answer when it comes. */
    private abandon;
    /**
     * Hand one message to the writer, which keeps messages whole and in order (see
     * `StreamWriter`). A transport failure closes the connection; a message the transport
     * refuses (it cannot be encoded, or is over the size limit) fails only its own call.
     */
    private send;
    /** Why a send failed, as its caller sees it (one function for every message sent). */
    private readonly sendFailed;
    private note;
    private handler;
}
