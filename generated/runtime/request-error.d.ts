import type { ErrorObject } from "./json-rpc.js";
/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Each entry point exports a subclass of the
 * same name with one static helper per code of its schema's `ErrorCode` definition
 * (`RequestError.resourceNotFound(…)`), for which `instanceof` holds for every
 * `RequestError`, whichever entry point (or this runtime) made it.
 */
export declare class RequestError extends Error {
    readonly name = "RequestError";
    readonly code: number;
    readonly data?: unknown;
    constructor(code: number, message: string, data?: unknown);
    /** The `error` member of a JSON-RPC response. */
    toErrorObject(): ErrorObject;
}
/**
 * The errors the connection answers with on its own. Their codes are JSON-RPC 2.0's (and
 * -32800, the cancellation code ACP shares with LSP): the connection speaks JSON-RPC
 * whatever the schema, so these do not come from the schema's `ErrorCode`.
 */
export declare const wireErrors: {
    /** -32700: the line received was not JSON (or not UTF-8). */
    readonly parseError: (detail?: string) => RequestError;
    /** -32600: JSON, but not a valid JSON-RPC request object. */
    readonly invalidRequest: (data?: unknown, detail?: string) => RequestError;
    /** -32601: the method does not exist here, or this side does not implement it. */
    readonly methodNotFound: (method: string) => RequestError;
    /** -32602: the params do not match the method's schema. */
    readonly invalidParams: (data?: unknown, detail?: string) => RequestError;
    /** -32603: the handler failed. */
    readonly internalError: (data?: unknown, detail?: string) => RequestError;
    /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
    readonly requestCancelled: (data?: unknown, detail?: string) => RequestError;
};
/** `message`, or `message: detail` when there is a detail. */
export declare function withDetail(message: string, detail: string | undefined): string;
/** What closed a connection. */
export type CloseKind = 
/**
 * The peer closed its output (end of input): it exited, or is done with us. The `reason`
 * is the transport's account of it when it has one (a spawned agent's exit code and stderr).
 */
"end-of-input"
/** Reading failed: the transport's error is the `reason`. */
 | "read-error"
/** Writing failed (the peer is gone): the transport's error is the `reason`. */
 | "write-error"
/** This side called `close()`; its argument, if any, is the `reason`. */
 | "closed";
/**
 * Rejection of every request still pending when the connection closes, and of calls made
 * after; also the reason of the connection's `signal`. Its message says what happened.
 */
export declare class ConnectionClosedError extends Error {
    readonly name = "ConnectionClosedError";
    readonly kind: CloseKind;
    /** The transport's error, the `close(reason)` argument, or undefined at end of input. */
    readonly reason: unknown;
    constructor(reason?: unknown, kind?: CloseKind);
}
/**
 * How a cancelled turn settles when the agent did not answer within `cancelGraceMs` (it
 * ignored `session/cancel`): the turn's promise rejects with this, its iteration ends by
 * throwing it, and the answer or updates the agent may still send for it are dropped (logged
 * at debug level) rather than given to a later turn.
 */
export declare class TurnAbandonedError extends Error {
    readonly name = "TurnAbandonedError";
    readonly sessionId: unknown;
    readonly graceMs: number;
    constructor(sessionId: unknown, graceMs: number, cancelMethod: string);
}
