import { afterEach, describe, expect, it, vi } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type {
  ConnectionOptions,
  MethodTables,
  TraceEvent,
} from "../../templates/runtime/connection-types.js";
import {
  CALLER_TABLES,
  deferred,
  RawPeer,
  recorder,
  SERVER_TABLES,
  streamPair,
} from "./support.js";

/**
 * JSON-RPC batches on a connection whose tables allow them (ACP v2: the generated v2
 * connections pass `batches: true`), against the rules of JSON-RPC 2.0 as ACP v2's
 * transports document restates them; and the refusal a connection without them keeps.
 */

const BATCHING: MethodTables = { ...SERVER_TABLES, batches: true };
const BATCHING_CALLER: MethodTables = { ...CALLER_TABLES, batches: true };

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const server = {
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  line: () => {},
  wait: () => ({}),
};

function facingRaw(
  handlers: object = server,
  options: ConnectionOptions = {},
  tables: MethodTables = BATCHING,
) {
  const peer = new RawPeer();
  const connection = new Connection(tables, peer.stream, { log: () => {}, ...options });
  connection.serve(handlers);
  open.push(connection);
  return { peer, connection };
}

const add = (id: number | string, a: number, b: number) => ({
  jsonrpc: "2.0",
  id,
  method: "math/add",
  params: { a, b },
});
const line = (text: string) => ({ jsonrpc: "2.0", method: "log/line", params: { line: text } });

describe("a connection that allows batches: received", { timeout: 10_000 }, () => {
  it("answers a batch of requests with one array holding every answer, matched by id", async () => {
    const { peer } = facingRaw();
    await peer.send([add(1, 1, 2), add("two", 3, 4), add(3, 5, 6)]);
    const answer = (await peer.next()) as Array<{ id: unknown; result: unknown }>;
    expect(Array.isArray(answer)).toBe(true);
    expect(new Map(answer.map((a) => [a.id, a.result]))).toEqual(
      new Map<unknown, unknown>([
        [1, { sum: 3 }],
        ["two", { sum: 7 }],
        [3, { sum: 11 }],
      ]),
    );
  });

  it("waits for the slowest request of a batch, and answers the rest of the batch with it", async () => {
    const gate = deferred();
    const { peer } = facingRaw({
      ...server,
      async wait({ tag }: { tag: string }) {
        await gate.promise;
        return { tag };
      },
    });
    await peer.send([
      add(1, 1, 1),
      { jsonrpc: "2.0", id: 2, method: "slow/wait", params: { tag: "late" } },
    ]);
    // A request sent alone after the batch is answered at once, on its own.
    await peer.send(add(3, 2, 2));
    expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { sum: 4 } });
    gate.resolve();
    const answer = (await peer.next()) as Array<{ id: number }>;
    expect(answer.map((a) => a.id).sort()).toEqual([1, 2]);
  });

  it("sends nothing for a batch of notifications, and delivers each of them in order", async () => {
    const lines: string[] = [];
    const { peer } = facingRaw({
      ...server,
      line: ({ line: text }: { line: string }) => lines.push(text),
    });
    await peer.send([line("a"), line("b"), line("c")]);
    // The next thing written is the answer to the request after the batch: the batch got none.
    await peer.send(add(9, 1, 1));
    expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 9, result: { sum: 2 } });
    expect(lines).toEqual(["a", "b", "c"]);
  });

  it("answers the requests of a mixed batch only, notifications handled before later entries", async () => {
    const seen: string[] = [];
    const { peer } = facingRaw({
      ...server,
      line: ({ line: text }: { line: string }) => seen.push(text),
      add: ({ a, b }: { a: number; b: number }) => {
        seen.push(`add ${a}`);
        return { sum: a + b };
      },
    });
    await peer.send([line("first"), add(1, 1, 1), line("last")]);
    expect(await peer.next()).toEqual([{ jsonrpc: "2.0", id: 1, result: { sum: 2 } }]);
    expect(seen).toEqual(["first", "add 1", "last"]);
  });

  it("answers an empty batch with one -32600 error object with id null, not an array", async () => {
    const log = recorder();
    const { peer } = facingRaw(server, { log: log.log });
    await peer.send("[]\n");
    const answer = (await peer.next()) as { id: unknown; error: { code: number } };
    expect(Array.isArray(answer)).toBe(false);
    expect(answer.id).toBeNull();
    expect(answer.error.code).toBe(-32600);
    expect(log.reasons()).toEqual(["invalid-message"]);
  });

  it("answers each invalid entry with its own -32600 with id null, and serves the rest", async () => {
    const { peer } = facingRaw();
    await peer.send([
      { jsonrpc: "2.0", id: "no-method" }, // neither a request nor a response
      1,
      add("ok", 2, 3),
      [],
    ]);
    const answer = (await peer.next()) as Array<{ id: unknown; error?: { code: number } }>;
    expect(answer).toHaveLength(4);
    expect(answer.filter((a) => a.id === null).map((a) => a.error?.code)).toEqual([
      -32600, -32600, -32600,
    ]);
    expect(answer.find((a) => a.id === "ok")).toEqual({
      jsonrpc: "2.0",
      id: "ok",
      result: { sum: 5 },
    });
  });

  it("answers a batch of invalid entries alone at once", async () => {
    const { peer } = facingRaw();
    await peer.send([1, 2]);
    const answer = (await peer.next()) as Array<{ id: unknown; error: { code: number } }>;
    expect(answer.map((a) => [a.id, a.error.code])).toEqual([
      [null, -32600],
      [null, -32600],
    ]);
  });

  it("stays usable after every kind of batch", async () => {
    const { peer } = facingRaw();
    await peer.send("[]\n");
    await peer.next();
    await peer.send([1]);
    await peer.next();
    await peer.send([line("x")]);
    await peer.send([add(1, 1, 1)]);
    await peer.next();
    await peer.send(add(2, 20, 22));
    expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { sum: 42 } });
  });

  it("answers errors in the batch's array too (an unknown method, invalid params)", async () => {
    const { peer } = facingRaw();
    await peer.send([
      { jsonrpc: "2.0", id: 1, method: "no/such" },
      { jsonrpc: "2.0", id: 2, method: "math/add", params: { a: "x" } },
    ]);
    const answer = (await peer.next()) as Array<{ id: number; error: { code: number } }>;
    expect(new Map(answer.map((a) => [a.id, a.error.code]))).toEqual(
      new Map([
        [1, -32601],
        [2, -32602],
      ]),
    );
  });

  it("delivers the answers in a batch the peer sends back to this side's calls", async () => {
    const { peer, connection } = facingRaw({}, {}, BATCHING_CALLER);
    const first = connection.request("math/add", { a: 1, b: 1 });
    const second = connection.request("math/add", { a: 2, b: 2 });
    const sent = [(await peer.next()) as { id: number }, (await peer.next()) as { id: number }];
    await peer.send(
      sent
        .reverse()
        .map((m) => ({ jsonrpc: "2.0", id: m.id, result: { sum: m.id === sent[1]?.id ? 2 : 4 } })),
    );
    expect(await first).toEqual({ sum: 2 });
    expect(await second).toEqual({ sum: 4 });
  });

  it("traces each entry received and each answer of its own sent", async () => {
    const events: TraceEvent[] = [];
    const { peer } = facingRaw(server, { trace: (e) => events.push(e) });
    await peer.send([add(1, 1, 1), 7]);
    await peer.next();
    const received = events.filter((e) => e.direction === "received").map((e) => e.message);
    expect(received).toEqual([7, add(1, 1, 1)]);
    // A sent message is traced once its write is done, just after the peer can read it.
    const sent = () => events.filter((e) => e.direction === "sent").map((e) => e.message);
    await vi.waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 1, result: { sum: 2 } },
        { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
      ]),
    );
  });
});

describe("a connection that allows batches: sent", { timeout: 10_000 }, () => {
  it("sends the calls made in batch() as one array, and each call settles with its own answer", async () => {
    const [a, b] = streamPair();
    const serving = new Connection(BATCHING, a, { log: () => {} });
    serving.serve(server);
    const events: TraceEvent[] = [];
    const caller = new Connection(BATCHING_CALLER, b, {
      log: () => {},
      trace: (e) => events.push(e),
    });
    caller.serve({});
    open.push(serving, caller);
    const [one, two] = caller.batch(() => [
      caller.request("math/add", { a: 1, b: 2 }),
      caller.request("math/add", { a: 3, b: 4 }),
      caller.notify("log/line", { line: "hi" }),
    ]);
    expect(await one).toEqual({ sum: 3 });
    expect(await two).toEqual({ sum: 7 });
    // Both answers came back in one array: each delivered on its own to the connection.
    expect(events.filter((e) => e.direction === "received")).toHaveLength(2);
  });

  it("writes one line for the batch", async () => {
    const { peer, connection } = facingRaw({}, {}, BATCHING_CALLER);
    const calls = connection.batch(() => [
      connection.request("math/add", { a: 1, b: 2 }),
      connection.notify("log/line", { line: "x" }),
    ]);
    const written = (await peer.next()) as Array<{ method: string }>;
    expect(written.map((m) => m.method)).toEqual(["math/add", "log/line"]);
    await peer.send([
      { jsonrpc: "2.0", id: (written[0] as unknown as { id: number }).id, result: { sum: 3 } },
    ]);
    expect(await calls[0]).toEqual({ sum: 3 });
  });

  it("fails a call it refuses before sending, and sends the rest", async () => {
    const { peer, connection } = facingRaw({}, {}, BATCHING_CALLER);
    const [bad, good] = connection.batch(() => [
      connection.request("math/add", { a: "one", b: 2 }),
      connection.request("math/add", { a: 1, b: 2 }),
    ]);
    await expect(bad).rejects.toThrow(/math\/add|AddRequest/);
    const written = (await peer.next()) as Array<{ id: number }>;
    expect(written).toHaveLength(1);
    await peer.send({ jsonrpc: "2.0", id: written[0]?.id, result: { sum: 3 } });
    expect(await good).toEqual({ sum: 3 });
  });

  it("sends what was collected when the callback throws, and rethrows", async () => {
    const { peer, connection } = facingRaw({}, {}, BATCHING_CALLER);
    let call: Promise<unknown> | undefined;
    expect(() =>
      connection.batch(() => {
        call = connection.request("math/add", { a: 1, b: 1 });
        throw new Error("oops");
      }),
    ).toThrow("oops");
    const written = (await peer.next()) as Array<{ id: number }>;
    expect(written).toHaveLength(1);
    await peer.send({ jsonrpc: "2.0", id: written[0]?.id, result: { sum: 2 } });
    expect(await call).toEqual({ sum: 2 });
  });

  it("sends nothing for an empty batch", async () => {
    const { peer, connection } = facingRaw({}, {}, BATCHING_CALLER);
    expect(connection.batch(() => 42)).toBe(42);
    const ping = connection.request("math/add", { a: 0, b: 0 });
    const next = (await peer.next()) as { id: number; method: string };
    expect(next.method).toBe("math/add");
    await peer.send({ jsonrpc: "2.0", id: next.id, result: { sum: 0 } });
    await ping;
  });
});

describe("a connection without batches (ACP v1)", { timeout: 10_000 }, () => {
  it("answers a batch with one -32600 and handles none of its entries", async () => {
    const seen: unknown[] = [];
    const { peer } = facingRaw({ ...server, add: (p: unknown) => seen.push(p) }, {}, SERVER_TABLES);
    await peer.send([add(1, 1, 1)]);
    const answer = (await peer.next()) as { id: unknown; error: { code: number } };
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
    expect(seen).toEqual([]);
  });

  it("has no batch() to send with", () => {
    const { connection } = facingRaw({}, {}, SERVER_TABLES);
    expect(() => connection.batch(() => 1)).toThrow(TypeError);
  });
});

describe("a batch the connection cannot send", { timeout: 10_000 }, () => {
  it("fails its calls only, when over the size limit", async () => {
    const [a, b] = streamPair({ maxMessageBytes: 200 });
    const serving = new Connection(BATCHING, a, { log: () => {} });
    serving.serve(server);
    const caller = new Connection(BATCHING_CALLER, b, { log: () => {} });
    caller.serve({});
    open.push(serving, caller);
    const calls = caller.batch(() =>
      Array.from({ length: 10 }, (_, i) => caller.request("math/add", { a: i, b: i })),
    );
    for (const call of calls) await expect(call).rejects.toThrow(/batch of 10 messages/);
    expect(await caller.request("math/add", { a: 1, b: 2 })).toEqual({ sum: 3 });
  });
});
