import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Frame, LineFramer } from "../../templates/runtime/line-framing.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cut `bytes` at the given offsets (sorted, deduplicated, in range). */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

function frame(chunks: Uint8Array[], max: number): Frame[] {
  const framer = new LineFramer(max);
  return [...chunks.flatMap((c) => framer.push(c)), ...framer.end()];
}

const lines = (frames: Frame[]) =>
  frames.flatMap((f) =>
    f.kind === "oversize"
      ? [`<oversize ${f.size}>`]
      : f.kind === "lines"
        ? decoder.decode(f.bytes).split("\n")
        : [decoder.decode(f.bytes)],
  );

describe("LineFramer", () => {
  it("yields the same lines however the input is chunked (multi-byte characters included)", () => {
    const line = fc.string({ unit: "grapheme" }).map((s) => s.replace(/\n/g, ""));
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (texts, offsets) => {
          const bytes = encoder.encode(texts.map((t) => `${t}\n`).join(""));
          expect(lines(frame(cut(bytes, offsets), 1 << 20))).toEqual(texts);
        },
      ),
    );
  });

  it("hands the whole lines after a chunk's first as one run, only while the run is within the cap", () => {
    const kinds = (frames: Frame[]) => frames.map((f) => f.kind);
    const roomy = new LineFramer(100);
    const frames = roomy.push(encoder.encode("a\nbb\nccc\ndd"));
    expect(kinds(frames)).toEqual(["line", "lines"]);
    expect(lines(frames)).toEqual(["a", "bb", "ccc"]);
    expect(lines(roomy.push(encoder.encode("d\n")))).toEqual(["dddd".slice(1)]);
    // A single line after the first is a line of its own; a run over the cap is split, so
    // no line in a run can be over it.
    expect(kinds(new LineFramer(100).push(encoder.encode("a\nbb\n")))).toEqual(["line", "line"]);
    const tight = new LineFramer(4).push(encoder.encode("a\nbb\nccc\nddddd\n"));
    expect(kinds(tight)).toEqual(["line", "line", "line", "oversize"]);
    expect(lines(tight)).toEqual(["a", "bb", "ccc", "<oversize 5>"]);
  });

  it("keeps a last line that has no newline at end of input", () => {
    expect(lines(frame([encoder.encode('{"a":1}\n{"b"'), encoder.encode(":2}")], 100))).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
  });

  it("reports an over-size line once, without buffering it, and carries on with the next", () => {
    const framer = new LineFramer(8);
    const seen: Frame[] = [];
    seen.push(...framer.push(encoder.encode("ok\n0123456")));
    seen.push(...framer.push(encoder.encode("789abcdef")));
    seen.push(...framer.push(encoder.encode("ghij\nnext\n")));
    expect(lines(seen)).toEqual(["ok", "<oversize 20>", "next"]);
  });

  it("treats a line of exactly the limit as fine and one byte more as over-size", () => {
    expect(lines(frame([encoder.encode("12345678\n123456789\n")], 8))).toEqual([
      "12345678",
      "<oversize 9>",
    ]);
  });

  it("reports an over-size partial line at end of input", () => {
    expect(lines(frame([encoder.encode("short\n"), encoder.encode("x".repeat(50))], 10))).toEqual([
      "short",
      "<oversize 50>",
    ]);
  });

  it("copies what it holds: a source reusing its buffer does not corrupt a pending line", () => {
    const framer = new LineFramer(100);
    const buffer = encoder.encode("abc");
    expect(framer.push(buffer)).toEqual([]);
    buffer.set(encoder.encode("XYZ"));
    expect(lines(framer.push(encoder.encode("def\n")))).toEqual(["abcdef"]);
  });

  it("rejects a nonsensical limit", () => {
    expect(() => new LineFramer(0)).toThrow(RangeError);
    expect(() => new LineFramer(Number.NaN)).toThrow(RangeError);
  });
});
