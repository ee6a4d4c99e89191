import type { JsonRpcBatch, JsonRpcMessage } from "./json-rpc.js";
import type { MessageHead } from "./peek.js";
import type { ReadableLike, WritableLike } from "./web-types.js";
/**
 * The contract between a transport and a connection: a source of incoming JSON values and a
 * sink for outgoing messages. `ndJsonStream` builds one over stdio-style byte streams; any
 * other transport (a WebSocket, an in-memory pair) can provide its own.
 *
 * Incoming values are untrusted: the connection checks every one of them. A transport that
 * receives something it cannot turn into a JSON value yields a {@link MalformedFrame}, which
 * the connection logs (and, as its options say, answers) without closing.
 *
 * On a surface that allows JSON-RPC batches (v2), the writable side also receives arrays
 * of messages (a batch the connection sends, or its answers to one), to be sent as one
 * JSON array; a transport that cannot carry them sends their messages one by one.
 */
export interface MessageStream {
    readonly readable: ReadableLike<unknown>;
    readonly writable: WritableLike<JsonRpcMessage | JsonRpcBatch>;
}
export type MalformedProblem = "parse-error" | "invalid-utf8" | "too-large";
/**
 * Marks a MalformedFrame across copies of this runtime (two installed versions of the
 * package, or a stream made by one and a connection by another): `instanceof` would miss
 * those, and the frame would be taken for a message. JSON cannot produce symbol keys, so
 * no received value can carry the mark.
 */
declare const MALFORMED: unique symbol;
export declare function isMalformedFrame(value: unknown): value is MalformedFrame;
/** What a transport knows about a unit of input that is not a JSON value, besides its size. */
export interface MalformedDetail {
    /**
     * The line as text (invalid UTF-8 replaced by U+FFFD), for `parse-error` and
     * `invalid-utf8`. Only a `trace` sees it: the connection never logs input content.
     */
    readonly text?: string;
    /** For `too-large`: what the head of the message said (its id, whether a request). */
    readonly peek?: MessageHead;
    /** For `too-large`: the limit it is over. */
    readonly limit?: number;
}
/** A unit of input that is not a JSON value (or too large to be read as one). */
export declare class MalformedFrame implements MalformedDetail {
    readonly [MALFORMED]: true;
    readonly problem: MalformedProblem;
    /** Size in bytes of the offending input. */
    readonly size: number;
    readonly text?: string;
    readonly peek?: MessageHead;
    readonly limit?: number;
    constructor(problem: MalformedProblem, size: number, detail?: MalformedDetail);
}
/**
 * Marks the errors a transport raises for one outgoing message it refuses (it cannot be
 * encoded, or it is over the size limit), across copies of this runtime like
 * {@link MalformedFrame}: such an error fails that one call, never the connection.
 */
declare const REFUSED: unique symbol;
export declare function isRefusedMessage(error: unknown): error is MessageEncodingError | MessageTooLargeError;
/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export declare class MessageEncodingError extends Error {
    readonly name = "MessageEncodingError";
    readonly [REFUSED]: true;
    /** What `JSON.stringify` threw. */
    readonly reason: unknown;
    constructor(reason: unknown);
}
/**
 * An outgoing message over the transport's size limit: refused before anything is written,
 * so it fails that one call only. (Sent anyway, it would be skipped by a peer with the same
 * limit, which cannot tell whose request it was.)
 */
export declare class MessageTooLargeError extends Error {
    readonly name = "MessageTooLargeError";
    readonly [REFUSED]: true;
    /** Bytes the encoded message takes, without its newline. */
    readonly size: number;
    /** The limit it is over (`maxMessageBytes`). */
    readonly limit: number;
    constructor(what: string, size: number, limit: number);
}
/**
 * Marks an {@link InputEndedError} across copies of this runtime, like {@link MalformedFrame}.
 */
declare const INPUT_ENDED: unique symbol;
export declare function isInputEnded(error: unknown): error is InputEndedError;
/**
 * What a transport's reader (or writer) rejects with, instead of ending quietly, when it
 * knows why the input ended: the process behind it exited, say. The connection then
 * closes as at end of input, with this error as the reason, so the rejection of every
 * pending call says what happened.
 */
export declare class InputEndedError extends Error {
    readonly name: string;
    readonly [INPUT_ENDED]: true;
}
export {};
