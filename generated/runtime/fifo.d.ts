/**
 * A first-in first-out queue with O(1) `push` and `shift` whatever its length.
 *
 * `Array.prototype.shift` moves every remaining element, so a queue built on it costs
 * O(n) per message once a backlog builds up (quadratic over the backlog). Here values live
 * in fixed-size blocks linked head to tail: taking one out moves nothing, and a block is
 * dropped once drained.
 */
export declare class Fifo<T> {
    private head;
    private tail;
    /** Next slot to read in `head`, and next slot to write in `tail`. */
    private readAt;
    private writeAt;
    private count;
    get length(): number;
    push(value: T): void;
    /** The oldest value, removed; undefined when empty. */
    shift(): T | undefined;
    clear(): void;
}
