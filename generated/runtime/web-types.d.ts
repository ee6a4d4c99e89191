/**
 * Structural views of the few web-platform APIs the connection layer touches.
 *
 * The generated package is type-checked by consumers with `lib: es2020` alone, with the DOM
 * lib, with @types/node, or both. None of those setups agree on where `ReadableStream` or
 * `AbortSignal` come from, so our declarations never name the platform types directly for
 * inputs: they describe the handful of members we call, which every real implementation
 * (browser, Node's `stream/web`, Deno, Bun) satisfies structurally.
 */
/** One result of `reader.read()`; WHATWG readers return exactly this shape. */
export interface StreamReadResult<T> {
    readonly done: boolean;
    readonly value?: T | undefined;
}
/** The part of a `ReadableStreamDefaultReader` we use. */
export interface StreamReader<T> {
    read(): Promise<StreamReadResult<T>>;
    releaseLock(): void;
    cancel(reason?: unknown): Promise<void>;
}
/** Anything with `getReader()`: a `ReadableStream<T>` or a hand-written source. */
export interface ReadableLike<T> {
    getReader(): StreamReader<T>;
}
/**
 * The part of a `WritableStreamDefaultWriter` we use, with its semantics: `write` may be
 * called again before an earlier write settled, and `close` right after a write; the writer
 * keeps chunks whole and in call order and closes after the last one, as a WHATWG writer
 * does. A hand-written writer must do the same.
 */
export interface StreamWriter<T> {
    write(chunk: T): Promise<void>;
    close(): Promise<void>;
    releaseLock(): void;
}
/** Anything with `getWriter()`: a `WritableStream<T>` or a hand-written sink. */
export interface WritableLike<T> {
    getWriter(): StreamWriter<T>;
}
/** The members of an `AbortSignal` the runtime reads; accepts any platform's signal. */
export interface SignalLike {
    readonly aborted: boolean;
    readonly reason?: unknown;
    addEventListener(type: "abort", listener: () => void, options?: {
        once?: boolean;
    }): void;
    removeEventListener(type: "abort", listener: () => void): void;
}
/**
 * The platform's own `AbortSignal` type when the consumer's setup declares one (DOM lib or
 * @types/node), so `fetch(url, { signal })` type-checks; otherwise the structural
 * {@link SignalLike}. Signals the runtime hands out are always real `AbortSignal`s.
 */
export type PlatformAbortSignal = typeof globalThis extends {
    AbortSignal: {
        prototype: infer S;
    };
} ? S : SignalLike;
/** The part of a `Headers` object the remote transport reads. */
export interface HeadersLike {
    get(name: string): string | null;
}
/**
 * What the remote server reads of a WHATWG `Request`: any platform's (browser, Node's
 * global `Request`, Deno, Bun, Cloudflare workers, Hono's `c.req.raw`) fits.
 */
export interface RequestLike {
    readonly method: string;
    readonly url: string;
    readonly headers: HeadersLike;
    readonly body: ReadableLike<Uint8Array> | null;
    /** Aborts when the client goes away; hosts that have one pass it on. */
    readonly signal?: SignalLike;
}
/** What the remote client reads of a WHATWG `Response`. */
export interface ResponseLike {
    readonly status: number;
    readonly statusText: string;
    readonly headers: HeadersLike;
    readonly body: ReadableLike<Uint8Array> | null;
}
/**
 * The platform's own `Response` type when the consumer's setup declares one (DOM lib or
 * @types/node), so a fetch handler returns what its host expects; otherwise the
 * structural {@link ResponseLike}. Responses the runtime makes are always real ones.
 */
export type PlatformResponse = typeof globalThis extends {
    Response: {
        prototype: infer R;
    };
} ? R : ResponseLike;
/** A `fetch` the remote client can call: the platform's, or one the application passes. */
export type FetchLike = (url: string, init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    signal?: PlatformAbortSignal;
    credentials?: "include" | "omit";
}) => Promise<ResponseLike>;
/**
 * A WebSocket as both ends of the remote transport use it: the browser's (and Deno's,
 * Bun's, Node 22's global) with `addEventListener`, or the `ws` package's with `on`.
 * `bufferedAmount` is what backpressure reads: bytes handed to `send()` and not yet sent.
 */
export interface WebSocketLike {
    readonly readyState: number;
    readonly bufferedAmount?: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    /** Typed loosely on purpose: the DOM's overloads and `ws`'s generic one both fit. */
    addEventListener?(type: never, listener: never): void;
    on?(type: string, listener: (...args: never[]) => void): unknown;
}
