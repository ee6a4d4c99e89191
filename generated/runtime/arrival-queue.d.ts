/** Calls waiting to start before the connection stops reading its input. */
export declare const HIGH_WATER = 1024;
/** ...and how few must be left waiting before it reads on. */
export declare const LOW_WATER = 256;
/**
 * Starts incoming calls in arrival order. A call starts synchronously when nothing waits,
 * so a synchronous `session/update` handler has run before the message after it is looked
 * at. A call that returns a promise (an asynchronous notification handler) holds back every
 * later call until it settles, so notifications are applied in order; a call that returns
 * nothing (a request handler, started and left running) holds back nothing.
 *
 * Taking a call out costs O(1) however long the queue (see {@link Fifo}), and the queue is
 * bounded from outside: the connection stops reading while {@link whenRoom} says so.
 *
 * The queue holds the calls as data (`T`, the message itself) and starts each with the one
 * `start` function it was made with: nothing is allocated per message to queue it.
 */
export declare class ArrivalQueue<T> {
    private readonly start;
    private readonly waiting;
    private busy;
    private room;
    /** `start` begins one call; it returns a promise when later calls must wait for it, and must not reject. */
    constructor(start: (call: T) => Promise<void> | undefined);
    /** True while a call holds the queue or calls wait to start. */
    get idle(): boolean;
    /** Calls queued and not started yet. */
    get length(): number;
    /** `call` starts now or after the calls queued before it. */
    push(call: T): void;
    /**
     * Undefined while fewer than {@link HIGH_WATER} calls wait; otherwise a promise that
     * resolves once no more than {@link LOW_WATER} do, or at {@link wake}.
     */
    whenRoom(): Promise<void> | undefined;
    /** Resolves a pending {@link whenRoom} now, whatever the queue's length. */
    wake(): void;
    /** Drops every call not started yet (the connection closed). */
    clear(): void;
    private readonly resume;
    private drain;
}
