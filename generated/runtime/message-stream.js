var _a, _b, _c, _d;
/**
 * Marks a MalformedFrame across copies of this runtime (two installed versions of the
 * package, or a stream made by one and a connection by another): `instanceof` would miss
 * those, and the frame would be taken for a message. JSON cannot produce symbol keys, so
 * no received value can carry the mark.
 */
const MALFORMED = Symbol.for("acp-codegen.malformed-frame");
export function isMalformedFrame(value) {
    return hasMark(value, MALFORMED);
}
/** Whether `value` carries `mark`: a brand that holds across copies of this runtime. */
function hasMark(value, mark) {
    return (typeof value === "object" &&
        value !== null &&
        value[mark] === true);
}
/** A unit of input that is not a JSON value (or too large to be read as one). */
export class MalformedFrame {
    constructor(problem, size, detail = {}) {
        this[_a] = true;
        this.problem = problem;
        this.size = size;
        if (detail.text !== undefined)
            this.text = detail.text;
        if (detail.peek !== undefined)
            this.peek = detail.peek;
        if (detail.limit !== undefined)
            this.limit = detail.limit;
    }
}
_a = MALFORMED;
/**
 * Marks the errors a transport raises for one outgoing message it refuses (it cannot be
 * encoded, or it is over the size limit), across copies of this runtime like
 * {@link MalformedFrame}: such an error fails that one call, never the connection.
 */
const REFUSED = Symbol.for("acp-codegen.refused-message");
export function isRefusedMessage(error) {
    return (typeof error === "object" &&
        error !== null &&
        error[REFUSED] === true);
}
/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export class MessageEncodingError extends Error {
    constructor(reason) {
        super(`message cannot be encoded as JSON${reason instanceof Error ? `: ${reason.message}` : ""}`);
        this.name = "MessageEncodingError";
        this[_b] = true;
        this.reason = reason;
    }
}
_b = REFUSED;
/**
 * An outgoing message over the transport's size limit: refused before anything is written,
 * so it fails that one call only. (Sent anyway, it would be skipped by a peer with the same
 * limit, which cannot tell whose request it was.)
 */
export class MessageTooLargeError extends Error {
    constructor(what, size, limit) {
        super(`${what} is ${size} bytes encoded, over the limit of ${limit} bytes`);
        this.name = "MessageTooLargeError";
        this[_c] = true;
        this.size = size;
        this.limit = limit;
    }
}
_c = REFUSED;
/**
 * Marks an {@link InputEndedError} across copies of this runtime, like {@link MalformedFrame}.
 */
const INPUT_ENDED = Symbol.for("acp-codegen.input-ended");
export function isInputEnded(error) {
    return hasMark(error, INPUT_ENDED);
}
/**
 * What a transport's reader (or writer) rejects with, instead of ending quietly, when it
 * knows why the input ended: the process behind it exited, say. The connection then
 * closes as at end of input, with this error as the reason, so the rejection of every
 * pending call says what happened.
 */
export class InputEndedError extends Error {
    constructor() {
        super(...arguments);
        this.name = "InputEndedError";
        this[_d] = true;
    }
}
_d = INPUT_ENDED;
