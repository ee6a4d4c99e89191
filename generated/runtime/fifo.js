/** Slots per block: big enough that blocks are rare, small enough that a drained one is cheap. */
const BLOCK = 1024;
/**
 * A first-in first-out queue with O(1) `push` and `shift` whatever its length.
 *
 * `Array.prototype.shift` moves every remaining element, so a queue built on it costs
 * O(n) per message once a backlog builds up (quadratic over the backlog). Here values live
 * in fixed-size blocks linked head to tail: taking one out moves nothing, and a block is
 * dropped once drained.
 */
export class Fifo {
    constructor() {
        this.head = { slots: new Array(BLOCK), next: undefined };
        this.tail = this.head;
        /** Next slot to read in `head`, and next slot to write in `tail`. */
        this.readAt = 0;
        this.writeAt = 0;
        this.count = 0;
    }
    get length() {
        return this.count;
    }
    push(value) {
        if (this.writeAt === BLOCK) {
            const block = { slots: new Array(BLOCK), next: undefined };
            this.tail.next = block;
            this.tail = block;
            this.writeAt = 0;
        }
        this.tail.slots[this.writeAt++] = value;
        this.count++;
    }
    /** The oldest value, removed; undefined when empty. */
    shift() {
        if (this.count === 0)
            return undefined;
        if (this.readAt === BLOCK) {
            // `count > 0` means a later block exists.
            this.head = this.head.next;
            this.readAt = 0;
        }
        const slots = this.head.slots;
        const value = slots[this.readAt];
        slots[this.readAt++] = undefined;
        this.count--;
        if (this.count === 0) {
            // Empty: rewind into the current block rather than walking on to fresh ones.
            this.head = this.tail;
            this.readAt = 0;
            this.writeAt = 0;
        }
        return value;
    }
    clear() {
        this.head = { slots: new Array(BLOCK), next: undefined };
        this.tail = this.head;
        this.readAt = 0;
        this.writeAt = 0;
        this.count = 0;
    }
}
