import type { ErrorObject } from "./json-rpc.js";

/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Codes follow JSON-RPC 2.0 plus the
 * ACP-specific ones from the schema's `ErrorCode` definition.
 */
export class RequestError extends Error {
  override readonly name = "RequestError";
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  /** -32700: the line received was not JSON (or not UTF-8). */
  static parseError(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32700, withDetail("Parse error", detail), data);
  }

  /** -32600: JSON, but not a valid JSON-RPC request object. */
  static invalidRequest(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32600, withDetail("Invalid request", detail), data);
  }

  /** -32601: the method does not exist here, or this side does not implement it. */
  static methodNotFound(method: string): RequestError {
    return new RequestError(-32601, `Method not found: ${method}`, { method });
  }

  /** -32602: the params do not match the method's schema. */
  static invalidParams(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32602, withDetail("Invalid params", detail), data);
  }

  /** -32603: the handler failed. */
  static internalError(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32603, withDetail("Internal error", detail), data);
  }

  /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
  static requestCancelled(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32800, withDetail("Request cancelled", detail), data);
  }

  /** -32000: authenticate first. */
  static authRequired(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32000, withDetail("Authentication required", detail), data);
  }

  /** -32002: a resource such as a file or a session does not exist. */
  static resourceNotFound(uri?: string): RequestError {
    return new RequestError(
      -32002,
      withDetail("Resource not found", uri),
      uri === undefined ? undefined : { uri },
    );
  }

  /** The `error` member of a JSON-RPC response. */
  toErrorObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

function withDetail(message: string, detail: string | undefined): string {
  return detail ? `${message}: ${detail}` : message;
}

/** What closed a connection. */
export type CloseKind =
  /** The peer closed its output (end of input): it exited, or is done with us. */
  | "end-of-input"
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
export class ConnectionClosedError extends Error {
  override readonly name = "ConnectionClosedError";
  readonly kind: CloseKind;
  /** The transport's error, the `close(reason)` argument, or undefined at end of input. */
  readonly reason: unknown;

  constructor(reason?: unknown, kind: CloseKind = "closed") {
    super(closeMessage(kind, reason));
    this.kind = kind;
    this.reason = reason;
  }
}

function closeMessage(kind: CloseKind, reason: unknown): string {
  const detail =
    reason instanceof Error ? reason.message : reason === undefined ? "" : String(reason);
  switch (kind) {
    case "end-of-input":
      return `connection closed: the peer closed its output${detail ? ` (${detail})` : ""}`;
    case "read-error":
      return `connection closed: ${detail || "reading failed"}`;
    case "write-error":
      return `connection closed: ${detail || "writing failed"}`;
    case "closed":
      return detail ? `connection closed: ${detail}` : "connection closed by close()";
  }
}
