/**
 * Structural views of the few web-platform APIs the connection layer touches.
 *
 * The generated package is type-checked by consumers with `lib: es2020` alone, with the DOM
 * lib, with @types/node, or both. None of those setups agree on where `ReadableStream` or
 * `AbortSignal` come from, so our declarations never name the platform types directly for
 * inputs: they describe the handful of members we call, which every real implementation
 * (browser, Node's `stream/web`, Deno, Bun) satisfies structurally.
 */
export {};
