import type { JsonRpcBatch, JsonRpcMessage } from "./json-rpc.js";
import type { MessageStream } from "./message-stream.js";
import type { StreamReader, StreamReadResult, StreamWriter } from "./web-types.js";

/**
 * What both routers (router.ts) do with a stream: hold it while they read the handshake,
 * then hand it to the connection of the version chosen, so that the connection reads and
 * writes exactly what it would have on the stream itself. Nothing is read twice, nothing
 * read is lost, nothing is parsed again: the values handed over are the ones read.
 */

/** A stream's reader and writer, taken once by a router and shared with the connection it hands them to. */
export interface HeldStream {
  readonly reader: StreamReader<unknown>;
  readonly writer: StreamWriter<JsonRpcMessage | JsonRpcBatch>;
}

/** Takes both ends of `stream` (each can be taken once). */
export function hold(stream: MessageStream): HeldStream {
  const reader = stream.readable.getReader();
  let writer: StreamWriter<JsonRpcMessage | JsonRpcBatch>;
  try {
    writer = stream.writable.getWriter();
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
  return { reader, writer };
}

/**
 * How the connection's first message is answered when the router already had the
 * exchange it starts: the client's router sent `initialize` and read the answer before the
 * connection existed. `answers` looks at each message the connection writes until it
 * returns what to read in place of the answer (then that message is not sent).
 */
export type Swallow = (message: JsonRpcMessage | JsonRpcBatch) => readonly unknown[] | undefined;

/**
 * The stream a connection gets from a router: its reads start with `replay` (once
 * `swallow`, if given, took the message it waits for), then go on with the held input;
 * its writes go to the held output. One reader and one writer at a time, like a web stream.
 */
export function handOver(
  held: HeldStream,
  replay: readonly unknown[],
  swallow?: Swallow,
): MessageStream {
  const queue = [...replay];
  let waiting: Swallow | undefined = swallow;
  let released: (() => void) | undefined;
  const swallowed = swallow
    ? new Promise<void>((resolve) => {
        released = resolve;
      })
    : undefined;
  let reading = false;
  let writing = false;
  const reader: StreamReader<unknown> = {
    async read(): Promise<StreamReadResult<unknown>> {
      if (waiting) await swallowed;
      if (queue.length > 0) return { done: false, value: queue.shift() };
      return held.reader.read();
    },
    releaseLock() {
      reading = false;
    },
    cancel(reason?: unknown) {
      queue.length = 0;
      waiting = undefined;
      released?.();
      return held.reader.cancel(reason);
    },
  };
  const writer: StreamWriter<JsonRpcMessage | JsonRpcBatch> = {
    write(message) {
      if (waiting) {
        const instead = waiting(message);
        if (instead) {
          waiting = undefined;
          queue.push(...instead);
          released?.();
          return Promise.resolve();
        }
      }
      return held.writer.write(message);
    },
    close: () => held.writer.close(),
    releaseLock() {
      writing = false;
    },
  };
  return {
    readable: {
      getReader() {
        if (reading) throw new TypeError("the routed stream's readable side is already locked");
        reading = true;
        return reader;
      },
    },
    writable: {
      getWriter() {
        if (writing) throw new TypeError("the routed stream's writable side is already locked");
        writing = true;
        return writer;
      },
    },
  };
}

/** Ends a held stream that no connection will take: input cancelled, output closed. */
export async function release(held: HeldStream, reason?: unknown): Promise<void> {
  await Promise.allSettled([held.reader.cancel(reason), held.writer.close()]);
}
