import type { ErrorObject } from "./json-rpc.js";

/**
 * A JSON-RPC error: thrown by a handler to answer with a specific code, and the rejection
 * of a request the peer answered with an error. Each entry point exports a subclass of the
 * same name with one static helper per code of its schema's `ErrorCode` definition
 * (`RequestError.resourceNotFound(…)`), for which `instanceof` holds for every
 * `RequestError`, whichever entry point (or this runtime) made it.
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

  /** The `error` member of a JSON-RPC response. */
  toErrorObject(): ErrorObject {
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
  parseError: (detail?: string): RequestError =>
    new RequestError(-32700, withDetail("Parse error", detail)),
  /** -32600: JSON, but not a valid JSON-RPC request object. */
  invalidRequest: (data?: unknown, detail?: string): RequestError =>
    new RequestError(-32600, withDetail("Invalid request", detail), data),
  /** -32601: the method does not exist here, or this side does not implement it. */
  methodNotFound: (method: string): RequestError =>
    new RequestError(-32601, `Method not found: ${method}`, { method }),
  /** -32602: the params do not match the method's schema. */
  invalidParams: (data?: unknown, detail?: string): RequestError =>
    new RequestError(-32602, withDetail("Invalid params", detail), data),
  /** -32603: the handler failed. */
  internalError: (data?: unknown, detail?: string): RequestError =>
    new RequestError(-32603, withDetail("Internal error", detail), data),
  /** -32800: the request was cancelled (`$/cancel_request`, or the caller's signal). */
  requestCancelled: (data?: unknown, detail?: string): RequestError =>
    new RequestError(-32800, withDetail("Request cancelled", detail), data),
} as const;

/** `message`, or `message: detail` when there is a detail. */
export function withDetail(message: string, detail: string | undefined): string {
  return detail ? `${message}: ${detail}` : message;
}

/** What closed a connection. */
export type CloseKind =
  /**
   * The peer closed its output (end of input): it exited, or is done with us. The `reason`
   * is the transport's account of it when it has one (a spawned agent's exit code and stderr).
   */
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
      return `connection closed: ${detail || "the peer closed its output"}`;
    case "read-error":
      return `connection closed: ${detail || "reading failed"}`;
    case "write-error":
      return `connection closed: ${detail || "writing failed"}`;
    case "closed":
      return detail ? `connection closed: ${detail}` : "connection closed by close()";
  }
}

/**
 * How a cancelled turn settles when the agent did not answer within `cancelGraceMs` (it
 * ignored `session/cancel`): the turn's promise rejects with this, its iteration ends by
 * throwing it, and the answer or updates the agent may still send for it are dropped (logged
 * at debug level) rather than given to a later turn.
 */
export class TurnAbandonedError extends Error {
  override readonly name = "TurnAbandonedError";
  readonly sessionId: unknown;
  readonly graceMs: number;

  constructor(sessionId: unknown, graceMs: number, cancelMethod: string) {
    super(
      `the agent did not answer ${cancelMethod} for session ${String(sessionId)} within ${graceMs} ms: the turn was abandoned`,
    );
    this.sessionId = sessionId;
    this.graceMs = graceMs;
  }
}
