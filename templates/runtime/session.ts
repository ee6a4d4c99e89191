import type {
  CallOptions,
  ConnectionOptions,
  LogEvent,
  MethodTables,
  PromptOptions,
  UpdatesOptions,
} from "./connection-types.js";
import { Fifo } from "./fifo.js";
import { defaultLog } from "./incoming.js";
import type { MessageStream } from "./message-stream.js";
import {
  ConnectionClosedError,
  RequestError,
  TurnAbandonedError,
  wireErrors,
} from "./request-error.js";
import { at, type SessionSpec, SessionState } from "./session-state.js";
import { SideConnection } from "./side-connection.js";
import { startTimer } from "./web-globals.js";
import type { PlatformAbortSignal } from "./web-types.js";

/**
 * The client's sessions, above the connection: `conn.session(params)` opens one, and each
 * `Session` routes the `session/update`s of its own id to its state, to the turn running in
 * it, or to whoever reads the updates outside turns. A `Turn` is one prompt: a promise of
 * its answer and an async iterable of its updates, which `cancel()` ends for sure, whatever
 * the agent does. What the state rules are and how a turn ends come from the schema, as
 * each surface's {@link SessionSpec}.
 */

/** How long a cancelled turn waits for the agent's answer before it settles without it. */
const DEFAULT_CANCEL_GRACE_MS = 3000;

/** How many updates for a session not opened yet are held while `session/new` is in flight. */
const EARLY_UPDATES = 1024;

/** What the sessions send through: the connection's public calls. */
interface Caller {
  request(method: string, params?: unknown, options?: CallOptions): Promise<unknown>;
  notify(method: string, params?: unknown): Promise<void>;
  readonly signal: PlatformAbortSignal;
}

type Log = (event: LogEvent) => void;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

/** A promise nobody has to handle: its rejection surfaces only where someone awaits it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * The connection's sessions: it serves the handlers through {@link SessionRouter.serve}, which
 * sees every update notification before the application's handler does.
 */
export class SessionRouter {
  private caller: Caller | undefined;
  private readonly sessions = new Map<unknown, SessionImpl>();
  /** `session/new` calls in flight: updates for ids no session has yet are held meanwhile. */
  private opening = 0;
  private readonly early: Array<{ readonly id: unknown; readonly update: unknown }> = [];
  readonly graceMs: number;
  readonly log: Log;

  constructor(
    readonly spec: SessionSpec,
    options: ConnectionOptions = {},
  ) {
    const grace = options.cancelGraceMs;
    this.graceMs =
      typeof grace === "number" && grace >= 0 && Number.isFinite(grace)
        ? grace
        : DEFAULT_CANCEL_GRACE_MS;
    this.log = options.log ?? defaultLog;
  }

  /**
   * The handler object as the connection serves it: the application's own, with the update
   * notification's handler routing each update to its session first, then calling the
   * application's (with its own object as `this`). Every other member is the application's.
   */
  serve(caller: Caller, handlers: object): object {
    this.caller = caller;
    caller.signal.addEventListener("abort", () => this.closedAll(caller.signal.reason), {
      once: true,
    });
    const name = this.spec.update.handler;
    const route = (params: unknown) => this.route(params);
    function routed(params: unknown, context: unknown): unknown {
      route(params);
      const own = Reflect.get(handlers, name) as unknown;
      return typeof own === "function" ? own.call(handlers, params, context) : undefined;
    }
    return new Proxy(handlers, {
      get: (target, key) => (key === name ? routed : Reflect.get(target, key)),
      has: (target, key) => key === name || Reflect.has(target, key),
    });
  }

  /** Opens a session with one of the spec's opening calls. */
  async open(
    how: "new" | "load" | "resume",
    params: unknown,
    options?: CallOptions,
  ): Promise<SessionImpl> {
    const caller = this.caller;
    if (!caller) throw new Error("internal error: the sessions are not served yet");
    const calls = this.spec.calls;
    if (how === "new") {
      const call = calls.new;
      if (!call) throw new TypeError("this protocol surface has no call that opens a session");
      this.opening++;
      let result: unknown;
      try {
        result = await caller.request(call.method, params, options);
      } finally {
        this.opening--;
      }
      const id = record(result)[call.sessionId];
      const session = new SessionImpl(this, caller, id, call.method);
      this.register(session);
      for (const held of this.early.filter((e) => e.id === id)) session.receive(held.update);
      if (this.opening === 0) this.early.length = 0;
      session.opened(params, result);
      return session;
    }
    const method = calls[how];
    if (!method) throw new TypeError(`this protocol surface has no ${how} call for sessions`);
    const id = record(params)[this.spec.update.sessionId];
    const session = new SessionImpl(this, caller, id, method);
    this.register(session);
    let result: unknown;
    try {
      result = await caller.request(method, params, options);
    } catch (error) {
      this.forget(session);
      throw error;
    }
    session.opened(params, result);
    return session;
  }

  /** Stops routing to a session (closed, or its open failed). */
  forget(session: SessionImpl): void {
    if (this.sessions.get(session.sessionId) === session) this.sessions.delete(session.sessionId);
  }

  private register(session: SessionImpl): void {
    const before = this.sessions.get(session.sessionId);
    if (before) {
      this.log({
        level: "warn",
        reason: "session-reopened",
        message: `session ${String(session.sessionId)} was opened again: its earlier Session gets no more updates`,
      });
      before.detach();
    }
    this.sessions.set(session.sessionId, session);
  }

  /** One update notification's params, as the connection read them. */
  private route(params: unknown): void {
    if (this.sessions.size === 0 && this.opening === 0) return;
    const fields = record(params);
    const id = fields[this.spec.update.sessionId];
    const update = fields[this.spec.update.field];
    const session = this.sessions.get(id);
    if (session) {
      session.receive(update);
      return;
    }
    if (this.opening === 0) return;
    if (this.early.length === EARLY_UPDATES) this.early.shift();
    this.early.push({ id, update });
  }

  private closedAll(reason: unknown): void {
    const error =
      reason instanceof ConnectionClosedError ? reason : new ConnectionClosedError(reason);
    for (const session of [...this.sessions.values()]) session.connectionClosed(error);
    this.sessions.clear();
    this.early.length = 0;
  }
}

/**
 * One session, as `conn.session()`, `conn.loadSession()` or `conn.resumeSession()` resolve
 * with it. Its updates go, in this order of precedence: to `history` while the opening call
 * has not answered; to the running turn; dropped (logged) while they can only belong to a
 * turn abandoned since; otherwise to every `updates()` reader. All of them apply to `state`.
 */
export class SessionImpl {
  readonly history: unknown[] = [];
  private readonly store: SessionState;
  private answer: unknown;
  private opening = true;
  private current: TurnImpl | undefined;
  /** The last turn prompted: the next waits for it to settle. */
  private tail: TurnImpl | undefined;
  /** A turn abandoned since the last prompt went out: what arrives now is its late output. */
  private abandoned: TurnImpl | undefined;
  private readonly readers = new Set<UpdateQueue>();
  private closing: Promise<void> | undefined;
  private detached = false;

  constructor(
    private readonly router: SessionRouter,
    private readonly caller: Caller,
    readonly sessionId: unknown,
    private readonly openedBy: string,
  ) {
    this.store = new SessionState(router.spec);
    const dispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
    if (typeof dispose === "symbol")
      Object.defineProperty(this, dispose, { value: () => this.close() });
  }

  /** What the opening call answered. */
  get response(): unknown {
    return this.answer;
  }

  get state(): Record<string, unknown> {
    return this.store.view;
  }

  /** @internal The opening call answered: later updates are live. */
  opened(params: unknown, result: unknown): void {
    this.answer = result;
    this.opening = false;
    this.store.applyCall(this.openedBy, params, result);
    this.store.boundary();
  }

  /** @internal One update of this session. */
  receive(update: unknown): void {
    const fields = record(update);
    const applied = this.store.apply(fields);
    if (applied === "unknown-entity") {
      this.router.log({
        level: "debug",
        reason: "unknown-entity",
        message: `session ${String(this.sessionId)}: a ${String(fields[this.router.spec.update.tag])} for an entity it never created changed nothing`,
      });
    }
    if (this.opening) {
      this.history.push(update);
      return;
    }
    const turn = this.current;
    if (turn) {
      turn.receive(fields, typeof applied === "object" ? applied : undefined);
      return;
    }
    if (this.abandoned) {
      this.router.log({
        level: "debug",
        reason: "late-update",
        message: `session ${String(this.sessionId)}: dropped a ${String(fields[this.router.spec.update.tag])} that arrived after its turn was abandoned`,
      });
      return;
    }
    for (const reader of this.readers) reader.push(update);
  }

  prompt(input: unknown, options: PromptOptions = {}): TurnImpl {
    const turn = new TurnImpl(this.router.spec, this.sessionId, () => this.cancel(turn));
    const spec = this.router.spec;
    let blocks: unknown;
    try {
      blocks = this.blocksOf(input);
    } catch (error) {
      turn.settle({ error });
      return turn;
    }
    if (this.closing || this.detached) {
      turn.settle({ error: new Error(`session ${String(this.sessionId)} is closed`) });
      return turn;
    }
    const signal = options.signal;
    if (signal?.aborted) {
      turn.settle({ error: wireErrors.requestCancelled(undefined, "aborted before it was sent") });
      return turn;
    }
    if (signal) {
      const onAbort = () => turn.cancel();
      signal.addEventListener("abort", onAbort, { once: true });
      turn.onSettled(() => signal.removeEventListener("abort", onAbort));
    }
    const params = { [spec.update.sessionId]: this.sessionId, [spec.prompt.field]: blocks };
    const previous = this.tail;
    this.tail = turn;
    if (previous && !previous.isSettled) previous.onSettled(() => this.start(turn, params));
    else this.start(turn, params);
    return turn;
  }

  setMode(params: unknown, options?: CallOptions): Promise<unknown> {
    return this.call(this.router.spec.calls.setMode, "setMode", params, options);
  }

  setConfigOption(params: unknown, options?: CallOptions): Promise<unknown> {
    return this.call(this.router.spec.calls.setConfigOption, "setConfigOption", params, options);
  }

  /**
   * This session's updates that belong to no turn, from now on, until the session closes or
   * `signal` aborts (or the loop breaks). Each call is a reader of its own.
   */
  updates(options: UpdatesOptions = {}): AsyncIterableIterator<unknown> {
    const reader: UpdateQueue = new UpdateQueue(() => this.readers.delete(reader));
    if (this.closing || this.detached) reader.end();
    else this.readers.add(reader);
    const signal = options.signal;
    if (signal?.aborted) reader.end();
    else signal?.addEventListener("abort", () => reader.end(), { once: true });
    return reader;
  }

  /**
   * Closes the session: the agent's close call where it serves one (else the running turn is
   * cancelled), then waits for the running turn to settle (at most the cancel grace after),
   * and stops routing. Idempotent; never rejects for a session the agent no longer knows.
   */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    const spec = this.router.spec;
    const turn = this.current;
    const method = spec.calls.close;
    let closed = false;
    if (method && !this.detached) {
      try {
        await this.caller.request(method, { [spec.update.sessionId]: this.sessionId });
        closed = true;
      } catch (error) {
        // Not served (-32601, also when the agent did not declare it), already gone
        // (-32002: ACP asks clients to treat it as closed), or the connection is down.
        const done =
          error instanceof ConnectionClosedError ||
          (error instanceof RequestError && (error.code === -32601 || error.code === -32002));
        if (!done) throw error;
      }
    }
    if (turn && !turn.isSettled) {
      // Closing cancels the running turn: its end (or the grace) settles it.
      this.cancel(turn, !closed);
      await turn.settledPromise;
    }
    const queued = this.tail;
    if (queued && !queued.isSettled)
      queued.settle({ error: new Error(`session ${String(this.sessionId)} was closed`) });
    this.detach();
  }

  /** @internal Stops routing: updates end, readers end. */
  detach(): void {
    this.detached = true;
    this.router.forget(this);
    for (const reader of this.readers) reader.end();
    this.readers.clear();
  }

  /** @internal The connection closed: every turn fails with its reason. */
  connectionClosed(error: ConnectionClosedError): void {
    for (const turn of [this.current, this.tail])
      if (turn && !turn.isSettled) turn.settle({ error });
    this.detach();
  }

  private start(turn: TurnImpl, params: Record<string, unknown>): void {
    if (turn.isSettled) return;
    if (this.detached) {
      turn.settle({ error: new Error(`session ${String(this.sessionId)} was closed`) });
      return;
    }
    const spec = this.router.spec;
    this.current = turn;
    this.abandoned = undefined;
    this.store.boundary();
    turn.started();
    turn.onSettled(() => {
      if (this.current === turn) this.current = undefined;
      this.store.boundary();
    });
    this.caller.request(spec.calls.prompt, params).then(
      (result) => {
        if (turn.isSettled) {
          this.late(turn, "the answer");
          return;
        }
        this.store.applyCall(spec.calls.prompt, params, result);
        turn.answered(result);
      },
      (error: unknown) => {
        if (!turn.isSettled) turn.settle({ error });
        else if (!(error instanceof ConnectionClosedError)) this.late(turn, "the error answer");
      },
    );
  }

  private late(turn: TurnImpl, what: string): void {
    if (this.abandoned === turn) this.abandoned = undefined;
    if (!turn.wasAbandoned) return;
    this.router.log({
      level: "debug",
      reason: "late-response",
      message: `session ${String(this.sessionId)}: dropped ${what} to a turn abandoned after ${this.router.graceMs} ms`,
    });
  }

  /**
   * Cancels `turn`: one not sent yet settles at once; the running one gets the cancel
   * notification (`notify`) and then at most the grace to end, or it is abandoned. A turn
   * that settled sends nothing, ever: a cancel never reaches a later turn.
   */
  private cancel(turn: TurnImpl, notify = true): void {
    if (turn.isSettled || turn.isCancelling) return;
    if (!turn.isStarted) {
      turn.settle({
        error: wireErrors.requestCancelled(undefined, "cancelled before it was sent"),
      });
      return;
    }
    turn.cancelling();
    const spec = this.router.spec;
    const method = spec.calls.cancel;
    if (notify)
      this.caller.notify(method, { [spec.update.sessionId]: this.sessionId }).catch((error) => {
        this.router.log({
          level: "warn",
          reason: "cancel-failed",
          message: `could not send ${method}: ${error instanceof Error ? error.message : String(error)}`,
          method,
          error,
        });
      });
    const grace = this.router.graceMs;
    // Kept alive: whoever awaits the turn is owed its settling, even on a quiet process.
    const timer = startTimer(
      grace,
      () => {
        if (turn.isSettled) return;
        this.router.log({
          level: "warn",
          reason: "turn-abandoned",
          message: `session ${String(this.sessionId)}: the agent did not end the cancelled turn within ${grace} ms; it settled without the agent's answer`,
          method,
        });
        this.abandoned = turn;
        turn.abandon(new TurnAbandonedError(this.sessionId, grace, method));
      },
      true,
    );
    turn.onSettled(() => timer.cancel());
  }

  private call(
    method: string | undefined,
    member: string,
    params: unknown,
    options?: CallOptions,
  ): Promise<unknown> {
    if (!method)
      return Promise.reject(new TypeError(`this protocol surface has no ${member} call`));
    const full = { ...record(params), [this.router.spec.update.sessionId]: this.sessionId };
    return this.caller.request(method, full, options).then((result) => {
      this.store.applyCall(method, full, result);
      return result;
    });
  }

  /** A prompt's content: a string is one text block, one block a list of one. */
  private blocksOf(input: unknown): unknown[] {
    if (Array.isArray(input)) return input;
    if (typeof input === "string") {
      const text = this.router.spec.prompt.text;
      if (!text) throw new TypeError("this protocol surface has no plain-text content block");
      return [{ [text.tag]: text.value, [text.field]: input }];
    }
    return [input];
  }
}

type Outcome = { readonly value: unknown } | { readonly error: unknown };

/**
 * One prompt turn: a promise of the prompt's answer (v2: of the receipt, once the turn has
 * ended) and an async iterable of the turn's own updates, in arrival order, held until read
 * (so reading after the turn ended still gets them all). They can be read once, like a
 * stream's: the iteration ends when the turn settles, by throwing when the turn failed.
 */
export class TurnImpl {
  private readonly queue = new UpdateQueue();
  private iterated = false;
  private outcome: Outcome | undefined;
  private readonly settledCallbacks: Array<() => void> = [];
  private readonly done: Promise<unknown>;
  private resolveDone: (value: unknown) => void = () => {};
  private rejectDone: (error: unknown) => void = () => {};
  private phase: "queued" | "running" | "cancelling" = "queued";
  private abandonedBy: TurnAbandonedError | undefined;
  /** v2: the prompt's receipt, and what the state updates said since the prompt went out. */
  private receipt: { readonly value: unknown } | undefined;
  private active = false;
  private idled = false;
  private stop: unknown;
  /** The agent's messages this turn added to or changed, in order: what `text()` reads. */
  private readonly spoken = new Set<Record<string, unknown>>();
  /** Resolves once settled, whichever way; never rejects. */
  readonly settledPromise: Promise<void>;

  constructor(
    private readonly spec: SessionSpec,
    readonly sessionId: unknown,
    private readonly cancelTurn: () => void,
  ) {
    this.done = quiet(
      new Promise((resolve, reject) => {
        this.resolveDone = resolve;
        this.rejectDone = reject;
      }),
    );
    this.settledPromise = new Promise((resolve) => this.onSettled(resolve));
  }

  /** Why the turn stopped, once it has: the answer's stop reason (v2: the idle state update's). */
  get stopReason(): unknown {
    return this.stop;
  }

  get isSettled(): boolean {
    return this.outcome !== undefined;
  }

  get isStarted(): boolean {
    return this.phase !== "queued";
  }

  get isCancelling(): boolean {
    return this.phase === "cancelling";
  }

  get wasAbandoned(): boolean {
    return this.abandonedBy !== undefined;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Turn is a PromiseLike of the prompt's answer.
  then<A = unknown, B = never>(
    onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null,
    onRejected?: ((error: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.done.then(onFulfilled, onRejected);
  }

  /** Stops the turn for sure (see `Session`): `session/cancel`, then at most the grace. */
  cancel(): void {
    this.cancelTurn();
  }

  /** The text of the agent's messages in this turn, once it has ended. */
  async text(): Promise<string> {
    await this.done;
    const text = this.spec.prompt.text;
    const field = agentContentField(this.spec);
    if (!text || field === undefined) return "";
    let out = "";
    for (const message of this.spoken) {
      const content = message[field];
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        const fields = record(block);
        if (fields[text.tag] === text.value && typeof fields[text.field] === "string")
          out += fields[text.field] as string;
      }
    }
    return out;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    if (this.iterated) throw new TypeError("a turn's updates can be read once");
    this.iterated = true;
    return this.queue;
  }

  /** @internal */
  onSettled(callback: () => void): void {
    if (this.outcome) callback();
    else this.settledCallbacks.push(callback);
  }

  /** @internal The prompt went out. */
  started(): void {
    this.phase = "running";
  }

  /** @internal */
  cancelling(): void {
    this.phase = "cancelling";
  }

  /** @internal An update of this turn, and the entity it made or changed in the state. */
  receive(update: Record<string, unknown>, entity: Record<string, unknown> | undefined): void {
    this.queue.push(update);
    const spec = this.spec;
    if (entity !== undefined && spec.agentText && entity[spec.update.tag] === spec.agentText.kind)
      this.spoken.add(entity);
    const turn = spec.turn;
    if (turn.end === "state" && update[spec.update.tag] === turn.kind) {
      if (update[turn.field] !== turn.idle) this.active = true;
      else if (this.active || this.receipt) {
        // An idle snapshot before any activity and before the receipt is the state the
        // prompt found, not its end.
        this.stop = turn.stopReason === undefined ? undefined : update[turn.stopReason];
        this.idled = true;
        if (this.receipt) this.settle(this.receipt);
      }
    }
  }

  /** @internal The prompt's answer. */
  answered(result: unknown): void {
    const turn = this.spec.turn;
    if (turn.end === "response") {
      this.stop = turn.stopReason === undefined ? undefined : at(result, [turn.stopReason]);
      this.settle({ value: result });
      return;
    }
    this.receipt = { value: result };
    if (this.idled) this.settle(this.receipt);
  }

  /** @internal Settled without the agent's answer. */
  abandon(error: TurnAbandonedError): void {
    this.abandonedBy = error;
    this.settle({ error });
  }

  /** @internal */
  settle(outcome: Outcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    if ("error" in outcome) {
      this.rejectDone(outcome.error);
      this.queue.end(outcome.error);
    } else {
      this.resolveDone(outcome.value);
      this.queue.end();
    }
    for (const callback of this.settledCallbacks.splice(0)) callback();
  }
}

/** The list the agent-message kind's chunks append to (`content`). */
function agentContentField(spec: SessionSpec): string | undefined {
  const agent = spec.agentText;
  if (!agent) return undefined;
  for (const rule of Object.values(spec.rules))
    if (rule.op === "push" && rule.slot === agent.slot && rule.kind === agent.kind) return rule.to;
  return undefined;
}

/**
 * Updates on their way to one reader: held until read, then let go (a long turn keeps no
 * backlog once read); `end` lets the reader finish what is held, then ends it, by throwing
 * `error` when there is one.
 */
class UpdateQueue implements AsyncIterableIterator<unknown> {
  private readonly held = new Fifo<unknown>();
  private ended: { readonly error?: unknown } | undefined;
  private waiting:
    | { resolve(result: IteratorResult<unknown>): void; reject(error: unknown): void }
    | undefined;

  constructor(private readonly onEnd: () => void = () => {}) {}

  push(update: unknown): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: update });
    } else this.held.push(update);
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = error === undefined ? {} : { error };
    this.onEnd();
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting) return;
    if (error === undefined) waiting.resolve({ done: true, value: undefined });
    else waiting.reject(error);
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.held.length > 0) return Promise.resolve({ done: false, value: this.held.shift() });
    const ended = this.ended;
    if (ended) {
      if ("error" in ended) {
        // Thrown once: after it the iteration is over.
        this.ended = {};
        return Promise.reject(ended.error);
      }
      return Promise.resolve({ done: true, value: undefined });
    }
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<unknown>> {
    this.held.clear();
    this.end();
    this.ended = {};
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<unknown> {
    return this;
  }
}

/**
 * A client's end of a connection that keeps sessions: the generated `ClientSideConnection`
 * of a surface whose schema has them extends this with its tables and {@link SessionSpec}.
 */
export class SessionConnection<PeerRequests, PeerNotifications> extends SideConnection<
  PeerRequests,
  PeerNotifications
> {
  private readonly sessions: SessionRouter;

  constructor(
    tables: MethodTables,
    spec: SessionSpec,
    toHandlers: (connection: SideConnection<PeerRequests, PeerNotifications>) => object,
    stream: MessageStream,
    options?: ConnectionOptions,
  ) {
    const router = new SessionRouter(spec, options);
    super(
      tables,
      (connection) => router.serve(connection, toHandlers(connection)),
      stream,
      options,
    );
    this.sessions = router;
  }

  /** Sends the opening call (`session/new`) and resolves with the session it opened. */
  session(params: unknown, options?: CallOptions): Promise<SessionImpl> {
    return this.sessions.open("new", params, options);
  }

  /** Loads a session: its replayed history is in `history`, never in a turn. */
  loadSession(params: unknown, options?: CallOptions): Promise<SessionImpl> {
    return this.sessions.open("load", params, options);
  }

  /** Resumes a session: what it replays is in `history`, never in a turn. */
  resumeSession(params: unknown, options?: CallOptions): Promise<SessionImpl> {
    return this.sessions.open("resume", params, options);
  }
}
