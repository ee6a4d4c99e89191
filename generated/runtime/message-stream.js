var _a;
/** A unit of input that is not a JSON value. Carries no content: input may hold secrets. */
/**
 * Marks a MalformedFrame across copies of this runtime (two installed versions of the
 * package, or a stream made by one and a connection by another): `instanceof` would miss
 * those, and the frame would be taken for a message. JSON cannot produce symbol keys, so
 * no received value can carry the mark.
 */
const MALFORMED = Symbol.for("acp-codegen.malformed-frame");
export function isMalformedFrame(value) {
    return (typeof value === "object" &&
        value !== null &&
        value[MALFORMED] === true);
}
export class MalformedFrame {
    constructor(problem, size) {
        this[_a] = true;
        this.problem = problem;
        this.size = size;
    }
}
_a = MALFORMED;
/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export class MessageEncodingError extends Error {
    constructor(reason) {
        super(`message cannot be encoded as JSON${reason instanceof Error ? `: ${reason.message}` : ""}`);
        this.name = "MessageEncodingError";
        this.reason = reason;
    }
}
