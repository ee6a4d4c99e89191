import type { FetchLike, PlatformAbortSignal, PlatformResponse, ReadableLike, SignalLike, WebSocketLike } from "./web-types.js";
/**
 * Typed access to the platform globals the runtime needs (Node >= 18 and every current
 * browser have all of them). The runtime compiles without the DOM lib and without
 * @types/node, so these are looked up on `globalThis` through minimal local types instead
 * of ambient declarations that could clash with a consumer's own.
 */
export interface AbortControllerLike {
    readonly signal: PlatformAbortSignal & SignalLike;
    abort(reason?: unknown): void;
}
interface TextDecoderLike {
    decode(bytes: Uint8Array): string;
}
interface TextEncoderLike {
    encode(text: string): Uint8Array;
}
/** The source of a platform `ReadableStream`, as the remote server's response bodies use it. */
export interface ByteSource {
    start?(controller: ByteController): void;
    pull?(controller: ByteController): void | Promise<void>;
    cancel?(reason?: unknown): void;
}
export interface ByteController {
    enqueue(chunk: Uint8Array): void;
    close(): void;
    error(reason?: unknown): void;
}
/** A WebSocket constructor: the platform's, or `ws`'s (which takes the third argument). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[], options?: {
    headers?: Record<string, string>;
}) => WebSocketLike;
export declare function newAbortController(): AbortControllerLike;
/**
 * A decoder that throws on malformed UTF-8 instead of inserting U+FFFD silently. It drops a
 * byte order mark at the start of what it decodes, unless `keepBOM`.
 */
export declare function strictUtf8Decoder(keepBOM?: boolean): TextDecoderLike;
/** A decoder that replaces malformed UTF-8 with U+FFFD: for showing input, never for reading it. */
export declare function lossyUtf8Decoder(): TextDecoderLike;
export declare function utf8Encoder(): TextEncoderLike;
/** `console.error` when the platform has a console; a no-op otherwise. */
export declare function consoleError(...values: unknown[]): void;
/** `console.warn` when the platform has a console; a no-op otherwise. */
export declare function consoleWarn(...values: unknown[]): void;
/** A platform `Response`: what a fetch handler returns. */
export declare function newResponse(body: string | ReadableLike<Uint8Array> | null, status: number, headers: Record<string, string>): PlatformResponse;
/** A platform `ReadableStream` of bytes that pulls one chunk at a time (no read-ahead). */
export declare function newByteStream(source: ByteSource): ReadableLike<Uint8Array>;
/** The platform's `fetch`, bound; undefined where there is none. */
export declare function platformFetch(): FetchLike | undefined;
/** The platform's `WebSocket` constructor; undefined where there is none (Node 20). */
export declare function platformWebSocket(): WebSocketConstructor | undefined;
/** `count` bytes from the platform's cryptographic random source (never `Math.random`). */
export declare function randomBytes(count: number): Uint8Array;
/**
 * A cancellable timer; `cancel` is idempotent. Unless `keepAlive`, it does not keep a Node
 * process alive on its own (a server's idle and stall timers), as a client's retry must.
 */
export declare function startTimer(ms: number, callback: () => void, keepAlive?: boolean): {
    cancel(): void;
};
/** Resolves after `ms`; the wait keeps a Node process alive, as a client's retry must. */
export declare function sleep(ms: number): Promise<void>;
export {};
