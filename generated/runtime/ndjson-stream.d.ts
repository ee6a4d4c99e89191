import { type MessageStream } from "./message-stream.js";
import type { ReadableLike, WritableLike } from "./web-types.js";
/** Default cap on one incoming line: large enough for prompts with embedded images. */
export declare const DEFAULT_MAX_MESSAGE_BYTES: number;
export interface NdJsonStreamOptions {
    /**
     * Longest message, in bytes before its newline, in either direction (default 32 MiB).
     * A longer incoming line is skipped without being buffered and reported to the connection
     * as a `too-large` `MalformedFrame`; a longer outgoing message is not written, and its
     * call fails with a `MessageTooLargeError`. (Named, not linked: `PKG/node`'s
     * `SpawnAgentOptions` inherits this text, and that entry point exports neither.)
     */
    readonly maxMessageBytes?: number;
}
/**
 * The ACP stdio transport: one JSON-RPC message per line, UTF-8, `\n` separated (a `\r`
 * before the `\n` is tolerated, blank lines are ignored, a last line without a newline at
 * end of input still counts). `output` receives what this side sends; `input` is what the
 * peer sends. Only `getWriter()`/`getReader()` are used, so web streams from any platform
 * (for Node: `Writable.toWeb(process.stdout)`, `Readable.toWeb(process.stdin)`) fit.
 */
export declare function ndJsonStream(output: WritableLike<Uint8Array>, input: ReadableLike<Uint8Array>, options?: NdJsonStreamOptions): MessageStream;
