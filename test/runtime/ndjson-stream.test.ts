import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MalformedFrame, MessageEncodingError } from "../../templates/runtime/message-stream.js";
import { ndJsonStream } from "../../templates/runtime/ndjson-stream.js";

const encoder = new TextEncoder();

/** Feed `chunks` as the input of an ndJsonStream and collect every value it yields. */
async function readAll(
  chunks: Array<string | number[]>,
  maxMessageBytes?: number,
): Promise<unknown[]> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks)
        controller.enqueue(typeof c === "string" ? encoder.encode(c) : new Uint8Array(c));
      controller.close();
    },
  });
  const output = new WritableStream<Uint8Array>();
  const reader = ndJsonStream(
    output,
    input,
    maxMessageBytes === undefined ? {} : { maxMessageBytes },
  ).readable.getReader();
  const values: unknown[] = [];
  for (;;) {
    const next = await reader.read();
    if (next.done) return values;
    values.push(next.value);
  }
}

describe("ndJsonStream: reading", () => {
  it("reassembles a multi-byte character split across chunks", async () => {
    const bytes = [...encoder.encode('{"text":"naïve 😀 ok"}\n')];
    const split = bytes.indexOf(0xf0) + 2; // in the middle of the 4-byte emoji
    expect(await readAll([bytes.slice(0, split), bytes.slice(split)])).toEqual([
      { text: "naïve 😀 ok" },
    ]);
  });

  it("accepts CRLF line ends, ignores blank lines, and keeps a last line without newline", async () => {
    expect(await readAll(['{"a":1}\r\n\r\n  \n{"b":', '2}\r\n{"c":3}'])).toEqual([
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
  });

  it("turns a non-JSON line into a parse-error frame and goes on", async () => {
    const values = await readAll(['not json\n{"ok":true}\n']);
    expect(values[0]).toBeInstanceOf(MalformedFrame);
    expect(values[0]).toMatchObject({ problem: "parse-error", size: 8 });
    expect(values[1]).toEqual({ ok: true });
  });

  it("turns a line with invalid UTF-8 into an invalid-utf8 frame instead of guessing", async () => {
    const broken = [...encoder.encode('{"a":"'), 0xc3, 0x28, ...encoder.encode('"}\n')];
    const values = await readAll([broken, '{"b":1}\n']);
    expect(values[0]).toMatchObject({ problem: "invalid-utf8" });
    expect(values[1]).toEqual({ b: 1 });
  });

  it("skips an over-size line as a too-large frame and goes on", async () => {
    const big = `{"pad":"${"x".repeat(200)}"}\n`;
    const values = await readAll([big.slice(0, 100), big.slice(100), '{"small":1}\n'], 64);
    expect(values[0]).toMatchObject({ problem: "too-large", size: big.length - 1 });
    expect(values[1]).toEqual({ small: 1 });
  });

  it("reads several lines of one chunk as it reads each line alone: CR, BOM, blank, bad JSON", async () => {
    // The first line completes what came before; the ones after it are decoded together.
    const chunk = '{"a":1}\r\n\uFEFF{"b":2}\n\r\nnot jsön\r\n\uFEFF\n{"c":3}\n{"d"';
    const values = await readAll([chunk, ":4}\n"]);
    expect(values).toHaveLength(5);
    expect(values.slice(0, 2)).toEqual([{ a: 1 }, { b: 2 }]);
    // 8 characters, one of them two bytes, and the \r: the size counts bytes as received.
    expect(values[2]).toBeInstanceOf(MalformedFrame);
    expect(values[2]).toMatchObject({ problem: "parse-error", size: 10, text: "not jsön" });
    expect(values.slice(3)).toEqual([{ c: 3 }, { d: 4 }]);
  });

  it("refuses only the line with invalid UTF-8 among lines that came in one chunk", async () => {
    const bad = [...encoder.encode('{"a":"'), 0xc3, 0x28, ...encoder.encode('"}\n')];
    const chunk = [...encoder.encode('{"x":0}\n{"y":1}\n'), ...bad, ...encoder.encode('{"z":2}\n')];
    const values = await readAll([chunk]);
    expect(values).toHaveLength(4);
    expect(values[2]).toMatchObject({ problem: "invalid-utf8", size: bad.length - 1 });
    expect([values[0], values[1], values[3]]).toEqual([{ x: 0 }, { y: 1 }, { z: 2 }]);
  });

  it("yields the same values for lines in one chunk as for each line in a chunk of its own", async () => {
    const piece = fc.oneof(
      fc.jsonValue().map((v) => [...encoder.encode(JSON.stringify(v))]),
      fc.string({ unit: "grapheme" }).map((t) => [...encoder.encode(t.replace(/\n/g, ""))]),
      fc.constantFrom([0xef, 0xbb, 0xbf], [0x0d], [0xc3], [0xff], [0x20]),
    );
    const line = fc.array(piece, { maxLength: 3 }).map((parts) => parts.flat());
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), async (lines) => {
        const alone = await readAll(lines.map((l) => [...l, 0x0a]));
        const together = await readAll([lines.flatMap((l) => [...l, 0x0a])]);
        expect(together).toEqual(alone);
      }),
      { numRuns: 300 },
    );
  });

  it("ends when the input ends", async () => {
    expect(await readAll([])).toEqual([]);
  });

  it("refuses a second reader while the first holds the input", () => {
    const { readable } = ndJsonStream(new WritableStream(), new ReadableStream());
    readable.getReader();
    expect(() => readable.getReader()).toThrow(/locked/);
  });
});

describe("ndJsonStream: writing", () => {
  it("writes one compact JSON line per message, escaping newlines inside strings", async () => {
    const written: string[] = [];
    const output = new WritableStream<Uint8Array>({
      write: (chunk) => void written.push(new TextDecoder().decode(chunk)),
    });
    const writer = ndJsonStream(output, new ReadableStream()).writable.getWriter();
    await writer.write({ jsonrpc: "2.0", method: "x", params: { text: "two\nlines" } });
    await writer.write({ jsonrpc: "2.0", id: 1, result: null });
    expect(written).toEqual([
      '{"jsonrpc":"2.0","method":"x","params":{"text":"two\\nlines"}}\n',
      '{"jsonrpc":"2.0","id":1,"result":null}\n',
    ]);
  });

  it("rejects a message JSON cannot encode with a MessageEncodingError, writing nothing", async () => {
    const written: Uint8Array[] = [];
    const output = new WritableStream<Uint8Array>({ write: (chunk) => void written.push(chunk) });
    const writer = ndJsonStream(output, new ReadableStream()).writable.getWriter();
    await expect(
      writer.write({ jsonrpc: "2.0", method: "x", params: { n: 1n } }),
    ).rejects.toBeInstanceOf(MessageEncodingError);
    expect(written).toEqual([]);
  });
});
