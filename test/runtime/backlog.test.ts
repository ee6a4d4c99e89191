import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type { MessageStream } from "../../templates/runtime/message-stream.js";
import { deferred, RawPeer, SERVER_TABLES } from "./support.js";

/**
 * Dispatch under a backlog: a handler slower than the pipe makes incoming messages pile up,
 * and taking each one out of the pile must cost the same however big the pile is. The cost
 * is counted, not timed: every array operation that moves elements (`shift`, `unshift`,
 * `splice`) adds the number of elements it moves, which is what makes a queue built on
 * `Array.prototype.shift` quadratic.
 */

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** Runs `body` while counting the array elements that shift/unshift/splice move. */
async function countMoves(body: () => Promise<void>): Promise<number> {
  const proto = Array.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = { shift: proto.shift, unshift: proto.unshift, splice: proto.splice };
  let moved = 0;
  proto.shift = function (this: unknown[]) {
    moved += Math.max(0, this.length - 1);
    return originals.shift?.call(this);
  };
  proto.unshift = function (this: unknown[], ...items: unknown[]) {
    moved += this.length;
    return originals.unshift?.apply(this, items);
  };
  proto.splice = function (this: unknown[], ...args: unknown[]) {
    const length = this.length;
    const start = Math.min(length, Math.max(0, Number(args[0] ?? 0)));
    const deleted = args.length < 2 ? length - start : Math.max(0, Number(args[1]));
    if (deleted !== args.length - 2) moved += Math.max(0, length - start - deleted);
    return originals.splice?.apply(this, args);
  };
  try {
    await body();
  } finally {
    Object.assign(proto, originals);
  }
  return moved;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("dispatch cost under a backlog", { timeout: 60_000 }, () => {
  it("moves O(1) array elements per message while a one-turn handler falls behind", async () => {
    const count = 20_000;
    let handled = 0;
    const peer = new RawPeer();
    const connection = new Connection(SERVER_TABLES, peer.stream, { log: () => {} });
    connection.serve({
      async line() {
        await turn();
        handled++;
      },
      add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }),
    });
    open.push(connection);
    const line = `${JSON.stringify({ jsonrpc: "2.0", method: "log/line", params: { line: "x" } })}\n`;
    const moved = await countMoves(async () => {
      // One write: the whole backlog is on the pipe before the first handler settles.
      void peer.send(
        `${line.repeat(count)}${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1, b: 1 } })}\n`,
      );
      // The request after the notifications starts once they were all handled.
      expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sum: 2 } });
    });
    expect(handled).toBe(count);
    expect(moved).toBeLessThan(8 * count);
  });

  it("stops pulling from the stream while a handler is stuck, instead of buffering the backlog", async () => {
    const count = 10_000;
    let pulled = 0;
    const gate = deferred();
    let handled = 0;
    const done = deferred();
    const stream: MessageStream = {
      readable: new ReadableStream<unknown>(
        {
          pull(controller) {
            if (pulled === count) return new Promise(() => {});
            pulled++;
            controller.enqueue({ jsonrpc: "2.0", method: "log/line", params: { line: "x" } });
          },
        },
        { highWaterMark: 0 },
      ),
      writable: new WritableStream(),
    };
    const connection = new Connection(SERVER_TABLES, stream, { log: () => {} });
    connection.serve({
      async line() {
        if (handled === 0) await gate.promise;
        if (++handled === count) done.resolve();
      },
    });
    open.push(connection);
    for (let i = 0; i < 20; i++) await turn();
    const pulledWhileStuck = pulled;
    gate.resolve();
    await done.promise;
    expect(pulled).toBe(count);
    expect(pulledWhileStuck).toBeLessThan(2_000);
  });

  it("keeps reading past its buffer when a stuck notification handler awaits its own request", async () => {
    const backlog = 5_000;
    let connection!: Connection;
    let handled = 0;
    const done = deferred();
    const peer = new RawPeer();
    connection = new Connection(SERVER_TABLES, peer.stream, { log: () => {} });
    connection.serve({
      async line(p: { line: string }) {
        if (p.line === "first") await connection.request("echo/ping", { n: 1 });
        if (++handled === backlog + 1) done.resolve();
      },
    });
    open.push(connection);
    await peer.send({ jsonrpc: "2.0", method: "log/line", params: { line: "first" } });
    const ping = (await peer.next()) as { id: number };
    const line = `${JSON.stringify({ jsonrpc: "2.0", method: "log/line", params: { line: "x" } })}\n`;
    // The answer comes only after a backlog longer than any buffer.
    void peer.send(
      `${line.repeat(backlog)}${JSON.stringify({ jsonrpc: "2.0", id: ping.id, result: { n: 1 } })}\n`,
    );
    await done.promise;
    expect(handled).toBe(backlog + 1);
  });
});
