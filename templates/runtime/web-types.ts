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
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * The platform's own `AbortSignal` type when the consumer's setup declares one (DOM lib or
 * @types/node), so `fetch(url, { signal })` type-checks; otherwise the structural
 * {@link SignalLike}. Signals the runtime hands out are always real `AbortSignal`s.
 */
export type PlatformAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } }
  ? S
  : SignalLike;
