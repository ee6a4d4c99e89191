import type { PlatformAbortSignal, SignalLike } from "./web-types.js";
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
export {};
