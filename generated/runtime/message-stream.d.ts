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
declare const MALFORMED: unique symbol;
export declare function isMalformedFrame(value: unknown): value is MalformedFrame;
export declare class MalformedFrame {
    readonly [MALFORMED]: true;
    readonly problem: MalformedProblem;
    /** Size in bytes of the offending input. */
    readonly size: number;
    constructor(problem: MalformedProblem, size: number);
}
/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export declare class MessageEncodingError extends Error {
    readonly name = "MessageEncodingError";
    /** What `JSON.stringify` threw. */
    readonly reason: unknown;
    constructor(reason: unknown);
}
export {};
