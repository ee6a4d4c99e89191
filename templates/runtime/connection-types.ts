import type { JsonRpcId, JsonRpcMessage } from "./json-rpc.js";
import type {
  CapabilityGate,
  CapabilityMode,
  CapabilityOptions,
  NegotiationSpec,
} from "./negotiation.js";
import type { ParseOptions } from "./parse-context.js";
import type { CompiledValidator, ValidationIssue } from "./validation.js";
import type { PlatformAbortSignal, SignalLike } from "./web-types.js";

/**
 * One method as the connection routes it. The generated `connection.js` of each surface
 * holds these tables (wire name, kind, handler member, type names, compiled validators);
 * the logic that uses them lives here in the runtime, once.
 */
export interface MethodEntry {
  /** Wire name (`session/prompt`). */
  readonly method: string;
  readonly kind: "request" | "notification";
  /** Member of the handler object that serves it (`sessionPrompt`). */
  readonly handler: string;
  /** Type name of the params, for error messages (`PromptRequest`). */
  readonly params: string;
  readonly validateParams?: CompiledValidator;
  /**
   * Lenient reading of received params (`parse<Name>`: the value the reference reads, the
   * schema's `x-deserialize-*` rules applied; with `unknownVariants: "keep"`, the open
   * reading): returns the value or throws a `ValidationError`. Without it, received params
   * are checked strictly with `validateParams`.
   */
  readonly parseParams?: (value: unknown, options?: ParseOptions) => unknown;
  /** Type name of the result; requests only. */
  readonly result?: string;
  readonly validateResult?: CompiledValidator;
  /** Lenient reading of a received result, like `parseParams` (never the open reading). */
  readonly parseResult?: (value: unknown, options?: ParseOptions) => unknown;
  /**
   * A request the peer answers after a notification told it to stop (ACP's
   * `session/prompt`, stopped by `session/cancel`): aborting the call sends that
   * notification, with the listed params copied from the request's, and the call still
   * resolves with the peer's answer. Without it, aborting sends `$/cancel_request` and
   * rejects at once.
   */
  readonly cancelBy?: { readonly method: string; readonly copy: readonly string[] };
  /**
   * A request whose result names something that other requests then act on (ACP's
   * `terminal/create` and its terminal id): the typed proxy resolves with a handle.
   */
  readonly handle?: HandleSpec;
}

/** How to build the handle a request's typed proxy resolves with (see `handle.ts`). */
export interface HandleSpec {
  /** The result's property that names the thing (`terminalId`). */
  readonly id: string;
  /** Params of the creating request that every handle call repeats (`sessionId`). */
  readonly scope: readonly string[];
  /** Handle member → wire name of the request it sends (`waitForExit` → `terminal/wait_for_exit`). */
  readonly methods: Readonly<Record<string, string>>;
  /** The member that frees the thing, called by `Symbol.asyncDispose` (`release`). */
  readonly dispose?: string;
}

export interface MethodTables {
  /** Methods this side serves: incoming requests and notifications are routed by these. */
  readonly serves: readonly MethodEntry[];
  /** Methods the peer serves: what this side may call. */
  readonly calls: readonly MethodEntry[];
  /** Protocol-level methods both sides understand; the runtime implements `$/cancel_request`. */
  readonly protocol?: readonly MethodEntry[];
  /**
   * The surface's handshake and capability gates, and which side this connection is: with
   * it, the connection keeps the negotiated capabilities (see `ConnectionOptions.capabilities`).
   */
  readonly negotiation?: {
    readonly role: "agent" | "client";
    readonly spec: NegotiationSpec;
    readonly gates: readonly CapabilityGate[];
  };
  /**
   * The surface allows JSON-RPC batches (ACP v2): arrays received are taken apart and
   * answered as JSON-RPC says, and the connection can send some (`batch`). Without it an
   * array is answered -32600, as v1 requires.
   */
  readonly batches?: boolean;
}

/**
 * Which messages are checked against the schema. Both directions default to on: received
 * values are untrusted, and checking what we send catches a handler's mistake here instead
 * of in the peer.
 */
export interface ValidationOptions {
  /**
   * Params of incoming requests (invalid: answered -32602, handler not called) and
   * notifications (invalid: dropped and logged), and results of the peer's responses
   * (invalid: the call rejects with a `ValidationError`).
   */
  readonly received?: boolean;
  /**
   * Params of outgoing requests and notifications (invalid: the call rejects with a
   * `ValidationError`, nothing is sent) and results our handlers return (invalid: the peer
   * gets -32603 with the issues, and the problem is logged).
   */
  readonly sent?: boolean;
}

export interface ConnectionOptions {
  /** `true` (default) checks both directions, `false` neither. */
  readonly validate?: boolean | ValidationOptions;
  /**
   * Whether the capabilities negotiated at `initialize` are kept, in both directions
   * (default `"enforce"`). Outgoing: a method or content the peer did not declare fails
   * locally with a `RequestError` naming the capability, and so does any call before
   * `initialize` completed, other than `initialize` itself (and `$/` methods); an agent
   * answering `initialize` with a protocol version this connection does not speak fails the
   * call. Incoming: a call of a method this side gates behind a capability it did not
   * declare is answered -32601 (a notification: dropped) without reaching the handler.
   * `"warn"` logs each instead and goes ahead; `"off"` does neither. One mode for both
   * directions, or `{ sent, received }`.
   *
   * Why incoming calls are refused by default, though real peers are sloppy: the
   * declaration becomes the one switch. A client that leaves `fs.writeTextFile` out because
   * its user said no is not written to, whatever handlers it has; and a peer that checks
   * capabilities (as the agents seen in the field do) never sends such a call.
   */
  readonly capabilities?: CapabilityMode | CapabilityOptions;
  /**
   * What to do with an incoming line that is not JSON (or not UTF-8, or over the size limit
   * with no id to answer to): `"drop"` (default) logs it and reads on; `"answer"` also sends
   * the -32700 (-32600) error with `id: null` that JSON-RPC 2.0 prescribes.
   *
   * Why drop by default: such lines come from peers that are not speaking JSON-RPC at that
   * moment, such as an agent that prints a login screen on stdout and reads stdin as the
   * user's answer. An error sent back lands in that prompt as input; and a peer that does
   * speak JSON-RPC cannot match an error with `id: null` to anything either. The official
   * TypeScript SDK does answer: 2.4.0, like every release since 1.4 (1.0 to 1.3 logged and
   * dropped), sends -32700 with `id: null` for a line that is not JSON and logs nothing; it
   * reads bytes that are not UTF-8 as U+FFFD, and a line over its size limit closes its
   * connection. Choose `"answer"` for a peer or a conformance suite that expects the errors.
   */
  readonly malformedInput?: "drop" | "answer";
  /**
   * What a handler receives when params hold a tagged-union value of a kind this package
   * does not know (a newer peer's `session/update`, a new content block type), in a union
   * the schema closes (v1's; v2's unions are open in the schema itself):
   *
   * - `"keep"` (default): the value reaches the handler whole, as an unknown variant (the
   *   handler's params are typed `Received.<Name>`, which admits it), and is logged at
   *   debug level with its kind (`unknown-variant`);
   * - `"reject"`: the reference's behaviour: a notification is dropped with a warning that
   *   names the kind, a request answered -32602.
   *
   * Results of this side's calls are read as the reference reads them either way.
   */
  readonly unknownVariants?: "keep" | "reject";
  /**
   * Sees every message in both directions, raw: a received value as the transport
   * delivered it, before any checking or parsing (a line that was not JSON as a
   * `MalformedFrame`, with its `text`); a sent message once the transport has taken it
   * (serialised, and within the size limit). For debugging a peer: unlike `log`, it sees
   * params and results, which may hold secrets. Must not throw.
   */
  readonly trace?: (event: TraceEvent) => void;
  /**
   * Receives every message the connection drops or answers with an error on its own, with a
   * reason. Default: `warn` and `error` events go to `console.error` (stderr in Node, which
   * keeps stdout clean for the protocol). Events never carry params: they may hold secrets.
   */
  readonly log?: (event: LogEvent) => void;
  /**
   * Sessions (`conn.session()`): how long a cancelled turn waits for the agent to end it
   * (v1: the prompt's answer; v2: the idle state update) before it settles without it,
   * rejecting with a `TurnAbandonedError`. Default 3000 ms. Agents seen in the field ignore
   * `session/cancel` and never answer a cancelled prompt: without a bound, such a turn
   * would never end.
   */
  readonly cancelGraceMs?: number;
}

/** One message seen by {@link ConnectionOptions.trace}. */
export type TraceEvent =
  | { readonly direction: "received"; readonly message: unknown }
  | { readonly direction: "sent"; readonly message: JsonRpcMessage };

export type LogReason =
  /** An incoming line is not JSON: dropped (`malformedInput: "answer"`: answered -32700). */
  | "parse-error"
  /** An incoming line is not UTF-8: dropped (`malformedInput: "answer"`: answered -32700). */
  | "invalid-utf8"
  /**
   * An incoming line exceeds `maxMessageBytes`: skipped; a request is answered -32600 with
   * its id, a response fails its call. Or a result of ours does: replaced by -32603.
   */
  | "message-too-large"
  /** JSON, but not a JSON-RPC message: answered -32600 unless it looks like a response. */
  | "invalid-message"
  /** A request id that is still in flight was reused: answered -32600. */
  | "duplicate-id"
  /** A response whose id matches no pending request: dropped. */
  | "unknown-response-id"
  /**
   * An error answer with id null or none: the peer could not tell which message it answers
   * (some agents answer notifications this way). Logged at debug level, dropped.
   */
  | "unattributed-error"
  /** A response to a request this side already cancelled (or to a turn it abandoned): dropped. */
  | "late-response"
  /** A method this side does not serve or implement: answered -32601 (requests) or dropped. */
  | "unknown-method"
  /** Params that fail the schema: answered -32602 (requests) or dropped (notifications). */
  | "invalid-params"
  /**
   * Params holding a variant this package does not know (the event's message names its
   * kind): delivered (`unknownVariants: "keep"`, debug level) or, with `"reject"`, dropped
   * (notifications) or answered -32602 (requests).
   */
  | "unknown-variant"
  /** A result that fails the schema: ours is replaced by -32603, the peer's rejects the call. */
  | "invalid-result"
  /** A handler threw something other than a `RequestError`: answered -32603, or logged. */
  | "handler-error"
  /** An outgoing message could not be serialised. */
  | "encode-error"
  /** A `$/cancel_request` for no request in flight (it probably finished already): ignored. */
  | "unknown-cancel"
  /** The notification that stops an aborted call (`session/cancel`) could not be sent. */
  | "cancel-failed"
  /** A method or content the peer did not declare, sent anyway (`capabilities: "warn"`). */
  | "capability-not-declared"
  /** A call sent before `initialize` completed (`capabilities: "warn"`). */
  | "not-initialized"
  /** An incoming call of a method this side did not declare: answered -32601, or dropped. */
  | "undeclared-method"
  /**
   * This side declared a capability without the handler it promises (an error, at
   * `initialize`; its result is sent all the same), or serves a handler whose capability it
   * did not declare (debug: calls of it are refused).
   */
  | "capability-without-handler"
  /** The agent answered `initialize` with a protocol version this connection does not speak. */
  | "protocol-version"
  /**
   * Sessions (`conn.session()`): a cancelled turn the agent did not end within
   * `cancelGraceMs`, settled without its answer (a `TurnAbandonedError`).
   */
  | "turn-abandoned"
  /** Sessions: an update that arrived after its turn was abandoned, given to no turn (debug). */
  | "late-update"
  /** Sessions: an update for an entity the session never saw created, which changed nothing (debug). */
  | "unknown-entity"
  /** Sessions: the agent named a session that is already open; the earlier `Session` is detached. */
  | "session-reopened";

export interface LogEvent {
  readonly level: "debug" | "warn" | "error";
  readonly reason: LogReason;
  readonly message: string;
  readonly method?: string;
  readonly id?: JsonRpcId;
  readonly issues?: readonly ValidationIssue[];
  readonly error?: unknown;
}

/** Second argument of every request handler. */
export interface RequestContext {
  readonly method: string;
  readonly requestId: JsonRpcId;
  /**
   * Aborts when the peer sends `$/cancel_request` for this request, or the connection
   * closes. A handler that then throws (anything) is answered -32800; one that returns
   * still has its result sent.
   *
   * Not when a request is stopped by a notification of its own: a client stops a prompt turn
   * with `session/cancel`, which reaches the agent's `sessionCancel` handler and aborts no
   * signal. An agent keeps track of its running turns and ends the one cancelled, answering
   * its `sessionPrompt` with `stopReason: "cancelled"` (not an error), after its last updates.
   */
  readonly signal: PlatformAbortSignal;
}

/** Second argument of every notification handler. */
export interface NotificationContext {
  readonly method: string;
  /** Aborts when the connection closes. */
  readonly signal: PlatformAbortSignal;
}

export interface CallOptions {
  /**
   * Abort to stop the request. For most requests the call rejects at once with a -32800
   * `RequestError`, the peer is sent `$/cancel_request` (when the surface has it), and its
   * late answer is dropped. For a request the protocol stops with a notification
   * (`session/prompt`), that notification is sent instead (`session/cancel` for the
   * prompt's session) and the call resolves with the peer's answer, which ACP requires to
   * be `stopReason: "cancelled"`: the turn ends when the agent says so, after its last
   * updates. (Real agents ignore `$/cancel_request` but honour `session/cancel`.)
   */
  readonly signal?: SignalLike | undefined;
}

export type MaybePromise<T> = T | Promise<T>;

/** Handlers for methods outside the schema: ACP reserves names starting with `_` for them. */
export interface ExtensionHandlers {
  extMethod?(method: string, params: unknown, context: RequestContext): MaybePromise<unknown>;
  extNotification?(
    method: string,
    params: unknown,
    context: NotificationContext,
  ): MaybePromise<void>;
}

/** Options of `Session.prompt`. */
export interface PromptOptions {
  /** Aborting it cancels the turn, as `turn.cancel()` does. */
  readonly signal?: SignalLike | undefined;
}

/** Options of `Session.updates`. */
export interface UpdatesOptions {
  /** Aborting it ends the iteration. */
  readonly signal?: SignalLike | undefined;
}

/** What patches leave stored: the fields as received, `null` never kept (sessions' state). */
export type Settled<V> = V extends unknown ? { [K in keyof V]: Exclude<V[K], null> } : never;

/** `P` without its `K` members, for each member of a union: a session call's params without the session's id. */
export type Without<P, K extends PropertyKey> = P extends unknown ? Omit<P, K> : never;

/**
 * One prompt turn (`session.prompt()`): a promise of its answer, settled when the turn has
 * ended, and an async iterable of its own updates, only its session's, only between the
 * prompt and its end. The updates are held until read, and read once, like a stream's; the
 * iteration ends when the turn settles, by throwing why when it failed. A turn cancelled
 * (`cancel()`, or the prompt's signal) is stopped for sure: the cancel notification, then at
 * most the connection's `cancelGraceMs` for the agent to end it; when the agent does not, it
 * rejects with a `TurnAbandonedError`, and what the agent still sends for it is dropped
 * (logged) rather than given to a later turn. Each surface's `Turn` fills in the types.
 */
export interface TurnOf<Answer, Update, StopReason, SessionId>
  extends PromiseLike<Answer>,
    AsyncIterable<Update> {
  readonly sessionId: SessionId;
  /** Why the turn stopped, once it has, as the agent reported it. */
  readonly stopReason: StopReason | undefined;
  /** The text of the agent's messages in this turn, once it has ended. */
  text(): Promise<string>;
  /** Cancels the turn for sure. Sends nothing once the turn has settled, or before it was sent. */
  cancel(): void;
}

/**
 * A session opened by `conn.session()` (or loaded, or resumed). Its updates go, in this
 * order: to `history` until the opening call has answered; to the running turn; dropped
 * (logged) while they can only be an abandoned turn's late output; otherwise to its
 * `updates()` readers. All of them apply to `state`; the connection's own update handler
 * still sees every one. Each surface's `Session` fills in the types and adds its calls, and
 * `Symbol.asyncDispose` (closing it) where the consumer's set-up declares the symbol.
 */
export interface SessionOf<SessionId, Opened, State, Update, Input, Turn> {
  readonly sessionId: SessionId;
  /** What the opening call answered. */
  readonly response: Opened;
  /** Kept by the protocol's rules from every update of the session (see `SessionState`). */
  readonly state: State;
  /** The updates that arrived before the opening call answered: a load's replayed history. */
  readonly history: readonly Update[];
  /**
   * Sends a prompt (a string is one text block, where the surface has them). One turn runs
   * at a time: a prompt sent while another turn runs goes out once that one settled.
   */
  prompt(input: Input, options?: PromptOptions): Turn;
  /** This session's updates that belong to no turn, from now on, until it closes or `signal` aborts. */
  updates(options?: UpdatesOptions): AsyncIterableIterator<Update>;
  /**
   * Closes the session: the agent's close call where it serves it, else the running turn is
   * cancelled; waits for the running turn to settle, and stops routing. Idempotent.
   */
  close(): Promise<void>;
}
