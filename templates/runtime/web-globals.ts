import type {
  FetchLike,
  PlatformAbortSignal,
  PlatformResponse,
  ReadableLike,
  SignalLike,
  WebSocketLike,
} from "./web-types.js";

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
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

type Timer = unknown;

interface Platform {
  AbortController?: new () => AbortControllerLike;
  Response?: new (
    body: string | ReadableLike<Uint8Array> | null,
    init: { status: number; headers: Record<string, string> },
  ) => PlatformResponse;
  ReadableStream?: new (
    source: ByteSource,
    strategy: { highWaterMark: number },
  ) => ReadableLike<Uint8Array>;
  fetch?: FetchLike;
  WebSocket?: WebSocketConstructor;
  crypto?: { getRandomValues(bytes: Uint8Array): Uint8Array };
  setTimeout?: (callback: () => void, ms: number) => Timer;
  clearTimeout?: (timer: Timer) => void;
  TextDecoder?: new (
    label: string,
    options: { fatal: boolean; ignoreBOM?: boolean },
  ) => TextDecoderLike;
  TextEncoder?: new () => TextEncoderLike;
  console?: { error(...values: unknown[]): void; warn(...values: unknown[]): void };
}

const platform = globalThis as unknown as Platform;

function missing(name: string): Error {
  return new Error(`acp runtime: this JavaScript platform has no global ${name}`);
}

export function newAbortController(): AbortControllerLike {
  const Controller = platform.AbortController;
  if (!Controller) throw missing("AbortController");
  return new Controller();
}

/**
 * A decoder that throws on malformed UTF-8 instead of inserting U+FFFD silently. It drops a
 * byte order mark at the start of what it decodes, unless `keepBOM`.
 */
export function strictUtf8Decoder(keepBOM = false): TextDecoderLike {
  const Decoder = platform.TextDecoder;
  if (!Decoder) throw missing("TextDecoder");
  return new Decoder("utf-8", { fatal: true, ignoreBOM: keepBOM });
}

/** A decoder that replaces malformed UTF-8 with U+FFFD: for showing input, never for reading it. */
export function lossyUtf8Decoder(): TextDecoderLike {
  const Decoder = platform.TextDecoder;
  if (!Decoder) throw missing("TextDecoder");
  return new Decoder("utf-8", { fatal: false });
}

export function utf8Encoder(): TextEncoderLike {
  const Encoder = platform.TextEncoder;
  if (!Encoder) throw missing("TextEncoder");
  return new Encoder();
}

/** `console.error` when the platform has a console; a no-op otherwise. */
export function consoleError(...values: unknown[]): void {
  platform.console?.error(...values);
}

/** `console.warn` when the platform has a console; a no-op otherwise. */
export function consoleWarn(...values: unknown[]): void {
  platform.console?.warn(...values);
}

/** A platform `Response`: what a fetch handler returns. */
export function newResponse(
  body: string | ReadableLike<Uint8Array> | null,
  status: number,
  headers: Record<string, string>,
): PlatformResponse {
  const Response = platform.Response;
  if (!Response) throw missing("Response");
  return new Response(body, { status, headers });
}

/** A platform `ReadableStream` of bytes that pulls one chunk at a time (no read-ahead). */
export function newByteStream(source: ByteSource): ReadableLike<Uint8Array> {
  const Stream = platform.ReadableStream;
  if (!Stream) throw missing("ReadableStream");
  return new Stream(source, { highWaterMark: 0 });
}

/** The platform's `fetch`, bound; undefined where there is none. */
export function platformFetch(): FetchLike | undefined {
  const fetch = platform.fetch;
  return fetch ? (url, init) => fetch(url, init) : undefined;
}

/** The platform's `WebSocket` constructor; undefined where there is none (Node 20). */
export function platformWebSocket(): WebSocketConstructor | undefined {
  return platform.WebSocket;
}

/** `count` bytes from the platform's cryptographic random source (never `Math.random`). */
export function randomBytes(count: number): Uint8Array {
  const crypto = platform.crypto;
  if (!crypto) throw missing("crypto");
  return crypto.getRandomValues(new Uint8Array(count));
}

/**
 * A cancellable timer; `cancel` is idempotent. Unless `keepAlive`, it does not keep a Node
 * process alive on its own (a server's idle and stall timers), as a client's retry must.
 */
export function startTimer(
  ms: number,
  callback: () => void,
  keepAlive = false,
): { cancel(): void } {
  const set = platform.setTimeout;
  const clear = platform.clearTimeout;
  if (!set || !clear) throw missing("setTimeout");
  const timer = set(callback, ms);
  if (!keepAlive) (timer as { unref?: () => void }).unref?.();
  return { cancel: () => clear(timer) };
}

/** Resolves after `ms`; the wait keeps a Node process alive, as a client's retry must. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    startTimer(ms, resolve, true);
  });
}
