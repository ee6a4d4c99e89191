import { LineFramer } from "./line-framing.js";
import { MalformedFrame, MessageEncodingError } from "./message-stream.js";
import { strictUtf8Decoder, utf8Encoder } from "./web-globals.js";
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
    const framer = new LineFramer(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    return { readable: lineReadable(input, framer), writable: lineWritable(output) };
}
function lineReadable(input, framer) {
    const decoder = strictUtf8Decoder();
    let locked = false;
    return {
        getReader() {
            if (locked)
                throw new TypeError("ndJsonStream: the readable side is already locked to a reader");
            locked = true;
            const source = input.getReader();
            const ready = [];
            let ended = false;
            return {
                async read() {
                    while (ready.length === 0) {
                        if (ended)
                            return { done: true };
                        const chunk = await source.read();
                        if (chunk.done)
                            ended = true;
                        const frames = chunk.done ? framer.end() : chunk.value ? framer.push(chunk.value) : [];
                        for (const frame of frames) {
                            const value = toValue(frame, decoder);
                            if (value !== SKIP)
                                ready.push(value);
                        }
                    }
                    return { done: false, value: ready.shift() };
                },
                releaseLock() {
                    locked = false;
                    source.releaseLock();
                },
                cancel(reason) {
                    ended = true;
                    ready.length = 0;
                    return source.cancel(reason);
                },
            };
        },
    };
}
/** One line to a JSON value, a {@link MalformedFrame}, or SKIP for a blank line. */
function toValue(frame, decoder) {
    if (frame.kind === "oversize")
        return new MalformedFrame("too-large", frame.size);
    const bytes = frame.bytes[frame.bytes.length - 1] === CR ? frame.bytes.subarray(0, -1) : frame.bytes;
    let text;
    try {
        text = decoder.decode(bytes);
    }
    catch {
        return new MalformedFrame("invalid-utf8", frame.bytes.length);
    }
    if (text.trim() === "")
        return SKIP;
    try {
        return JSON.parse(text);
    }
    catch {
        return new MalformedFrame("parse-error", frame.bytes.length);
    }
}
function lineWritable(output) {
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
                    return sink.write(encoder.encode(`${text}\n`));
                },
                close: () => sink.close(),
                releaseLock: () => sink.releaseLock(),
            };
        },
    };
}
