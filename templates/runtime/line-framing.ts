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

export type Frame =
  | { readonly kind: "line"; readonly bytes: Uint8Array }
  /**
   * Several whole lines that arrived in one chunk, none over the cap: `bytes` holds them with
   * the newlines between them (not the last one), so a reader can decode them in one call.
   */
  | { readonly kind: "lines"; readonly bytes: Uint8Array }
  /**
   * A line longer than the cap; its bytes were discarded as they arrived, never buffered,
   * except the first {@link OVERSIZE_HEAD_BYTES}.
   */
  | { readonly kind: "oversize"; readonly size: number; readonly head: Uint8Array };

export class LineFramer {
  private readonly maxLineBytes: number;
  /** Pieces of the current, unterminated line (copies: the source may reuse its buffers). */
  private pieces: Uint8Array[] = [];
  private pending = 0;
  /** Set while skipping the rest of an over-size line: how many bytes it has had so far. */
  private skipped: number | undefined;
  /** The start of the over-size line being skipped. */
  private head: Uint8Array = new Uint8Array(0);

  constructor(maxLineBytes: number) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${maxLineBytes}`);
    }
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * The lines `chunk` completes, in order; the rest waits for a later chunk or `end()`. The
   * first completes what earlier chunks left; the ones after it lie wholly in `chunk`, and
   * come as one `lines` frame when there are several and together they are within the cap
   * (then each one is).
   */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    const first = chunk.indexOf(LF);
    if (first === -1) {
      this.hold(chunk);
      return frames;
    }
    frames.push(this.finish(chunk.subarray(0, first)));
    let start = first + 1;
    // No byte is scanned twice: forward to the end of the next line (to the chunk's end when
    // there is none, as in the middle of a long message), then back over the unfinished tail.
    const second = chunk.indexOf(LF, start);
    if (second !== -1) {
      const last = chunk.lastIndexOf(LF);
      if (second < last && last - start <= this.maxLineBytes) {
        frames.push({ kind: "lines", bytes: chunk.subarray(start, last) });
        start = last + 1;
      } else {
        for (let newline = second; newline !== -1; newline = chunk.indexOf(LF, start)) {
          frames.push(this.finish(chunk.subarray(start, newline)));
          start = newline + 1;
        }
      }
    }
    this.hold(chunk.subarray(start));
    return frames;
  }

  /** End of input: a last line without its newline still counts. */
  end(): Frame[] {
    if (this.skipped === undefined && this.pending === 0) return [];
    return [this.finish(new Uint8Array(0))];
  }

  private hold(rest: Uint8Array): void {
    if (rest.length === 0) return;
    if (this.skipped !== undefined) {
      this.skipped += rest.length;
    } else if (this.pending + rest.length > this.maxLineBytes) {
      this.skipped = this.pending + rest.length;
      this.head = this.headOf(rest);
      this.pieces = [];
      this.pending = 0;
    } else {
      this.pieces.push(rest.slice());
      this.pending += rest.length;
    }
  }

  private finish(tail: Uint8Array): Frame {
    const size = (this.skipped ?? this.pending) + tail.length;
    const oversize = this.skipped !== undefined || size > this.maxLineBytes;
    let frame: Frame;
    if (!oversize) frame = { kind: "line", bytes: this.join(tail) };
    else if (this.skipped !== undefined) frame = { kind: "oversize", size, head: this.head };
    else frame = { kind: "oversize", size, head: this.headOf(tail) };
    this.pieces = [];
    this.pending = 0;
    this.skipped = undefined;
    this.head = new Uint8Array(0);
    return frame;
  }

  /** The first OVERSIZE_HEAD_BYTES of the held pieces followed by `tail`, copied. */
  private headOf(tail: Uint8Array): Uint8Array {
    const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, this.pending + tail.length));
    let offset = 0;
    for (const piece of [...this.pieces, tail]) {
      if (offset === head.length) break;
      const part = piece.subarray(0, head.length - offset);
      head.set(part, offset);
      offset += part.length;
    }
    return head;
  }

  private join(tail: Uint8Array): Uint8Array {
    if (this.pieces.length === 0) return tail;
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

/** The `line` frames of a `lines` frame's bytes: for a reader that cannot take them in one piece. */
export function splitLines(bytes: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  let start = 0;
  for (let newline = bytes.indexOf(LF); newline !== -1; newline = bytes.indexOf(LF, start)) {
    frames.push({ kind: "line", bytes: bytes.subarray(start, newline) });
    start = newline + 1;
  }
  frames.push({ kind: "line", bytes: bytes.subarray(start) });
  return frames;
}
