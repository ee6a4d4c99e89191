import { type JsonRpcId } from "./json-rpc.js";
/** What the first bytes of a message say about it. */
export interface MessageHead {
    /** `method` seen at the top level: a request (with an id) or a notification. */
    readonly method?: boolean;
    /** `result` or `error` seen at the top level: a response. */
    readonly response?: boolean;
    /** The top-level `id`, when it was read whole. */
    readonly id?: JsonRpcId;
}
/**
 * Reads the top-level `id`, and whether there is a `method` or a `result`/`error`, from the
 * start of a JSON text too long to parse (a message over the size limit, of which only the
 * head was kept). Every JSON-RPC implementation seen writes `id` and `method` before
 * `params`, so the head usually says whose request it was, and the caller can be answered
 * with its own id instead of a null one it cannot match.
 *
 * A small tokenizer: it tracks strings and nesting and looks at keys at depth 1 only, so a
 * nested `"id"` inside params is never mistaken for the message's. Anything unexpected
 * ends the scan with what was found so far.
 */
export declare function peek(head: string): MessageHead;
