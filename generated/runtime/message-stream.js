/** A unit of input that is not a JSON value. Carries no content: input may hold secrets. */
export class MalformedFrame {
    constructor(problem, size) {
        this.problem = problem;
        this.size = size;
    }
}
/** An outgoing message that cannot be serialised (a BigInt, a cycle): fails that one call only. */
export class MessageEncodingError extends Error {
    constructor(reason) {
        super(`message cannot be encoded as JSON${reason instanceof Error ? `: ${reason.message}` : ""}`);
        this.name = "MessageEncodingError";
        this.reason = reason;
    }
}
