/**
 * Splits a byte stream into newline-terminated lines, at the byte level.
 *
 * Splitting before decoding is what makes the framing robust: byte 0x0A never occurs inside
 * a multi-byte UTF-8 sequence, so a character split across two chunks is simply reassembled
 * with its line, and the size cap counts exactly the bytes that would be buffered.
 */
const LF = 0x0a;
/** Bytes kept from the start of an over-size line: enough to find its id and method. */
export const OVERSIZE_HEAD_BYTES = 512;
export class LineFramer {
    constructor(maxLineBytes) {
        /** Pieces of the current, unterminated line (copies: the source may reuse its buffers). */
        this.pieces = [];
        this.pending = 0;
        /** The start of the over-size line being skipped. */
        this.head = new Uint8Array(0);
        if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
            throw new RangeError(`maxMessageBytes must be a positive integer, got ${maxLineBytes}`);
        }
        this.maxLineBytes = maxLineBytes;
    }
    /** The lines `chunk` completes, in order; the rest waits for a later chunk or `end()`. */
    push(chunk) {
        const frames = [];
        let start = 0;
        for (let newline = chunk.indexOf(LF); newline !== -1; newline = chunk.indexOf(LF, start)) {
            frames.push(this.finish(chunk.subarray(start, newline)));
            start = newline + 1;
        }
        this.hold(chunk.subarray(start));
        return frames;
    }
    /** End of input: a last line without its newline still counts. */
    end() {
        if (this.skipped === undefined && this.pending === 0)
            return [];
        return [this.finish(new Uint8Array(0))];
    }
    hold(rest) {
        if (rest.length === 0)
            return;
        if (this.skipped !== undefined) {
            this.skipped += rest.length;
        }
        else if (this.pending + rest.length > this.maxLineBytes) {
            this.skipped = this.pending + rest.length;
            this.head = this.headOf(rest);
            this.pieces = [];
            this.pending = 0;
        }
        else {
            this.pieces.push(rest.slice());
            this.pending += rest.length;
        }
    }
    finish(tail) {
        const size = (this.skipped ?? this.pending) + tail.length;
        const oversize = this.skipped !== undefined || size > this.maxLineBytes;
        let frame;
        if (!oversize)
            frame = { kind: "line", bytes: this.join(tail) };
        else if (this.skipped !== undefined)
            frame = { kind: "oversize", size, head: this.head };
        else
            frame = { kind: "oversize", size, head: this.headOf(tail) };
        this.pieces = [];
        this.pending = 0;
        this.skipped = undefined;
        this.head = new Uint8Array(0);
        return frame;
    }
    /** The first OVERSIZE_HEAD_BYTES of the held pieces followed by `tail`, copied. */
    headOf(tail) {
        const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, this.pending + tail.length));
        let offset = 0;
        for (const piece of [...this.pieces, tail]) {
            if (offset === head.length)
                break;
            const part = piece.subarray(0, head.length - offset);
            head.set(part, offset);
            offset += part.length;
        }
        return head;
    }
    join(tail) {
        if (this.pieces.length === 0)
            return tail;
        const line = new Uint8Array(this.pending + tail.length);
        let offset = 0;
        for (const piece of this.pieces) {
            line.set(piece, offset);
            offset += piece.length;
        }
        line.set(tail, offset);
        return line;
    }
}
