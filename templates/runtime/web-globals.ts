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

interface Platform {
  AbortController?: new () => AbortControllerLike;
  TextDecoder?: new (
    label: string,
    options: { fatal: boolean; ignoreBOM?: boolean },
  ) => TextDecoderLike;
  TextEncoder?: new () => TextEncoderLike;
  console?: { error(...values: unknown[]): void };
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
