/**
 * One client's connection on the remote server: the message stream its agent reads and
 * writes (handed to `connect`), and where the agent's output waits for the client. Over
 * HTTP that is one queue per event stream (the connection's, and one per session); over a
 * WebSocket it is the socket's own send buffer.
 *
 * Every queue has a limit (`maxBufferedBytes`). Past it the agent's writes wait
 * (backpressure: an agent that awaits its sends slows down to its client's pace), and a
 * client that reads nothing for `maxOutputStallMs` while it is full, or lets twice the
 * limit pile up, is dropped with a log line. Memory per connection stays bounded whatever
 * the client does.
 */
import { Fifo } from "./fifo.js";
import type { JsonRpcBatch, JsonRpcMessage } from "./json-rpc.js";
import {
  MessageEncodingError,
  type MessageStream,
  MessageTooLargeError,
} from "./message-stream.js";
import {
  CONNECTION_STREAM_RESPONSES,
  idKey,
  RemoteClosedError,
  sessionOfParams,
  sessionOfResult,
} from "./remote-wire.js";
import { ConnectionClosedError } from "./request-error.js";
import { type AbortControllerLike, newAbortController, startTimer } from "./web-globals.js";
import type {
  PlatformAbortSignal,
  StreamReader,
  StreamReadResult,
  StreamWriter,
  WebSocketLike,
} from "./web-types.js";

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

export type ResolvedLimits = { readonly [K in keyof RemoteLimits]-?: number };

export const DEFAULT_REMOTE_LIMITS: ResolvedLimits = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxConnections: 1024,
  maxSessionsPerConnection: 64,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxOutputStallMs: 30_000,
  idleTimeoutMs: 30_000,
  initializeTimeoutMs: 30_000,
  maxIdLength: 1024,
};

export function resolveLimits(limits: RemoteLimits): ResolvedLimits {
  const resolved = { ...DEFAULT_REMOTE_LIMITS };
  for (const key of Object.keys(DEFAULT_REMOTE_LIMITS) as Array<keyof ResolvedLimits>) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0 || value > 2 ** 31 - 1)
      throw new RangeError(`AcpServer: ${key} must be a positive integer below 2^31, not ${value}`);
    resolved[key] = value;
  }
  return resolved;
}

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
export class Outbox {
  private queue = new Fifo<Queued>();
  private seq = 0;
  private sent: Queued[] = [];
  private sentHead = 0;
  private sentBytes = 0;
  /** Length of the queued JSON texts. */
  bytes = 0;
  /** No more output will come: an attached body ends once it has sent what is queued. */
  finished = false;
  /** The attached response body, by identity; a new GET takes the stream over. */
  receiver: object | undefined;
  private waiters = new Set<() => void>();
  /** Called whenever the client takes output (for the stall clock and waiting writers). */
  onTake: () => void = () => {};

  constructor(private readonly replayBytes: number) {}

  push(json: string): void {
    this.queue.push({ seq: ++this.seq, json });
    this.bytes += json.length;
    this.notify();
  }

  /** Queued messages, oldest first, up to about `budget` in length (at least one). */
  take(budget: number): Queued[] {
    const taken: Queued[] = [];
    let length = 0;
    while (this.queue.length > 0 && (taken.length === 0 || length < budget)) {
      const item = this.queue.shift() as Queued;
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

  private remember(item: Queued): void {
    this.sent.push(item);
    this.sentBytes += item.json.length;
    while (this.sentBytes > this.replayBytes && this.sentHead < this.sent.length) {
      this.sentBytes -= (this.sent[this.sentHead] as Queued).json.length;
      this.sent[this.sentHead++] = undefined as never;
    }
    // Drop the forgotten prefix once it is most of the array.
    if (this.sentHead > 1024 && this.sentHead * 2 > this.sent.length) {
      this.sent = this.sent.slice(this.sentHead);
      this.sentHead = 0;
    }
  }

  /**
   * A client reconnecting after event `last`: what was sent after it goes out again, before
   * what is queued. An id this stream never gave is ignored.
   */
  resume(last: number): void {
    if (!Number.isSafeInteger(last) || last < 0 || last >= this.seq) return;
    const kept = this.sent.slice(this.sentHead);
    const again = kept.filter((item) => item.seq > last);
    if (again.length === 0) return;
    this.sent = kept.filter((item) => item.seq <= last);
    this.sentHead = 0;
    this.sentBytes = this.sent.reduce((sum, item) => sum + item.json.length, 0);
    const queue = new Fifo<Queued>();
    for (const item of again) {
      queue.push(item);
      this.bytes += item.json.length;
    }
    for (let item = this.queue.shift(); item; item = this.queue.shift()) queue.push(item);
    this.queue = queue;
  }

  get empty(): boolean {
    return this.queue.length === 0;
  }

  /** Resolves on the next push, finish or takeover, or after `ms` with false. */
  next(ms: number): Promise<boolean> {
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

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  finish(): void {
    this.finished = true;
    this.notify();
  }

  clear(): void {
    this.queue.clear();
    this.bytes = 0;
    this.sent = [];
    this.sentHead = 0;
    this.sentBytes = 0;
  }
}

/** How often a WebSocket's send buffer is looked at while it is over the limit (ms). */
const SOCKET_POLL_MIN = 5;
const SOCKET_POLL_MAX = 200;

interface Input {
  readonly value: unknown;
  readonly size: number;
}

export interface ConnectionHooks {
  /** The connection ended: the server forgets it. */
  closed(connection: RemoteConnection): void;
  log(line: string): void;
}

/** The connection's id, shortened for a log line: enough to grep, too little to use. */
export const shortId = (id: string): string => `${id.slice(0, 8)}…`;

export class RemoteConnection {
  readonly info: RemoteConnectionInfo;
  private readonly lifetime: AbortControllerLike = newAbortController();
  private isClosed = false;
  // What the client sent, waiting for the agent to read it.
  private readonly input = new Fifo<Input>();
  private inputBytes = 0;
  private inputEnded = false;
  private wakeReader: (() => void) | undefined;
  private readonly inputRoom = new Set<() => void>();
  // The agent's writes waiting for room, woken as the client reads or the connection ends.
  private readonly outputRoom = new Set<() => void>();
  /** HTTP: the connection's event stream, and one per session. */
  readonly outbox: Outbox;
  readonly sessions = new Map<string, Outbox>();
  /** HTTP: the session (or null: the connection's stream) each pending client request is answered on. */
  private readonly routes = new Map<string, string | null>();
  /** HTTP: streams attached and requests in flight; at zero the idle clock runs. */
  private activity = 0;
  private idle: { cancel(): void } | undefined;
  private stall: { cancel(): void } | undefined;
  /** HTTP `initialize`: the POST waiting for the agent's answer. */
  private initializing: { key: string; resolve(json: string): void } | undefined;
  private socket: WebSocketLike | undefined;
  /** WebSocket: the sessions its agent opened (an HTTP connection counts its session streams). */
  private readonly socketSessions = new Set<string>();
  readonly stream: MessageStream;

  constructor(
    readonly id: string,
    readonly transport: "http" | "websocket",
    readonly principal: string | undefined,
    private readonly limits: ResolvedLimits,
    private readonly hooks: ConnectionHooks,
  ) {
    this.info = {
      connectionId: id,
      transport,
      ...(principal === undefined ? {} : { principal }),
      signal: this.lifetime.signal,
    };
    this.outbox = new Outbox(limits.maxBufferedBytes);
    this.watch(this.outbox);
    this.stream = {
      readable: { getReader: () => this.reader() },
      writable: { getWriter: () => this.writer() },
    };
    if (transport === "http") this.settle();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get signal(): PlatformAbortSignal {
    return this.lifetime.signal;
  }

  /** WebSocket: the socket the agent's output goes to. */
  attachSocket(socket: WebSocketLike): void {
    this.socket = socket;
  }

  // --- The client's side -------------------------------------------------------------

  /**
   * A message from the client, for the agent. Resolves once the agent has room for more
   * (rejects if the connection ends first): an HTTP POST is answered then.
   */
  deliver(value: unknown, size: number): Promise<void> {
    if (this.isClosed) return Promise.reject(this.closedError());
    this.input.push({ value, size });
    this.inputBytes += size;
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
    if (this.inputBytes <= this.limits.maxBufferedBytes) return Promise.resolve();
    if (this.inputBytes > 2 * this.limits.maxBufferedBytes) {
      this.drop(
        `its client sent ${this.inputBytes} bytes the agent has not read (maxBufferedBytes ${this.limits.maxBufferedBytes})`,
      );
      return Promise.reject(this.closedError());
    }
    return new Promise((resolve, reject) => {
      const onRoom = () => {
        if (this.isClosed) reject(this.closedError());
        else if (this.inputBytes <= this.limits.maxBufferedBytes) {
          this.inputRoom.delete(onRoom);
          resolve();
        }
      };
      this.inputRoom.add(onRoom);
    });
  }

  /** HTTP: the session (or null) a client request's answer goes to; false when its id is in use. */
  expectAnswer(id: unknown, method: string, session: string | undefined): boolean {
    const key = idKey(id);
    if (key === undefined) return true;
    if (this.routes.has(key)) return false;
    this.routes.set(
      key,
      session === undefined || CONNECTION_STREAM_RESPONSES.has(method) ? null : session,
    );
    return true;
  }

  /** HTTP `initialize`: resolves with the agent's answer to request `id` as JSON text. */
  expectInitialize(id: unknown): Promise<string> {
    return new Promise((resolve) => {
      this.initializing = { key: idKey(id) ?? "", resolve };
    });
  }

  /** HTTP: the outbox of a session's stream, made if new; undefined past the session limit. */
  sessionOutbox(session: string): Outbox | undefined {
    const existing = this.sessions.get(session);
    if (existing) return existing;
    if (this.sessions.size >= this.limits.maxSessionsPerConnection) return undefined;
    const outbox = new Outbox(this.limits.maxBufferedBytes);
    this.watch(outbox);
    this.sessions.set(session, outbox);
    return outbox;
  }

  /** Counts a session as used by this connection; false past the limit. */
  private useSession(session: string): boolean {
    if (this.transport === "http") return this.sessionOutbox(session) !== undefined;
    if (this.socketSessions.has(session)) return true;
    if (this.socketSessions.size >= this.limits.maxSessionsPerConnection) return false;
    this.socketSessions.add(session);
    return true;
  }

  /** HTTP: a request (or stream) started; `end` when it is over. Keeps the idle clock stopped. */
  busy(): () => void {
    this.activity++;
    this.idle?.cancel();
    this.idle = undefined;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.activity--;
      this.settle();
    };
  }

  private settle(): void {
    if (this.isClosed || this.activity > 0 || this.idle) return;
    this.idle = startTimer(this.limits.idleTimeoutMs, () => {
      this.idle = undefined;
      if (this.activity === 0)
        this.close(
          new RemoteClosedError(`idle for ${this.limits.idleTimeoutMs} ms (idleTimeoutMs)`),
        );
    });
  }

  // --- The agent's side --------------------------------------------------------------

  private reader(): StreamReader<unknown> {
    return {
      read: async (): Promise<StreamReadResult<unknown>> => {
        for (;;) {
          const next = this.input.shift();
          if (next) {
            this.inputBytes -= next.size;
            for (const onRoom of [...this.inputRoom]) onRoom();
            return { done: false, value: next.value };
          }
          if (this.inputEnded) return { done: true };
          await new Promise<void>((resolve) => {
            this.wakeReader = resolve;
          });
        }
      },
      releaseLock: () => {},
      cancel: async () => {
        // The agent stopped reading: it is done with this client.
        this.close(new RemoteClosedError("the agent stopped reading"));
      },
    };
  }

  private writer(): StreamWriter<JsonRpcMessage | JsonRpcBatch> {
    return {
      write: (message) => this.send(message),
      close: async () => {
        // The agent closed its side: the client gets what is queued, then the end.
        this.finishOutput();
      },
      releaseLock: () => {},
    };
  }

  private send(message: JsonRpcMessage | JsonRpcBatch): Promise<void> {
    if (this.isClosed) return Promise.reject(this.closedError());
    // A batch (v2): a WebSocket carries it whole; over HTTP, whose streams are per session
    // and whose answers go where their requests came from, each message goes its own way.
    if (isBatch(message)) return this.sendBatch(message);
    let json: string | undefined;
    try {
      json = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(new MessageEncodingError(error));
    }
    if (json === undefined) return Promise.reject(new MessageEncodingError(undefined));
    if (json.length > this.limits.maxMessageBytes)
      return Promise.reject(
        new MessageTooLargeError("the agent's message", json.length, this.limits.maxMessageBytes),
      );
    const isAnswer = !("method" in message);
    const key = isAnswer ? idKey(message.id) : undefined;
    if (this.initializing && key === this.initializing.key) {
      const { resolve } = this.initializing;
      this.initializing = undefined;
      resolve(json);
      return Promise.resolve();
    }
    // A session this answer opens counts against the client's limit on either transport.
    const opened = isAnswer ? sessionOfResult(message) : undefined;
    if (opened !== undefined && !this.useSession(opened)) {
      this.drop(
        `its client opened more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`,
      );
      return Promise.reject(this.closedError());
    }
    if (this.socket) return this.sendOnSocket(this.socket, json);
    let outbox = this.outbox;
    let session: string | null | undefined;
    if (key !== undefined) {
      session = this.routes.get(key);
      this.routes.delete(key);
    } else session = sessionOfParams(message);
    if (typeof session === "string") {
      const found = this.sessionOutbox(session);
      if (!found) {
        this.drop(
          `its agent used more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`,
        );
        return Promise.reject(this.closedError());
      }
      outbox = found;
    }
    outbox.push(json);
    return this.roomIn(outbox);
  }

  private sendBatch(batch: JsonRpcBatch): Promise<void> {
    if (!this.socket) return Promise.all(batch.map((m) => this.send(m))).then(() => {});
    for (const message of batch) {
      const opened = "method" in message ? undefined : sessionOfResult(message);
      if (opened !== undefined && !this.useSession(opened)) {
        this.drop(
          `its client opened more than ${this.limits.maxSessionsPerConnection} sessions (maxSessionsPerConnection)`,
        );
        return Promise.reject(this.closedError());
      }
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(batch);
    } catch (error) {
      return Promise.reject(new MessageEncodingError(error));
    }
    if (json === undefined) return Promise.reject(new MessageEncodingError(undefined));
    if (json.length > this.limits.maxMessageBytes)
      return Promise.reject(
        new MessageTooLargeError("the agent's batch", json.length, this.limits.maxMessageBytes),
      );
    return this.sendOnSocket(this.socket, json);
  }

  /** Resolves once `outbox` is under the limit; drops the connection at twice it. */
  private roomIn(outbox: Outbox): Promise<void> {
    const limit = this.limits.maxBufferedBytes;
    if (outbox.bytes <= limit) return Promise.resolve();
    if (outbox.bytes > 2 * limit) {
      this.drop(
        `its client is not reading: ${outbox.bytes} bytes wait for it (maxBufferedBytes ${limit})`,
      );
      return Promise.reject(this.closedError());
    }
    this.stall ??= startTimer(this.limits.maxOutputStallMs, () => {
      this.drop(
        `its client read nothing for ${this.limits.maxOutputStallMs} ms with ${outbox.bytes} bytes waiting (maxOutputStallMs)`,
      );
    });
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

  private watch(outbox: Outbox): void {
    outbox.onTake = () => {
      // The client is reading: the stall clock starts over (while anything is still full).
      this.stall?.cancel();
      this.stall = undefined;
      for (const onRoom of [...this.outputRoom]) onRoom();
      if (this.outputRoom.size > 0 && !this.isClosed)
        this.stall = startTimer(this.limits.maxOutputStallMs, () => {
          this.drop(
            `its client read nothing for ${this.limits.maxOutputStallMs} ms with a full stream (maxOutputStallMs)`,
          );
        });
    };
  }

  private async sendOnSocket(socket: WebSocketLike, json: string): Promise<void> {
    if (socket.readyState !== 1) throw this.closedError();
    socket.send(json);
    const limit = this.limits.maxBufferedBytes;
    let buffered = socket.bufferedAmount ?? 0;
    if (buffered <= limit) return;
    if (buffered > 2 * limit) {
      this.drop(
        `its client is not reading: ${buffered} bytes wait in the socket (maxBufferedBytes ${limit})`,
      );
      throw this.closedError();
    }
    // No drain event on a WebSocket: look at the buffer, less often the longer it stays full.
    let poll = SOCKET_POLL_MIN;
    let stalled = 0;
    while (buffered > limit) {
      if (this.isClosed) throw this.closedError();
      if (stalled >= this.limits.maxOutputStallMs) {
        this.drop(
          `its client read nothing for ${this.limits.maxOutputStallMs} ms with ${buffered} bytes waiting (maxOutputStallMs)`,
        );
        throw this.closedError();
      }
      await new Promise<void>((resolve) => startTimer(poll, resolve, true));
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
  private finishOutput(): void {
    if (this.isClosed) return;
    if (this.socket) {
      this.close(new RemoteClosedError("the agent closed the connection"), 1000);
      return;
    }
    this.outbox.finish();
    for (const outbox of this.sessions.values()) outbox.finish();
    this.endInput();
    this.hooks.closed(this);
    this.isClosed = true;
    this.lifetime.abort(new RemoteClosedError("the agent closed the connection"));
    this.release();
  }

  // --- Ending --------------------------------------------------------------------------

  /** Close over a limit the client broke, with a log line saying which. */
  drop(why: string): void {
    if (this.isClosed) return;
    this.hooks.log(`acp server: dropped connection ${shortId(this.id)}: ${why}`);
    this.close(new RemoteClosedError(`dropped: ${why}`), 1008, why);
  }

  /**
   * End the connection: the agent's input ends (so its connection closes and every handler
   * in flight sees its signal abort), its writes reject, the client's streams end.
   */
  close(reason: Error, code = 1001, text = reason.message): void {
    if (this.isClosed) return;
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
        // A close reason is at most 123 bytes.
        this.socket.close(code, text.slice(0, 120));
      } catch {
        // Already closing.
      }
    }
    this.release();
    this.hooks.closed(this);
  }

  private endInput(): void {
    this.inputEnded = true;
    this.input.clear();
    this.inputBytes = 0;
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
  }

  private release(): void {
    this.idle?.cancel();
    this.stall?.cancel();
    this.routes.clear();
    this.initializing = undefined;
    for (const onRoom of [...this.inputRoom, ...this.outputRoom]) onRoom();
    this.inputRoom.clear();
    this.outputRoom.clear();
  }

  private closedError(): ConnectionClosedError {
    return new ConnectionClosedError(this.lifetime.signal.reason, "closed");
  }
}

function isBatch(message: JsonRpcMessage | JsonRpcBatch): message is JsonRpcBatch {
  return Array.isArray(message);
}
