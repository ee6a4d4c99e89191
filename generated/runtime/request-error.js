/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Each entry point exports a subclass of the
 * same name with one static helper per code of its schema's `ErrorCode` definition
 * (`RequestError.resourceNotFound(…)`), for which `instanceof` holds for every
 * `RequestError`, whichever entry point (or this runtime) made it.
 */
export class RequestError extends Error {
    constructor(code, message, data) {
        super(message);
        this.name = "RequestError";
        this.code = code;
        if (data !== undefined)
            this.data = data;
    }
    /** The `error` member of a JSON-RPC response. */
    toErrorObject() {
        return this.data === undefined
            ? { code: this.code, message: this.message }
            : { code: this.code, message: this.message, data: this.data };
    }
}
/**
 * The errors the connection answers with on its own. Their codes are JSON-RPC 2.0's (and
 * -32800, the cancellation code ACP shares with LSP): the connection speaks JSON-RPC
 * whatever the schema, so these do not come from the schema's `ErrorCode`.
 */
export const wireErrors = {
    /** -32700: the line received was not JSON (or not UTF-8). */
    parseError: (detail) => new RequestError(-32700, withDetail("Parse error", detail)),
    /** -32600: JSON, but not a valid JSON-RPC request object. */
    invalidRequest: (data, detail) => new RequestError(-32600, withDetail("Invalid request", detail), data),
    /** -32601: the method does not exist here, or this side does not implement it. */
    methodNotFound: (method) => new RequestError(-32601, `Method not found: ${method}`, { method }),
    /** -32602: the params do not match the method's schema. */
    invalidParams: (data, detail) => new RequestError(-32602, withDetail("Invalid params", detail), data),
    /** -32603: the handler failed. */
    internalError: (data, detail) => new RequestError(-32603, withDetail("Internal error", detail), data),
    /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
    requestCancelled: (data, detail) => new RequestError(-32800, withDetail("Request cancelled", detail), data),
};
/** `message`, or `message: detail` when there is a detail. */
export function withDetail(message, detail) {
    return detail ? `${message}: ${detail}` : message;
}
/**
 * Rejection of every request still pending when the connection closes, and of calls made
 * after; also the reason of the connection's `signal`. Its message says what happened.
 */
export class ConnectionClosedError extends Error {
    constructor(reason, kind = "closed") {
        super(closeMessage(kind, reason));
        this.name = "ConnectionClosedError";
        this.kind = kind;
        this.reason = reason;
    }
}
function closeMessage(kind, reason) {
    const detail = reason instanceof Error ? reason.message : reason === undefined ? "" : String(reason);
    switch (kind) {
        case "end-of-input":
            return `connection closed: ${detail || "the peer closed its output"}`;
        case "read-error":
            return `connection closed: ${detail || "reading failed"}`;
        case "write-error":
            return `connection closed: ${detail || "writing failed"}`;
        case "closed":
            return detail ? `connection closed: ${detail}` : "connection closed by close()";
    }
}
