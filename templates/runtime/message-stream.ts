import type { JsonRpcMessage } from "./json-rpc.js";
import type { ReadableLike, WritableLike } from "./web-types.js";

/**
 * The contract between a transport and a connection: a source of incoming JSON values and a
 * sink for outgoing messages. `ndJsonStream` builds one over stdio-style byte streams; any
 * other transport (a WebSocket, an in-memory pair) can provide its own.
 *
 * Incoming values are untrusted: the connection checks every one of them. A transport that
 * receives something it cannot turn into a JSON value yields a {@link MalformedFrame}, which
 * the connection answers (-32700 / -32600) and logs without closing.
 */
export interface MessageStream {
  readonly readable: ReadableLike<unknown>;
  readonly writable: WritableLike<JsonRpcMessage>;
}

export type MalformedProblem = "parse-error" | "invalid-utf8" | "too-large";

/** A unit of input that is not a JSON value. Carries no content: input may hold secrets. */
/**
 * Marks a MalformedFrame across copies of this runtime (two installed versions of the
 * package, or a stream made by one and a connection by another): `instanceof` would miss
 * those, and the frame would be taken for a message. JSON cannot produce symbol keys, so
 * no received value can carry the mark.
 */
const MALFORMED: unique symbol = Symbol.for("acp-codegen.malformed-frame") as never;

export function isMalformedFrame(value: unknown): value is MalformedFrame {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { [MALFORMED]?: unknown })[MALFORMED] === true
  );
}

export class MalformedFrame {
  readonly [MALFORMED]: true = true;
  readonly problem: MalformedProblem;
  /** Size in bytes of the offending input. */
  readonly size: number;

  constructor(problem: MalformedProblem, size: number) {
    this.problem = problem;
    this.size = size;
  }
}

/**
 * Marks the errors a transport raises for one outgoing message it refuses (it cannot be
 * encoded, or it is over the size limit), across copies of this runtime like
 * {@link MalformedFrame}: such an error fails that one call, never the connection.
 */
const REFUSED: unique symbol = Symbol.for("acp-codegen.refused-message") as never;

export function isRefusedMessage(
  error: unknown,
): error is MessageEncodingError | MessageTooLargeError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { [REFUSED]?: unknown })[REFUSED] === true
  );
}

/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export class MessageEncodingError extends Error {
  override readonly name = "MessageEncodingError";
  readonly [REFUSED]: true = true;
  /** What `JSON.stringify` threw. */
  readonly reason: unknown;

  constructor(reason: unknown) {
    super(
      `message cannot be encoded as JSON${reason instanceof Error ? `: ${reason.message}` : ""}`,
    );
    this.reason = reason;
  }
}

/**
 * An outgoing message over the transport's size limit: refused before anything is written,
 * so it fails that one call only. (Sent anyway, it would be skipped by a peer with the same
 * limit, which cannot tell whose request it was.)
 */
export class MessageTooLargeError extends Error {
  override readonly name = "MessageTooLargeError";
  readonly [REFUSED]: true = true;
  /** Bytes the encoded message takes, without its newline. */
  readonly size: number;
  /** The limit it is over (`maxMessageBytes`). */
  readonly limit: number;

  constructor(what: string, size: number, limit: number) {
    super(`${what} is ${size} bytes encoded, over the limit of ${limit} bytes`);
    this.size = size;
    this.limit = limit;
  }
}
