const platform = globalThis;
function missing(name) {
    return new Error(`acp runtime: this JavaScript platform has no global ${name}`);
}
export function newAbortController() {
    const Controller = platform.AbortController;
    if (!Controller)
        throw missing("AbortController");
    return new Controller();
}
/** A decoder that throws on malformed UTF-8 instead of inserting U+FFFD silently. */
export function strictUtf8Decoder() {
    const Decoder = platform.TextDecoder;
    if (!Decoder)
        throw missing("TextDecoder");
    return new Decoder("utf-8", { fatal: true });
}
/** A decoder that replaces malformed UTF-8 with U+FFFD: for showing input, never for reading it. */
export function lossyUtf8Decoder() {
    const Decoder = platform.TextDecoder;
    if (!Decoder)
        throw missing("TextDecoder");
    return new Decoder("utf-8", { fatal: false });
}
export function utf8Encoder() {
    const Encoder = platform.TextEncoder;
    if (!Encoder)
        throw missing("TextEncoder");
    return new Encoder();
}
/** `console.error` when the platform has a console; a no-op otherwise. */
export function consoleError(...values) {
    platform.console?.error(...values);
}
