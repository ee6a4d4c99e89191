/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Codes follow JSON-RPC 2.0 plus the
 * ACP-specific ones from the schema's `ErrorCode` definition.
 */
export class RequestError extends Error {
    constructor(code, message, data) {
        super(message);
        this.name = "RequestError";
        this.code = code;
        if (data !== undefined)
            this.data = data;
    }
    /** -32700: the line received was not JSON (or not UTF-8). */
    static parseError(data, detail) {
        return new RequestError(-32700, withDetail("Parse error", detail), data);
    }
    /** -32600: JSON, but not a valid JSON-RPC request object. */
    static invalidRequest(data, detail) {
        return new RequestError(-32600, withDetail("Invalid request", detail), data);
    }
    /** -32601: the method does not exist here, or this side does not implement it. */
    static methodNotFound(method) {
        return new RequestError(-32601, `Method not found: ${method}`, { method });
    }
    /** -32602: the params do not match the method's schema. */
    static invalidParams(data, detail) {
        return new RequestError(-32602, withDetail("Invalid params", detail), data);
    }
    /** -32603: the handler failed. */
    static internalError(data, detail) {
        return new RequestError(-32603, withDetail("Internal error", detail), data);
    }
    /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
    static requestCancelled(data, detail) {
        return new RequestError(-32800, withDetail("Request cancelled", detail), data);
    }
    /** -32000: authenticate first. */
    static authRequired(data, detail) {
        return new RequestError(-32000, withDetail("Authentication required", detail), data);
    }
    /** -32002: a resource such as a file or a session does not exist. */
    static resourceNotFound(uri) {
        return new RequestError(-32002, withDetail("Resource not found", uri), uri === undefined ? undefined : { uri });
    }
    /** The `error` member of a JSON-RPC response. */
    toErrorObject() {
        return this.data === undefined
            ? { code: this.code, message: this.message }
            : { code: this.code, message: this.message, data: this.data };
    }
}
function withDetail(message, detail) {
    return detail ? `${message}: ${detail}` : message;
}
/** Rejection of every request still pending when the connection closes, and of calls made after. */
export class ConnectionClosedError extends Error {
    constructor(reason) {
        super(reason instanceof Error ? `connection closed: ${reason.message}` : "connection closed");
        this.name = "ConnectionClosedError";
        this.reason = reason;
    }
}
