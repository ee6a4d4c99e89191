/**
 * Starts incoming calls in arrival order. A call starts synchronously when nothing waits,
 * so a synchronous `session/update` handler has run before the response that follows it on
 * the wire resolves its call. A call that returns a promise (an asynchronous notification
 * handler) holds back every later call until it settles, so notifications are applied in
 * order; a call that returns nothing (a request handler, started and left running) holds
 * back nothing. Responses never pass through here, so a handler awaiting one of its own
 * requests cannot deadlock.
 */
export class ArrivalQueue {
    constructor() {
        this.waiting = [];
        this.busy = false;
    }
    /** `start` runs now or after the calls queued before it; it must not reject. */
    push(start) {
        this.waiting.push(start);
        this.drain();
    }
    drain() {
        while (!this.busy && this.waiting.length > 0) {
            const running = this.waiting.shift()?.();
            if (running) {
                this.busy = true;
                void running.then(() => {
                    this.busy = false;
                    this.drain();
                });
            }
        }
    }
}
