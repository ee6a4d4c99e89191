import type { ErrorObject } from "./json-rpc.js";
/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Codes follow JSON-RPC 2.0 plus the
 * ACP-specific ones from the schema's `ErrorCode` definition.
 */
export declare class RequestError extends Error {
    readonly name = "RequestError";
    readonly code: number;
    readonly data?: unknown;
    constructor(code: number, message: string, data?: unknown);
    /** -32700: the line received was not JSON (or not UTF-8). */
    static parseError(data?: unknown, detail?: string): RequestError;
    /** -32600: JSON, but not a valid JSON-RPC request object. */
    static invalidRequest(data?: unknown, detail?: string): RequestError;
    /** -32601: the method does not exist here, or this side does not implement it. */
    static methodNotFound(method: string): RequestError;
    /** -32602: the params do not match the method's schema. */
    static invalidParams(data?: unknown, detail?: string): RequestError;
    /** -32603: the handler failed. */
    static internalError(data?: unknown, detail?: string): RequestError;
    /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
    static requestCancelled(data?: unknown, detail?: string): RequestError;
    /** -32000: authenticate first. */
    static authRequired(data?: unknown, detail?: string): RequestError;
    /** -32002: a resource such as a file or a session does not exist. */
    static resourceNotFound(uri?: string): RequestError;
    /** The `error` member of a JSON-RPC response. */
    toErrorObject(): ErrorObject;
}
/** Rejection of every request still pending when the connection closes, and of calls made after. */
export declare class ConnectionClosedError extends Error {
    readonly name = "ConnectionClosedError";
    /** Why the connection closed: the transport's error, the `close(reason)` argument, or undefined at end of input. */
    readonly reason: unknown;
    constructor(reason?: unknown);
}
