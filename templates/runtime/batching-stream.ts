import type { LogEvent, TraceEvent } from "./connection-types.js";
import { classify, type JsonRpcBatch, type JsonRpcId, type JsonRpcMessage } from "./json-rpc.js";
import type { MessageStream } from "./message-stream.js";
import { wireErrors } from "./request-error.js";
import type {
  ReadableLike,
  StreamReader,
  StreamReadResult,
  StreamWriter,
  WritableLike,
} from "./web-types.js";

/**
 * JSON-RPC 2.0 batches, below the connection: where a surface allows them (ACP v2, whose
 * transports document says "Messages are individual JSON-RPC requests, notifications,
 * responses, or batch arrays"), a connection reads and writes through one of these, and
 * never sees an array. Each entry of an incoming batch reaches the connection as if it had
 * come alone; the answers to a batch's requests leave together, as one array.
 *
 * The rules are JSON-RPC 2.0's, as ACP v2 restates them:
 * - an empty batch is answered with a single -32600 error object with `id: null`;
 * - an entry that is neither a request, a notification nor a response is answered with
 *   its own -32600 with `id: null`, and the rest of the batch is served;
 * - a batch that holds requests is answered with one array, written once every one of them
 *   has its answer (in the order of the requests; JSON-RPC allows any, matched by id);
 * - a batch of notifications (and responses) alone is answered with nothing at all.
 *
 * Answers are matched to a batch's requests by id. Ids must be unique among the requests in
 * flight, as JSON-RPC requires: a request that reuses the id of one still in flight is
 * refused by the connection, and which of the two answers joins which batch is then not
 * defined (both are sent).
 */

/** What a batch still waits for, and what it will answer with. */
interface Group {
  /** One slot per request and per invalid entry, in the batch's order. */
  readonly slots: Array<JsonRpcMessage | undefined>;
  /** Slots still empty. */
  open: number;
  /** The answers this stream made itself (to invalid entries), traced once written. */
  readonly own: JsonRpcMessage[];
  readonly written: Deferred;
}

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export interface BatchingOptions {
  /** Where an invalid entry or an empty batch is reported (the connection's `log`). */
  readonly log: (event: LogEvent) => void;
  /** Sees the entries and answers handled here (the connection's `trace`). */
  readonly trace?: ((event: TraceEvent) => void) | undefined;
}

/** A message stream that takes batches apart on the way in and puts answers together on the way out. */
export class BatchingStream implements MessageStream {
  readonly readable: ReadableLike<unknown>;
  readonly writable: WritableLike<JsonRpcMessage | JsonRpcBatch>;
  private readonly sink: StreamWriter<JsonRpcMessage | JsonRpcBatch>;
  /** The groups waiting for the answer with each id: a batch's requests, in arrival order. */
  private readonly waiting = new Map<JsonRpcId, Array<{ group: Group; slot: number }>>();
  /** While `collect` runs: the requests and notifications that will leave as one batch. */
  private collected: JsonRpcMessage[] | undefined;
  private collectedWritten: Deferred | undefined;

  constructor(
    inner: MessageStream,
    private readonly options: BatchingOptions,
  ) {
    // Taken now, as the connection takes its own: answers to invalid entries may be the
    // first thing written.
    this.sink = inner.writable.getWriter();
    this.readable = { getReader: () => this.reader(inner.readable) };
    let locked = false;
    this.writable = {
      getWriter: () => {
        if (locked) throw new TypeError("batching stream: the writable side is already locked");
        locked = true;
        return {
          write: (message) => this.write(message),
          close: () => this.close(),
          releaseLock: () => {
            locked = false;
          },
        };
      },
    };
  }

  /**
   * Runs `calls` and sends every request and notification written while it runs (its
   * synchronous part) as one batch, after it returns or throws. Nested, the inner calls join
   * the outer batch. Nothing written, nothing sent.
   */
  collect<T>(calls: () => T): T {
    if (this.collected) return calls();
    const batch: JsonRpcMessage[] = [];
    const written = deferred();
    this.collected = batch;
    this.collectedWritten = written;
    try {
      return calls();
    } finally {
      this.collected = undefined;
      this.collectedWritten = undefined;
      if (batch.length > 0) settle(this.sink.write(batch), written);
      else written.resolve();
    }
  }

  private reader(source: ReadableLike<unknown>): StreamReader<unknown> {
    const inner = source.getReader();
    // The entries of the batch being read, taken in order by index.
    let entries: unknown[] = [];
    let next = 0;
    const fromSource = (
      result: StreamReadResult<unknown>,
    ): StreamReadResult<unknown> | Promise<StreamReadResult<unknown>> => {
      if (result.done || !Array.isArray(result.value)) return result;
      entries = this.split(result.value);
      next = 0;
      return read();
    };
    const read = (): Promise<StreamReadResult<unknown>> | StreamReadResult<unknown> => {
      if (next < entries.length) {
        const value = entries[next];
        entries[next++] = undefined;
        return { done: false, value };
      }
      entries = [];
      return inner.read().then(fromSource);
    };
    return {
      read: () => Promise.resolve(read()),
      releaseLock: () => inner.releaseLock(),
      cancel: (reason) => {
        entries = [];
        return inner.cancel(reason);
      },
    };
  }

  /**
   * One incoming batch: answers what is invalid, records what its requests' answers will
   * join, and returns the entries for the connection, in order.
   */
  private split(batch: readonly unknown[]): unknown[] {
    if (batch.length === 0) {
      this.invalid("an empty batch");
      const answer: JsonRpcMessage = { jsonrpc: "2.0", id: null, error: emptyBatch() };
      this.sink.write(answer).then(() => this.traceSent([answer]), ignore);
      return [];
    }
    const group: Group = { slots: [], open: 0, own: [], written: deferred() };
    const entries: unknown[] = [];
    for (const entry of batch) {
      const message = classify(entry);
      if (message.kind === "invalid") {
        this.options.trace?.({ direction: "received", message: entry });
        this.invalid(`a batch entry: ${message.reason}`, message.id);
        const answer: JsonRpcMessage = {
          jsonrpc: "2.0",
          id: null,
          error: invalidEntry(message.reason),
        };
        group.slots.push(answer);
        group.own.push(answer);
        continue;
      }
      if (message.kind === "request") {
        const waiting = this.waiting.get(message.id);
        const slot = { group, slot: group.slots.length };
        if (waiting) waiting.push(slot);
        else this.waiting.set(message.id, [slot]);
        group.slots.push(undefined);
        group.open++;
      }
      entries.push(entry);
    }
    // Nothing to wait for: the answers to invalid entries go now; a batch of
    // notifications (and responses) alone gets none.
    if (group.open === 0 && group.slots.length > 0) this.flush(group);
    return entries;
  }

  private write(message: JsonRpcMessage | JsonRpcBatch): Promise<void> {
    if (isBatch(message)) return this.sink.write(message);
    const isAnswer = !("method" in message);
    if (this.collected && !isAnswer) {
      this.collected.push(message);
      return (this.collectedWritten as Deferred).promise;
    }
    if (isAnswer && this.waiting.size > 0) {
      const waiting = this.waiting.get(message.id);
      const first = waiting?.shift();
      if (first) {
        if (waiting?.length === 0) this.waiting.delete(message.id);
        const { group, slot } = first;
        group.slots[slot] = message;
        if (--group.open === 0) this.flush(group);
        return group.written.promise;
      }
    }
    return this.sink.write(message);
  }

  /** A complete group's answers, as one array. */
  private flush(group: Group): void {
    const written = this.sink.write(group.slots as JsonRpcMessage[]);
    settle(written, group.written);
    if (group.own.length > 0) written.then(() => this.traceSent(group.own), ignore);
  }

  private close(): Promise<void> {
    // Answers still missing will not come (the connection is closing): drop their batches.
    for (const slots of this.waiting.values())
      for (const { group } of slots) group.written.reject(CLOSING);
    this.waiting.clear();
    return this.sink.close();
  }

  private traceSent(messages: readonly JsonRpcMessage[]): void {
    const trace = this.options.trace;
    if (trace) for (const message of messages) trace({ direction: "sent", message });
  }

  private invalid(what: string, id?: JsonRpcId): void {
    this.options.log({
      level: "warn",
      reason: "invalid-message",
      message: `invalid JSON-RPC batch: ${what}; answered -32600`,
      ...(id === undefined || id === null ? {} : { id }),
    });
  }
}

/** Why a batch's answers were not sent: the connection closed before all of them were there. */
const CLOSING = new Error("the connection closed before every request of the batch was answered");

function emptyBatch() {
  return wireErrors.invalidRequest(undefined, "an empty batch").toErrorObject();
}

function invalidEntry(reason: string) {
  return wireErrors.invalidRequest(undefined, reason).toErrorObject();
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Rejected only for the writes that share it, each of which its caller handles.
  promise.catch(ignore);
  return { promise, resolve, reject };
}

function settle(written: Promise<void>, into: Deferred): void {
  written.then(into.resolve, into.reject);
}

function isBatch(message: JsonRpcMessage | JsonRpcBatch): message is JsonRpcBatch {
  return Array.isArray(message);
}

function ignore(): void {}
