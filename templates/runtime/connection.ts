import { ArrivalQueue } from "./arrival-queue.js";
import { BatchingStream } from "./batching-stream.js";
import type {
  CallOptions,
  ConnectionOptions,
  LogEvent,
  MethodEntry,
  MethodTables,
  NotificationContext,
  RequestContext,
  TraceEvent,
} from "./connection-types.js";
import {
  DROPPED,
  EXTENSION,
  extensionResult,
  type HandlerFunction,
  handlerOf,
  IncomingCalls,
  type IncomingOptions,
  incomingOptions,
} from "./incoming.js";
import {
  classify,
  type ErrorObject,
  type Incoming,
  isJsonRpcId,
  type JsonRpcId,
  type JsonRpcMessage,
} from "./json-rpc.js";
import {
  isInputEnded,
  isMalformedFrame,
  isRefusedMessage,
  type MalformedFrame,
  type MessageStream,
  MessageTooLargeError,
} from "./message-stream.js";
import {
  fillEmpty,
  invalidParams,
  kindsOf,
  type Routes,
  receive,
  routesOf,
} from "./method-routes.js";
import { type Negotiated, Negotiation } from "./negotiation.js";
import { NotificationOrder } from "./notification-order.js";
import { ConnectionClosedError, RequestError, wireErrors } from "./request-error.js";
import { type AbortControllerLike, newAbortController } from "./web-globals.js";
import type { PlatformAbortSignal, StreamReader, StreamWriter } from "./web-types.js";

/** The method the runtime implements itself: the peer gives up on one of our requests in flight. */
export const CANCEL_REQUEST_METHOD = "$/cancel_request";

/** How many locally cancelled request ids are remembered so their late answers drop quietly. */
const ABANDONED_MEMORY = 1024;

/**
 * An incoming call waiting for its turn in the arrival queue: a notification or an answer as
 * classified (queued as is), or a request with what its handler will get.
 */
type Arrival =
  | Extract<Incoming, { kind: "notification" | "result" | "error" }>
  | {
      readonly kind: "request";
      readonly context: RequestContext;
      readonly params: unknown;
      readonly controller: AbortControllerLike;
    };

/** What a notification handler threw, for the caller to count and log. */
class Threw {
  constructor(readonly error: unknown) {}
}

interface Pending {
  readonly entry: MethodEntry | undefined;
  /** Notifications received when it was sent: its answer waits for no earlier ones. */
  readonly sentAfter: number;
  /**
   * Sent while a notification was being handled: that handler may be waiting for this
   * answer, so input must be read on until it arrives, however full the queue.
   */
  readonly awaitable: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Detaches the caller's abort listener. */
  release(): void;
}

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
export class Connection {
  /** How received calls are read and routed: the path every connection role shares. */
  private readonly incoming: IncomingCalls;
  private readonly options: IncomingOptions;
  private readonly called: Routes;
  private readonly cancelEntry: MethodEntry | undefined;
  /** The handshake's state and the capability checks, when the tables have a handshake. */
  private readonly negotiation: Negotiation | undefined;
  private readonly trace: ((event: TraceEvent) => void) | undefined;
  private readonly answerMalformed: boolean;
  /** Malformed lines seen: the first is a warning, the rest (a whole login screen) debug. */
  private malformedLines = 0;
  private readonly lifetime: AbortControllerLike = newAbortController();
  /** `lifetime.signal.aborted`, kept as a field: it is read several times for every message. */
  private isClosed = false;
  private readonly pending = new Map<JsonRpcId, Pending>();
  /** What keeps notifications and answers in arrival order (see the class comment). */
  private readonly order = new NotificationOrder();
  private readonly abandoned = new Set<JsonRpcId>();
  /** Incoming requests whose answer is not sent yet, with the controller behind their signal. */
  private readonly inFlight = new Map<JsonRpcId, AbortControllerLike>();
  private nextId = 0;
  private handlers: Record<string, unknown> | undefined;
  private reader: StreamReader<unknown> | undefined;
  private readonly writer: StreamWriter<JsonRpcMessage>;
  /** Incoming calls, started in arrival order (see the class comment). */
  private readonly arrivals = new ArrivalQueue<Arrival>((arrival) => this.start(arrival));
  private readonly closedPromise: Promise<void>;
  private resolveClosed: () => void = () => {};
  private readonly stream: MessageStream;

  constructor(tables: MethodTables, stream: MessageStream, options: ConnectionOptions = {}) {
    this.options = incomingOptions(options);
    this.incoming = new IncomingCalls(routesOf(tables.serves), this.options);
    this.called = routesOf(tables.calls);
    this.cancelEntry = tables.protocol?.find(
      (m) => m.method === CANCEL_REQUEST_METHOD && m.kind === "notification",
    );
    this.trace = options.trace;
    this.answerMalformed = options.malformedInput === "answer";
    const handshake = tables.negotiation;
    this.negotiation = handshake
      ? new Negotiation(
          handshake.role,
          handshake.spec,
          handshake.gates,
          options.capabilities,
          (level, reason, message, method) => this.note(level, reason, message, { method }),
          (name) => this.handler(name) !== undefined,
        )
      : undefined;
    // Batches are taken apart and put together below the connection, which never sees one.
    this.stream = tables.batches
      ? new BatchingStream(stream, { log: this.options.log, trace: this.trace })
      : stream;
    // Taken now, not on first send: close() must be able to end our output even if nothing was sent.
    this.writer = this.stream.writable.getWriter();
    this.closedPromise = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  /** Aborts when the connection closes; its reason is a `ConnectionClosedError`. */
  get signal(): PlatformAbortSignal {
    return this.lifetime.signal;
  }

  /** Resolves once the connection has closed and its queued output was flushed. Never rejects. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  /** What `initialize` negotiated, once it has completed; undefined before (or without a handshake). */
  get negotiated(): Negotiated | undefined {
    return this.negotiation?.negotiated;
  }

  /**
   * Start reading, routing incoming calls to `handlers`: for each served method the member
   * named by its table entry; `extMethod`/`extNotification` for other names starting with `_`.
   */
  serve(handlers: object): void {
    if (this.handlers) throw new Error("this connection is already serving handlers");
    this.handlers = handlers as Record<string, unknown>;
    void this.readLoop();
  }

  /** Send a request; resolves with the peer's result, rejects with its `RequestError`. */
  request(method: string, params?: unknown, options: CallOptions = {}): Promise<unknown> {
    if (this.isClosed) return Promise.reject(this.closedError());
    const entry = this.called.request.get(method);
    const invalid = this.options.checkSent ? invalidParams(entry, params, true) : undefined;
    if (invalid) return Promise.reject(invalid);
    const refused = this.negotiation?.beforeSend(method, "request", params);
    if (refused) return Promise.reject(refused);
    const signal = options.signal;
    if (signal?.aborted)
      return Promise.reject(wireErrors.requestCancelled(undefined, "aborted before it was sent"));

    const id = this.nextId++;
    const sentAfter = this.order.received;
    const awaitable = this.order.handled < sentAfter;
    if (awaitable) {
      this.order.awaitable++;
      // The reader may have stopped at a full queue; the answer may be behind it.
      this.arrivals.wake();
    }
    return new Promise((resolve, reject) => {
      const cancelBy = entry?.cancelBy;
      const onAbort = cancelBy
        ? () => this.stopByNotification(id, cancelBy, params)
        : () => this.abandon(id);
      this.pending.set(id, {
        entry,
        sentAfter,
        awaitable,
        resolve,
        reject,
        release: () => signal?.removeEventListener("abort", onAbort),
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.send(
        params === undefined
          ? { jsonrpc: "2.0", id, method }
          : { jsonrpc: "2.0", id, method, params },
      ).catch((error) => this.settle(id)?.reject(error));
    });
  }

  /** Send a notification; resolves once it is handed to the transport. */
  notify(method: string, params?: unknown): Promise<void> {
    if (this.isClosed) return Promise.reject(this.closedError());
    const invalid = this.options.checkSent
      ? invalidParams(this.called.notification.get(method), params, true)
      : undefined;
    if (invalid) return Promise.reject(invalid);
    const refused = this.negotiation?.beforeSend(method, "notification", params);
    if (refused) return Promise.reject(refused);
    return this.send(
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params },
    );
  }

  /**
   * Sends the requests and notifications `calls` makes (synchronously) as one JSON-RPC
   * batch; returns what `calls` returned. Only where the surface allows batches.
   */
  batch<T>(calls: () => T): T {
    if (!(this.stream instanceof BatchingStream))
      throw new TypeError("this protocol version has no JSON-RPC batches");
    return this.stream.collect(calls);
  }

  /**
   * Close: pending calls reject with a `ConnectionClosedError`, handlers in flight see their
   * signal abort (their answers are not sent), input is cancelled and output closed after
   * what was already queued. Idempotent.
   */
  close(reason?: unknown): void {
    this.shutDown(new ConnectionClosedError(reason, "closed"));
  }

  private shutDown(error: ConnectionClosedError): void {
    if (this.isClosed) return;
    const reason = error.reason;
    this.isClosed = true;
    this.lifetime.abort(error);
    for (const call of this.pending.values()) {
      call.release();
      call.reject(error);
    }
    this.pending.clear();
    this.order.awaitable = 0;
    for (const controller of this.inFlight.values()) controller.abort(error);
    this.inFlight.clear();
    this.arrivals.clear();
    this.reader?.cancel(reason).catch(ignore);
    // Closed now, synchronously: the writer closes after what it already holds, and an
    // application that ends the underlying stream right after `close()` (Node:
    // `conn.close(); child.stdin.end()`) must find the close already under way, or Node
    // 20's `Writable.toWeb` adapter throws an uncaught TypeError.
    attempt(() => this.writer.close())
      .catch(ignore)
      .then(() => this.resolveClosed());
  }

  private closedError(): ConnectionClosedError {
    const reason = this.lifetime.signal.reason;
    return reason instanceof ConnectionClosedError ? reason : new ConnectionClosedError(reason);
  }

  private async readLoop(): Promise<void> {
    try {
      const reader = this.stream.readable.getReader();
      this.reader = reader;
      for (;;) {
        // Backpressure: while handlers fall behind, leave the backlog in the pipe (the
        // peer's writes wait) instead of in memory; but never while an answer a handler
        // may be waiting for could be behind it.
        if (this.order.awaitable === 0) {
          const room = this.arrivals.whenRoom();
          if (room) await room;
          if (this.isClosed) break;
        }
        const next = await reader.read();
        if (this.isClosed) break;
        if (next.done) {
          this.shutDown(new ConnectionClosedError(undefined, "end-of-input"));
          break;
        }
        this.trace?.({ direction: "received", message: next.value });
        this.receive(next.value);
      }
    } catch (error) {
      this.shutDown(
        new ConnectionClosedError(error, isInputEnded(error) ? "end-of-input" : "read-error"),
      );
    }
  }

  private receive(value: unknown): void {
    if (isMalformedFrame(value)) {
      this.malformed(value);
      return;
    }
    const message = classify(value);
    switch (message.kind) {
      case "request":
        this.onRequest(message.id, message.method, message.params);
        break;
      case "notification":
        this.onNotification(message);
        break;
      case "result":
      case "error":
        this.onResponse(message);
        break;
      case "invalid":
        this.note("warn", "invalid-message", `invalid JSON-RPC message: ${message.reason}`, {
          id: message.id,
        });
        if (message.answer) {
          this.answerWithError(message.id, wireErrors.invalidRequest(undefined, message.reason));
        }
    }
  }

  private malformed(frame: MalformedFrame): void {
    if (frame.problem === "too-large") {
      this.tooLarge(frame);
      return;
    }
    const what = frame.problem === "invalid-utf8" ? "not valid UTF-8" : "not valid JSON";
    const first = this.malformedLines++ === 0;
    this.note(
      first ? "warn" : "debug",
      frame.problem,
      `an incoming line of ${frame.size} bytes is ${what}${first && !this.answerMalformed ? "; dropped (later ones are logged at debug level)" : ""}`,
    );
    if (this.answerMalformed) this.answerWithError(null, wireErrors.parseError(what));
  }

  /**
   * A message over the size limit was skipped. Its head usually names it: a request is
   * answered with its own id, so the peer's call fails instead of waiting; an answer to one
   * of our calls fails that call.
   */
  private tooLarge(frame: MalformedFrame): void {
    const { id, method, response } = frame.peek ?? {};
    const limit = frame.limit ?? Number.NaN;
    this.note(
      "warn",
      "message-too-large",
      `skipped an incoming message of ${frame.size} bytes: over the size limit`,
      id === undefined ? {} : { id },
    );
    if (response && id !== undefined) {
      const call = this.settle(id);
      const what = call?.entry ? `the answer to ${call.entry.method}` : "the answer";
      call?.reject(new MessageTooLargeError(what, frame.size, limit));
      return;
    }
    if (method && id === undefined) return; // a notification: never answered
    if (id === undefined && !this.answerMalformed) return;
    this.answerWithError(
      id ?? null,
      wireErrors.invalidRequest({ size: frame.size, limit }, "message too large"),
    );
  }

  private answerWithError(id: JsonRpcId, error: RequestError): void {
    this.send({ jsonrpc: "2.0", id, error: error.toErrorObject() }).catch(ignore);
  }

  // --- incoming requests -------------------------------------------------------------------

  private onRequest(id: JsonRpcId, method: string, params: unknown): void {
    if (this.inFlight.has(id)) {
      this.note("warn", "duplicate-id", `request id ${JSON.stringify(id)} is already in flight`, {
        method,
        id,
      });
      this.answerWithError(id, wireErrors.invalidRequest({ id }, "request id already in flight"));
      return;
    }
    const controller = newAbortController();
    this.inFlight.set(id, controller);
    const context: RequestContext = { method, requestId: id, signal: controller.signal };
    this.arrivals.push({ kind: "request", context, params, controller });
  }

  /** Starts a queued call (see {@link ArrivalQueue}): a promise while later calls must wait. */
  private start(arrival: Arrival): Promise<void> | undefined {
    switch (arrival.kind) {
      case "notification":
        return this.runNotification(arrival.method, arrival.params);
      case "request":
        void this.answer(arrival.context, arrival.params, arrival.controller);
        return undefined;
      default:
        this.deliver(arrival);
        return undefined;
    }
  }

  private async answer(
    context: RequestContext,
    params: unknown,
    controller: AbortControllerLike,
  ): Promise<void> {
    const { requestId: id, method } = context;
    let response: JsonRpcMessage;
    try {
      response = { jsonrpc: "2.0", id, result: await this.runRequest(context, params) };
    } catch (error) {
      response = { jsonrpc: "2.0", id, error: this.errorObjectFor(error, context, controller) };
    }
    if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
    if (this.isClosed) return;
    // Written now, so the handshake completes just as its answer goes out: nothing the agent
    // sends can overtake it.
    if ("result" in response) this.negotiation?.answering(method, response.result);
    await this.send(response).catch((error) => {
      if (!isRefusedMessage(error)) return;
      if (error.name === "MessageTooLargeError") {
        const { size, limit } = error as MessageTooLargeError;
        this.note(
          "error",
          "message-too-large",
          `the ${method} result is ${size} bytes, over the limit of ${limit}`,
          {
            method,
            id,
            error,
          },
        );
        this.answerWithError(
          id,
          wireErrors.internalError({ size, limit }, "result over the message size limit"),
        );
        return;
      }
      this.note("error", "encode-error", `the ${method} result cannot be encoded as JSON`, {
        method,
        id,
        error,
      });
      this.answerWithError(
        id,
        wireErrors.internalError(undefined, "result cannot be encoded as JSON"),
      );
    });
  }

  private async runRequest(context: RequestContext, params: unknown): Promise<unknown> {
    const { method, requestId: id } = context;
    if (this.isClosed) throw this.closedError();
    const incoming = this.incoming;
    const entry = incoming.route("request", method);
    if (entry === EXTENSION) {
      const ext = this.handler("extMethod");
      if (!ext) throw incoming.notFound(method, id);
      return extensionResult(await ext.call(this.handlers, method, params, context));
    }
    // A gated method this side did not declare is answered as if it had no handler.
    if (entry && this.negotiation?.refuses(method, "request"))
      throw wireErrors.methodNotFound(method);
    const handler = entry && this.handler(entry.handler);
    if (!entry || !handler) throw incoming.notFound(method, id);
    const value = incoming.requestParams(entry, params, id);
    this.negotiation?.requestReceived(method, value);
    return incoming.answerOf(entry, await handler.call(this.handlers, value, context), id);
  }

  private errorObjectFor(
    error: unknown,
    context: RequestContext,
    controller: AbortControllerLike,
  ): ErrorObject {
    if (error instanceof RequestError) return error.toErrorObject();
    if (controller.signal.aborted) return wireErrors.requestCancelled().toErrorObject();
    const { method, requestId: id } = context;
    this.note("error", "handler-error", `the ${method} handler failed: ${describe(error)}`, {
      method,
      id,
      error,
    });
    // The reason goes in the message too: the peer's code sees it as its call's rejection
    // (`RequestError: Internal error` alone told the client of an agent nothing).
    return wireErrors
      .internalError(
        { message: describe(error) },
        `the ${method} handler failed: ${describe(error)}`,
      )
      .toErrorObject();
  }

  // --- incoming notifications ----------------------------------------------------------------

  private onNotification(message: Extract<Incoming, { kind: "notification" }>): void {
    // Handled at once, outside the queue: a cancellation must overtake queued work.
    if (this.cancelEntry && message.method === this.cancelEntry.method) {
      this.onCancelRequest(this.cancelEntry, message.params);
      return;
    }
    this.order.received++;
    this.arrivals.push(message);
  }

  /**
   * Calls the handler; a promise when it is asynchronous. Never rejects: the queue must go
   * on. Counts the notification handled once the handler has returned or settled.
   */
  private runNotification(method: string, params: unknown): Promise<void> | undefined {
    const result = this.isClosed ? DROPPED : this.callNotificationHandler(method, params);
    if (result instanceof Threw) {
      this.notificationFailed(method, result.error);
      return undefined;
    }
    if (result !== DROPPED && isThenable(result))
      return Promise.resolve(result).then(this.order.countHandled, (error: unknown) =>
        this.notificationFailed(method, error),
      );
    this.order.handled++;
    return undefined;
  }

  private notificationFailed(method: string, error: unknown): void {
    this.order.handled++;
    this.note("error", "handler-error", `the ${method} handler failed: ${describe(error)}`, {
      method,
      error,
    });
  }

  /**
   * Calls the handler of one notification: what it returned, what it threw (as a `Threw`),
   * or DROPPED when the notification does not reach a handler (logged).
   */
  private callNotificationHandler(method: string, params: unknown): unknown {
    const context: NotificationContext = { method, signal: this.lifetime.signal };
    const incoming = this.incoming;
    const entry = incoming.route("notification", method);
    if (entry === EXTENSION) {
      const ext = this.handler("extNotification");
      if (!ext) {
        incoming.note("debug", "unknown-method", `no extNotification handler for ${method}`, {
          method,
        });
        return DROPPED;
      }
      try {
        return ext.call(this.handlers, method, params, context);
      } catch (error) {
        return new Threw(error);
      }
    }
    if (entry && this.negotiation?.refuses(method, "notification")) return DROPPED;
    const handler = entry && this.handler(entry.handler);
    if (!entry || !handler) return incoming.unhandled(method);
    const value = incoming.notificationParams(entry, params);
    if (value === DROPPED) return DROPPED;
    try {
      return handler.call(this.handlers, value, context);
    } catch (error) {
      return new Threw(error);
    }
  }

  private onCancelRequest(entry: MethodEntry, params: unknown): void {
    const invalid = this.options.checkReceived ? invalidParams(entry, params) : undefined;
    const requestId =
      typeof params === "object" && params !== null
        ? (params as { requestId?: unknown }).requestId
        : undefined;
    if (invalid || !isJsonRpcId(requestId)) {
      const issues = invalid?.issues;
      this.note("warn", "invalid-params", `dropped ${entry.method}: no valid requestId`, {
        method: entry.method,
        ...(issues ? { issues } : {}),
      });
      return;
    }
    const controller = this.inFlight.get(requestId);
    if (!controller) {
      this.note(
        "debug",
        "unknown-cancel",
        `${entry.method} for ${JSON.stringify(requestId)}, which is not in flight`,
        { id: requestId },
      );
      return;
    }
    controller.abort(wireErrors.requestCancelled({ requestId }));
  }

  // --- incoming responses --------------------------------------------------------------------

  /**
   * Hands an answer to its call once every notification received before it has been
   * handled: an agent sends a turn's updates before it answers the prompt, and the caller
   * must see the turn end after them. The exception: when a notification received before
   * the request was sent is still being handled, that handler may be waiting for this very
   * answer (a handler that calls the peer), so it is delivered at once rather than never.
   */
  private onResponse(message: Extract<Incoming, { kind: "result" | "error" }>): void {
    const call = this.pending.get(message.id);
    if (!call || this.order.answersAtOnce(call.sentAfter)) {
      this.deliver(message);
      return;
    }
    this.arrivals.push(message);
  }

  private deliver(message: Extract<Incoming, { kind: "result" | "error" }>): void {
    if (message.kind === "result") this.onResult(message.id, message.result);
    else this.onErrorResponse(message.id, message.error);
  }

  private onResult(id: JsonRpcId, value: unknown): void {
    const call = this.settle(id);
    if (!call) {
      this.unmatched(id);
      return;
    }
    const validator = call.entry?.validateResult;
    const filled = fillEmpty(value, validator);
    // Results are read as the reference reads them: a variant this package does not know
    // fails the call (the message names its kind).
    const received =
      this.options.checkReceived && call.entry
        ? receive(call.entry.parseResult, validator, call.entry.result ?? "result", filled)
        : { value: filled, unknown: [] };
    if ("invalid" in received && call.entry) {
      const problem = received.invalid;
      const what =
        received.unknown.length > 0
          ? `a ${kindsOf(received.unknown)} this package does not know`
          : `an ${problem.message}`;
      this.note("warn", "invalid-result", `${call.entry.method} answered with ${what}`, {
        method: call.entry.method,
        id,
        issues: problem.issues,
      });
      call.reject(problem);
      return;
    }
    const result = "value" in received ? received.value : filled;
    const unspoken =
      call.entry && this.negotiation?.resultReceived(call.entry.method, call.entry.result, result);
    if (unspoken) call.reject(unspoken);
    else call.resolve(result);
  }

  private onErrorResponse(id: JsonRpcId, error: ErrorObject): void {
    const call = this.settle(id);
    if (!call) {
      this.unmatched(id, error);
      return;
    }
    call.reject(new RequestError(error.code, error.message, error.data));
  }

  private unmatched(id: JsonRpcId, error?: ErrorObject): void {
    if (id === null && error) {
      this.note(
        "debug",
        "unattributed-error",
        `the peer reported an error not tied to a request: ${error.code} ${error.message}`,
      );
    } else if (this.abandoned.delete(id)) {
      this.note(
        "debug",
        "late-response",
        `dropped the answer to cancelled request ${JSON.stringify(id)}`,
        { id },
      );
    } else {
      this.note(
        "warn",
        "unknown-response-id",
        `dropped a response to unknown request id ${JSON.stringify(id)}`,
        { id },
      );
    }
  }

  /** Takes a pending call out of the table, or undefined if it is not (or no longer) pending. */
  private settle(id: JsonRpcId): Pending | undefined {
    const call = this.pending.get(id);
    if (!call) return undefined;
    this.pending.delete(id);
    if (call.awaitable) this.order.awaitable--;
    call.release();
    return call;
  }

  /**
   * The caller aborted a call the protocol stops with a notification (`session/prompt`:
   * `session/cancel`): send it, and keep waiting, since the peer still answers the call
   * (ACP: with `stopReason: "cancelled"`). Peers seen in the field ignore
   * `$/cancel_request` but honour this.
   */
  private stopByNotification(
    id: JsonRpcId,
    cancelBy: NonNullable<MethodEntry["cancelBy"]>,
    params: unknown,
  ): void {
    const call = this.pending.get(id);
    if (!call) return;
    call.release();
    const source = (typeof params === "object" && params !== null ? params : {}) as Record<
      string,
      unknown
    >;
    const copied: Record<string, unknown> = {};
    for (const key of cancelBy.copy) if (Object.hasOwn(source, key)) copied[key] = source[key];
    this.notify(cancelBy.method, copied).catch((error: unknown) => {
      this.note("warn", "cancel-failed", `could not send ${cancelBy.method}: ${describe(error)}`, {
        method: cancelBy.method,
        id,
        error,
      });
    });
  }

  /** The caller aborted: stop waiting, tell the peer, drop its answer when it comes. */
  private abandon(id: JsonRpcId): void {
    const call = this.settle(id);
    if (!call) return;
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_MEMORY)
      this.abandoned.delete(this.abandoned.values().next().value as JsonRpcId);
    if (this.cancelEntry)
      this.send({
        jsonrpc: "2.0",
        method: this.cancelEntry.method,
        params: { requestId: id },
      }).catch(ignore);
    call.reject(wireErrors.requestCancelled({ requestId: id }, "cancelled by the caller"));
  }

  // --- output --------------------------------------------------------------------------------

  /**
   * Hand one message to the writer, which keeps messages whole and in order (see
   * `StreamWriter`). A transport failure closes the connection; a message the transport
   * refuses (it cannot be encoded, or is over the size limit) fails only its own call.
   */
  private send(message: JsonRpcMessage): Promise<void> {
    if (this.isClosed) return Promise.reject(this.closedError());
    let written: Promise<void>;
    try {
      written = this.writer.write(message);
    } catch (error) {
      written = Promise.reject(error);
    }
    const trace = this.trace;
    return (trace ? written.then(() => trace({ direction: "sent", message })) : written).then(
      undefined,
      this.sendFailed,
    );
  }

  /** Why a send failed, as its caller sees it (one function for every message sent). */
  private readonly sendFailed = (error: unknown): never => {
    if (isRefusedMessage(error)) throw error;
    this.shutDown(
      new ConnectionClosedError(error, isInputEnded(error) ? "end-of-input" : "write-error"),
    );
    throw this.closedError();
  };

  private note(
    level: LogEvent["level"],
    reason: LogEvent["reason"],
    message: string,
    detail?: Partial<LogEvent>,
  ): void {
    this.incoming.note(level, reason, message, detail);
  }

  private handler(name: string): HandlerFunction | undefined {
    return handlerOf(this.handlers, name);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ignore(): void {}

/** `run()`, with a synchronous throw turned into a rejection. */
function attempt(run: () => Promise<void>): Promise<void> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}
