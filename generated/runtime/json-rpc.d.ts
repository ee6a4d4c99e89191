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
export type Incoming = {
    readonly kind: "request";
    readonly id: JsonRpcId;
    readonly method: string;
    readonly params: unknown;
} | {
    readonly kind: "notification";
    readonly method: string;
    readonly params: unknown;
} | {
    readonly kind: "result";
    readonly id: JsonRpcId;
    readonly result: unknown;
} | {
    readonly kind: "error";
    readonly id: JsonRpcId;
    readonly error: ErrorObject;
} | {
    readonly kind: "invalid";
    readonly reason: string;
    /** The id to answer with: the message's own when it is usable, else null. */
    readonly id: JsonRpcId;
    /** Response-shaped garbage is never answered (JSON-RPC forbids answering responses). */
    readonly answer: boolean;
};
export declare function isJsonRpcId(value: unknown): value is JsonRpcId;
export declare function classify(value: unknown): Incoming;
