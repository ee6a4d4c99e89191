/**
 * The counters a connection keeps its received notifications and its calls' answers in
 * order with (see `Connection`): notifications are handled one at a time, in the order they
 * arrived, and an answer waits for the notifications received before it, unless one
 * received before its call was sent is still being handled (that handler may be waiting
 * for the answer).
 */
export class NotificationOrder {
  /** Notifications received (queued for their handlers; cancellations are not counted). */
  received = 0;
  /** How many of those have been handled (returned, settled, or dropped). */
  handled = 0;
  /** Pending calls sent while a notification was being handled: input is read on for their answers. */
  awaitable = 0;

  /** A notification handled: bound, to be a promise's callback. */
  readonly countHandled = (): void => {
    this.handled++;
  };

  /**
   * Whether the answer to a call sent after `sentAfter` notifications is delivered as it
   * arrives rather than queued behind them: when they have all been handled, or when one
   * of those received before the call was sent still is.
   */
  answersAtOnce(sentAfter: number): boolean {
    return this.handled === this.received || this.handled < sentAfter;
  }
}
