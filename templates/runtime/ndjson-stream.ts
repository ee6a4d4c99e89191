import type { JsonRpcBatch, JsonRpcMessage } from "./json-rpc.js";
import { type Frame, LineFramer, splitLines } from "./line-framing.js";
import {
  MalformedFrame,
  MessageEncodingError,
  type MessageStream,
  MessageTooLargeError,
} from "./message-stream.js";
import { peek } from "./peek.js";
import { lossyUtf8Decoder, strictUtf8Decoder, utf8Encoder } from "./web-globals.js";
import type {
  ReadableLike,
  StreamReader,
  StreamReadResult,
  StreamWriter,
  WritableLike,
} from "./web-types.js";

/** Default cap on one incoming line: large enough for prompts with embedded images. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

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

const CR = 0x0d;
const BOM = 0xfeff;
const SKIP: unique symbol = Symbol("blank line");

/**
 * The ACP stdio transport: one JSON-RPC message per line, UTF-8, `\n` separated (a `\r`
 * before the `\n` is tolerated, blank lines are ignored, a last line without a newline at
 * end of input still counts). `output` receives what this side sends; `input` is what the
 * peer sends. Only `getWriter()`/`getReader()` are used, so web streams from any platform
 * (for Node: `Writable.toWeb(process.stdout)`, `Readable.toWeb(process.stdin)`) fit.
 */
export function ndJsonStream(
  output: WritableLike<Uint8Array>,
  input: ReadableLike<Uint8Array>,
  options: NdJsonStreamOptions = {},
): MessageStream {
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const framer = new LineFramer(limit);
  return { readable: lineReadable(input, framer, limit), writable: lineWritable(output, limit) };
}

function lineReadable(
  input: ReadableLike<Uint8Array>,
  framer: LineFramer,
  limit: number,
): ReadableLike<unknown> {
  const decoder = strictUtf8Decoder();
  // For `lines` frames: several lines decoded in one call, each line's BOM dropped as
  // `decoder` drops it from a line of its own (see textValue).
  const runDecoder = strictUtf8Decoder(true);
  const encoder = utf8Encoder();
  let locked = false;
  return {
    getReader(): StreamReader<unknown> {
      if (locked)
        throw new TypeError("ndJsonStream: the readable side is already locked to a reader");
      locked = true;
      const source = input.getReader();
      // The frames of the last chunk, taken in order by index: O(1) per message.
      let frames: Frame[] = [];
      let next = 0;
      // The text of the `lines` frame being read, and where its next line starts.
      let run: string | undefined;
      let at = 0;
      let ended = false;
      return {
        async read(): Promise<StreamReadResult<unknown>> {
          for (;;) {
            while (run !== undefined) {
              const end = run.indexOf("\n", at);
              const line = end === -1 ? run.slice(at) : run.slice(at, end);
              if (end === -1) run = undefined;
              else at = end + 1;
              const value = textValue(line, encoder);
              if (value !== SKIP) return { done: false, value };
            }
            if (next < frames.length) {
              const frame = frames[next++] as Frame;
              if (frame.kind === "lines") {
                at = 0;
                run = decodeRun(frame.bytes, runDecoder);
                // Not valid UTF-8 somewhere: line by line, so only the bad line is refused.
                if (run === undefined) frames.splice(next, 0, ...splitLines(frame.bytes));
                continue;
              }
              const value = toValue(frame, decoder, limit);
              if (value !== SKIP) return { done: false, value };
              continue;
            }
            frames = [];
            next = 0;
            if (ended) return { done: true };
            const chunk = await source.read();
            if (chunk.done) {
              ended = true;
              frames = framer.end();
            } else if (chunk.value) {
              frames = framer.push(chunk.value);
            }
          }
        },
        releaseLock(): void {
          locked = false;
          source.releaseLock();
        },
        cancel(reason?: unknown): Promise<void> {
          ended = true;
          frames = [];
          run = undefined;
          return source.cancel(reason);
        },
      };
    },
  };
}

/** Whole lines decoded in one call; undefined when they are not all valid UTF-8. */
function decodeRun(bytes: Uint8Array, decoder: { decode(bytes: Uint8Array): string }) {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * One line of a decoded `lines` frame (BOM kept) to what {@link toValue} makes of the same
 * line on its own: the `\r` before the newline and a leading BOM dropped, blank skipped, and
 * the size of a line that is not JSON counted in bytes as received.
 */
function textValue(line: string, encoder: { encode(text: string): Uint8Array }): unknown {
  let text = line;
  if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  if (text.trim() === "") return SKIP;
  try {
    return JSON.parse(text);
  } catch {
    return new MalformedFrame("parse-error", encoder.encode(line).length, { text });
  }
}

/** One line to a JSON value, a {@link MalformedFrame}, or SKIP for a blank line. */
function toValue(
  frame: Exclude<Frame, { kind: "lines" }>,
  decoder: { decode(bytes: Uint8Array): string },
  limit: number,
): unknown {
  if (frame.kind === "oversize") {
    const peeked = peek(lossyUtf8Decoder().decode(frame.head));
    return new MalformedFrame("too-large", frame.size, { peek: peeked, limit });
  }
  const bytes =
    frame.bytes[frame.bytes.length - 1] === CR ? frame.bytes.subarray(0, -1) : frame.bytes;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return new MalformedFrame("invalid-utf8", frame.bytes.length, {
      text: lossyUtf8Decoder().decode(bytes),
    });
  }
  if (text.trim() === "") return SKIP;
  try {
    return JSON.parse(text);
  } catch {
    return new MalformedFrame("parse-error", frame.bytes.length, { text });
  }
}

function lineWritable(
  output: WritableLike<Uint8Array>,
  limit: number,
): WritableLike<JsonRpcMessage | JsonRpcBatch> {
  const encoder = utf8Encoder();
  return {
    getWriter(): StreamWriter<JsonRpcMessage | JsonRpcBatch> {
      const sink = output.getWriter();
      return {
        // A batch is one line, as JSON-RPC's batch array (v2's stdio carries them so).
        write(message: JsonRpcMessage | JsonRpcBatch): Promise<void> {
          let text: string | undefined;
          try {
            text = JSON.stringify(message);
          } catch (error) {
            return Promise.reject(new MessageEncodingError(error));
          }
          if (text === undefined) return Promise.reject(new MessageEncodingError(undefined));
          // JSON.stringify escapes every control character, so the only newline is ours.
          const bytes = encoder.encode(`${text}\n`);
          if (bytes.length - 1 > limit)
            return Promise.reject(
              new MessageTooLargeError(describe(message), bytes.length - 1, limit),
            );
          return sink.write(bytes);
        },
        close: () => sink.close(),
        releaseLock: () => sink.releaseLock(),
      };
    },
  };
}

/** What a message is, for an error message: never its content. */
function describe(message: JsonRpcMessage | JsonRpcBatch): string {
  if (isBatch(message)) return `a batch of ${message.length} messages`;
  if ("method" in message)
    return "id" in message ? `the ${message.method} request` : `the ${message.method} notification`;
  return `the answer to request ${JSON.stringify(message.id)}`;
}

function isBatch(message: JsonRpcMessage | JsonRpcBatch): message is JsonRpcBatch {
  return Array.isArray(message);
}
