/**
 * Starts incoming calls in arrival order. A call starts synchronously when nothing waits,
 * so a synchronous `session/update` handler has run before the response that follows it on
 * the wire resolves its call. A call that returns a promise (an asynchronous notification
 * handler) holds back every later call until it settles, so notifications are applied in
 * order; a call that returns nothing (a request handler, started and left running) holds
 * back nothing. Responses never pass through here, so a handler awaiting one of its own
 * requests cannot deadlock.
 */
export declare class ArrivalQueue {
    private readonly waiting;
    private busy;
    /** `start` runs now or after the calls queued before it; it must not reject. */
    push(start: () => Promise<void> | undefined): void;
    private drain;
}
