/**
 * Splits a byte stream into newline-terminated lines, at the byte level.
 *
 * Splitting before decoding is what makes the framing robust: byte 0x0A never occurs inside
 * a multi-byte UTF-8 sequence, so a character split across two chunks is simply reassembled
 * with its line, and the size cap counts exactly the bytes that would be buffered.
 */
/** Bytes kept from the start of an over-size line: enough to find its id and method. */
export declare const OVERSIZE_HEAD_BYTES = 512;
export type Frame = {
    readonly kind: "line";
    readonly bytes: Uint8Array;
}
/**
 * Several whole lines that arrived in one chunk, none over the cap: `bytes` holds them with
 * the newlines between them (not the last one), so a reader can decode them in one call.
 */
 | {
    readonly kind: "lines";
    readonly bytes: Uint8Array;
}
/**
 * A line longer than the cap; its bytes were discarded as they arrived, never buffered,
 * except the first {@link OVERSIZE_HEAD_BYTES}.
 */
 | {
    readonly kind: "oversize";
    readonly size: number;
    readonly head: Uint8Array;
};
export declare class LineFramer {
    private readonly maxLineBytes;
    /** Pieces of the current, unterminated line (copies: the source may reuse its buffers). */
    private pieces;
    private pending;
    /** Set while skipping the rest of an over-size line: how many bytes it has had so far. */
    private skipped;
    /** The start of the over-size line being skipped. */
    private head;
    constructor(maxLineBytes: number);
    /**
     * The lines `chunk` completes, in order; the rest waits for a later chunk or `end()`. The
     * first completes what earlier chunks left; the ones after it lie wholly in `chunk`, and
     * come as one `lines` frame when there are several and together they are within the cap
     * (then each one is).
     */
    push(chunk: Uint8Array): Frame[];
    /** End of input: a last line without its newline still counts. */
    end(): Frame[];
    private hold;
    private finish;
    /** The first OVERSIZE_HEAD_BYTES of the held pieces followed by `tail`, copied. */
    private headOf;
    private join;
}
/** The `line` frames of a `lines` frame's bytes: for a reader that cannot take them in one piece. */
export declare function splitLines(bytes: Uint8Array): Frame[];
