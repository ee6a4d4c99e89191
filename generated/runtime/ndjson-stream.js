import { LineFramer } from "./line-framing.js";
import { MalformedFrame, MessageEncodingError, MessageTooLargeError, } from "./message-stream.js";
import { peek } from "./peek.js";
import { lossyUtf8Decoder, strictUtf8Decoder, utf8Encoder } from "./web-globals.js";
/** Default cap on one incoming line: large enough for prompts with embedded images. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
const CR = 0x0d;
const SKIP = Symbol("blank line");
/**
 * The ACP stdio transport: one JSON-RPC message per line, UTF-8, `\n` separated (a `\r`
 * before the `\n` is tolerated, blank lines are ignored, a last line without a newline at
 * end of input still counts). `output` receives what this side sends; `input` is what the
 * peer sends. Only `getWriter()`/`getReader()` are used, so web streams from any platform
 * (for Node: `Writable.toWeb(process.stdout)`, `Readable.toWeb(process.stdin)`) fit.
 */
export function ndJsonStream(output, input, options = {}) {
    const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const framer = new LineFramer(limit);
    return { readable: lineReadable(input, framer, limit), writable: lineWritable(output, limit) };
}
function lineReadable(input, framer, limit) {
    const decoder = strictUtf8Decoder();
    let locked = false;
    return {
        getReader() {
            if (locked)
                throw new TypeError("ndJsonStream: the readable side is already locked to a reader");
            locked = true;
            const source = input.getReader();
            // The frames of the last chunk, taken in order by index: O(1) per message.
            let frames = [];
            let next = 0;
            let ended = false;
            return {
                async read() {
                    for (;;) {
                        while (next < frames.length) {
                            const value = toValue(frames[next++], decoder, limit);
                            if (value !== SKIP)
                                return { done: false, value };
                        }
                        frames = [];
                        next = 0;
                        if (ended)
                            return { done: true };
                        const chunk = await source.read();
                        if (chunk.done) {
                            ended = true;
                            frames = framer.end();
                        }
                        else if (chunk.value) {
                            frames = framer.push(chunk.value);
                        }
                    }
                },
                releaseLock() {
                    locked = false;
                    source.releaseLock();
                },
                cancel(reason) {
                    ended = true;
                    frames = [];
                    return source.cancel(reason);
                },
            };
        },
    };
}
/** One line to a JSON value, a {@link MalformedFrame}, or SKIP for a blank line. */
function toValue(frame, decoder, limit) {
    if (frame.kind === "oversize") {
        const peeked = peek(lossyUtf8Decoder().decode(frame.head));
        return new MalformedFrame("too-large", frame.size, { peek: peeked, limit });
    }
    const bytes = frame.bytes[frame.bytes.length - 1] === CR ? frame.bytes.subarray(0, -1) : frame.bytes;
    let text;
    try {
        text = decoder.decode(bytes);
    }
    catch {
        return new MalformedFrame("invalid-utf8", frame.bytes.length, {
            text: lossyUtf8Decoder().decode(bytes),
        });
    }
    if (text.trim() === "")
        return SKIP;
    try {
        return JSON.parse(text);
    }
    catch {
        return new MalformedFrame("parse-error", frame.bytes.length, { text });
    }
}
function lineWritable(output, limit) {
    const encoder = utf8Encoder();
    return {
        getWriter() {
            const sink = output.getWriter();
            return {
                write(message) {
                    let text;
                    try {
                        text = JSON.stringify(message);
                    }
                    catch (error) {
                        return Promise.reject(new MessageEncodingError(error));
                    }
                    if (text === undefined)
                        return Promise.reject(new MessageEncodingError(undefined));
                    // JSON.stringify escapes every control character, so the only newline is ours.
                    const bytes = encoder.encode(`${text}\n`);
                    if (bytes.length - 1 > limit)
                        return Promise.reject(new MessageTooLargeError(describe(message), bytes.length - 1, limit));
                    return sink.write(bytes);
                },
                close: () => sink.close(),
                releaseLock: () => sink.releaseLock(),
            };
        },
    };
}
/** What a message is, for an error message: never its content. */
function describe(message) {
    if ("method" in message)
        return "id" in message ? `the ${message.method} request` : `the ${message.method} notification`;
    return `the answer to request ${JSON.stringify(message.id)}`;
}
