/**
 * JSON-RPC 2.0 message shapes and the classification of whatever arrives on the wire.
 * ACP v1 uses single messages only: a batch (JSON array) is answered as an invalid request.
 * v2 allows batches; its connections take them apart before classifying (batching-stream.ts).
 */

export type JsonRpcId = string | number | null;

export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface RequestMessage {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

export interface NotificationMessage {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: unknown;
}

export interface ResultMessage {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly result: unknown;
}

export interface ErrorMessage {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly error: ErrorObject;
}

export type JsonRpcMessage = RequestMessage | NotificationMessage | ResultMessage | ErrorMessage;

/**
 * A JSON-RPC 2.0 batch: several messages sent as one JSON array, where the protocol allows
 * it (ACP v2). A connection writes one when it sends a batch, or answers one.
 */
export type JsonRpcBatch = readonly JsonRpcMessage[];

/** What one incoming value turned out to be. */
export type Incoming =
  | {
      readonly kind: "request";
      readonly id: JsonRpcId;
      readonly method: string;
      readonly params: unknown;
    }
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "result"; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly kind: "error"; readonly id: JsonRpcId; readonly error: ErrorObject }
  | {
      readonly kind: "invalid";
      readonly reason: string;
      /** The id to answer with: the message's own when it is usable, else null. */
      readonly id: JsonRpcId;
      /** Response-shaped garbage is never answered (JSON-RPC forbids answering responses). */
      readonly answer: boolean;
    };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return (
    value === null ||
    typeof value === "string" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function isErrorObject(value: unknown): value is ErrorObject {
  return isRecord(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

export function classify(value: unknown): Incoming {
  if (Array.isArray(value))
    return { kind: "invalid", reason: "batches are not supported", id: null, answer: true };
  if (!isRecord(value))
    return { kind: "invalid", reason: "a message must be a JSON object", id: null, answer: true };

  const hasId = Object.hasOwn(value, "id");
  const id = hasId && isJsonRpcId(value.id) ? value.id : null;
  const responseShaped =
    !Object.hasOwn(value, "method") &&
    (hasId || Object.hasOwn(value, "result") || Object.hasOwn(value, "error"));
  const invalid = (reason: string): Incoming => ({
    kind: "invalid",
    reason,
    id,
    answer: !responseShaped,
  });

  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"');
  if (hasId && !isJsonRpcId(value.id)) return invalid('"id" must be a string, a number or null');

  if (!responseShaped) {
    if (typeof value.method !== "string") return invalid('"method" must be a string');
    return hasId
      ? { kind: "request", id, method: value.method, params: value.params }
      : { kind: "notification", method: value.method, params: value.params };
  }

  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  if (!hasId) {
    // Seen in the field: an error answer to a notification, without an id. Read as the
    // JSON-RPC error it means, attributed to no request (like one with id null).
    if (hasError && !hasResult && isErrorObject(value.error))
      return { kind: "error", id: null, error: value.error };
    return invalid('a response needs an "id"');
  }
  if (hasResult === hasError)
    return invalid('a response needs exactly one of "result" and "error"');
  if (hasResult) return { kind: "result", id, result: value.result };
  if (!isErrorObject(value.error))
    return invalid('"error" must be an object with an integer "code" and a string "message"');
  return { kind: "error", id, error: value.error };
}
