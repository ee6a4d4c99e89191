import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type { ConnectionOptions } from "../../templates/runtime/connection-types.js";
import { MessageEncodingError } from "../../templates/runtime/message-stream.js";
import { deferred, RawPeer, recorder, SERVER_TABLES } from "./support.js";

/**
 * Bad input on the wire: each case gets its error answer (or is dropped with a logged
 * reason), and the connection then still answers a valid request.
 */

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const handlers = {
  add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }),
  wait: () => new Promise(() => {}),
};

function serve(options: ConnectionOptions & { maxMessageBytes?: number } = {}) {
  const log = recorder();
  const { maxMessageBytes, ...connectionOptions } = options;
  const peer = new RawPeer(maxMessageBytes === undefined ? undefined : { maxMessageBytes });
  const connection = new Connection(SERVER_TABLES, peer.stream, {
    log: log.log,
    ...connectionOptions,
  });
  connection.serve(handlers);
  open.push(connection);
  return { peer, connection, log };
}

/** The connection is still up: a valid request is answered. */
async function stillUp(peer: RawPeer, id = 100): Promise<void> {
  await peer.send({ jsonrpc: "2.0", id, method: "math/add", params: { a: 1, b: 2 } });
  expect(await peer.next()).toEqual({ jsonrpc: "2.0", id, result: { sum: 3 } });
}

describe("bad input on the wire", { timeout: 10_000 }, () => {
  it("a non-JSON line: dropped and logged by default, connection stays up", async () => {
    const { peer, log } = serve();
    await peer.send("this is not json\n");
    await stillUp(peer);
    expect(log.reasons()).toEqual(["parse-error"]);
  });

  it("a non-JSON line with malformedInput 'answer': -32700 with id null, connection stays up", async () => {
    const { peer, log } = serve({ malformedInput: "answer" });
    await peer.send("this is not json\n");
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: not valid JSON" },
    });
    expect(log.reasons()).toEqual(["parse-error"]);
    await stillUp(peer);
  });

  it("a whole screen of non-JSON lines: one warning, the rest at debug level, nothing answered", async () => {
    const { peer, log } = serve();
    await peer.send("Welcome!\nPlease log in:\n  1) browser\n  2) API key\n> ");
    await peer.send("\n");
    await stillUp(peer);
    expect(log.events.map((e) => `${e.level} ${e.reason}`)).toEqual([
      "warn parse-error",
      "debug parse-error",
      "debug parse-error",
      "debug parse-error",
      "debug parse-error",
    ]);
  });

  it("a line that is not UTF-8: -32700 when answering, connection stays up", async () => {
    const { peer, log } = serve({ malformedInput: "answer" });
    await peer.send(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32700 } });
    expect(log.reasons()).toEqual(["invalid-utf8"]);
    await stillUp(peer);
  });

  it("an over-size request: skipped, answered -32600 with its own id and size, connection stays up", async () => {
    const { peer, log } = serve({ maxMessageBytes: 256 });
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "math/add",
      params: { a: 1, b: 2, pad: "x".repeat(1000) },
    });
    await peer.send(`${huge.slice(0, 500)}`);
    await peer.send(`${huge.slice(500)}\n`);
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message: "Invalid request: message too large",
        data: { size: huge.length, limit: 256 },
      },
    });
    expect(log.reasons()).toEqual(["message-too-large"]);
    await stillUp(peer);
  });

  it("an over-size line with no id to answer: dropped by default, -32600 with id null when answering", async () => {
    const line = `{"pad":"${"y".repeat(600)}"}\n`;
    const dropping = serve({ maxMessageBytes: 256 });
    await dropping.peer.send(line);
    await stillUp(dropping.peer);
    const answering = serve({ maxMessageBytes: 256, malformedInput: "answer" });
    await answering.peer.send(line);
    expect(await answering.peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("an over-size notification is never answered, whatever the option", async () => {
    const line = `{"jsonrpc":"2.0","method":"log/line","params":{"line":"${"y".repeat(600)}"}}\n`;
    const { peer, log } = serve({ maxMessageBytes: 256, malformedInput: "answer" });
    await peer.send(line);
    await stillUp(peer);
    expect(log.reasons()).toEqual(["message-too-large"]);
  });

  it("an over-size answer to our call: the call fails with a MessageTooLargeError", async () => {
    const { peer, connection } = serve({ maxMessageBytes: 256 });
    const call = connection.request("echo/ping", { n: 1 });
    const sent = (await peer.next()) as { id: number };
    await peer.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: sent.id, result: { n: 1, pad: "z".repeat(600) } })}\n`,
    );
    await expect(call).rejects.toMatchObject({
      name: "MessageTooLargeError",
      limit: 256,
      message: expect.stringContaining("echo/ping"),
    });
    await stillUp(peer);
  });

  it("an error answer without an id (some agents answer notifications so): dropped quietly", async () => {
    const { peer, log } = serve();
    await peer.send({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" } });
    await peer.send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "bad" } });
    await stillUp(peer);
    expect(log.events.map((e) => `${e.level} ${e.reason}`)).toEqual([
      "debug unattributed-error",
      "debug unattributed-error",
    ]);
  });

  it("invalid params: -32602, connection stays up", async () => {
    const { peer } = serve();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1 } });
    expect(await peer.next()).toMatchObject({
      id: 1,
      error: { code: -32602, data: { issues: [{ instancePath: "", keyword: "required" }] } },
    });
    await stillUp(peer);
  });

  it("an unknown method: -32601, connection stays up", async () => {
    const { peer, log } = serve();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "nope/nothing", params: {} });
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: "Method not found: nope/nothing",
        data: { method: "nope/nothing" },
      },
    });
    expect(log.reasons()).toEqual(["unknown-method"]);
    await stillUp(peer);
  });

  it("a response to an id nobody asked for: dropped with a logged reason, no answer, connection stays up", async () => {
    const { peer, log } = serve();
    await peer.send({ jsonrpc: "2.0", id: 4242, result: { whatever: true } });
    await peer.send({ jsonrpc: "2.0", id: "nope", error: { code: -1, message: "x" } });
    await stillUp(peer);
    expect(log.events.filter((e) => e.reason === "unknown-response-id").map((e) => e.id)).toEqual([
      4242,
      "nope",
    ]);
  });

  it("JSON that is not a JSON-RPC message: -32600 (with the request's id when usable)", async () => {
    const { peer } = serve();
    await peer.send("[1,2]\n");
    expect(await peer.next()).toMatchObject({
      id: null,
      error: { code: -32600, message: "Invalid request: batches are not supported" },
    });
    await peer.send("42\n");
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await peer.send({ id: 7, method: "math/add", params: { a: 1, b: 1 } });
    expect(await peer.next()).toMatchObject({
      id: 7,
      error: { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0"' },
    });
    await peer.send({ jsonrpc: "2.0", id: 8, method: 5 });
    expect(await peer.next()).toMatchObject({ id: 8, error: { code: -32600 } });
    await peer.send({ jsonrpc: "2.0", id: { no: 1 }, method: "math/add" });
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await stillUp(peer);
  });

  it("a malformed response is never answered (JSON-RPC forbids answering responses), only logged", async () => {
    const { peer, log } = serve();
    await peer.send({ jsonrpc: "2.0", id: 3, result: 1, error: { code: 1, message: "both" } });
    await peer.send({ jsonrpc: "2.0", id: 3, error: "not an object" });
    await stillUp(peer);
    expect(log.reasons()).toEqual(["invalid-message", "invalid-message"]);
  });

  it("a request id already in flight: -32600 for the duplicate, the original carries on", async () => {
    const { peer, log } = serve();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "slow/wait", params: { tag: "t" } });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "slow/wait", params: { tag: "t" } });
    expect(await peer.next()).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(log.reasons()).toEqual(["duplicate-id"]);
    await stillUp(peer);
  });

  it("a handler result JSON cannot encode: -32603 for that request only", async () => {
    const log = recorder();
    const peer = new RawPeer();
    const connection = new Connection(SERVER_TABLES, peer.stream, {
      log: log.log,
      validate: false,
    });
    connection.serve({ ...handlers, add: () => ({ sum: 10n }) });
    open.push(connection);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1, b: 2 } });
    expect(await peer.next()).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(log.reasons()).toEqual(["encode-error"]);
    expect(connection.signal.aborted).toBe(false);
  });

  it("an outgoing message JSON cannot encode fails that call only", async () => {
    const { peer, connection } = serve({ validate: false });
    await expect(connection.notify("log/line", { n: 1n })).rejects.toBeInstanceOf(
      MessageEncodingError,
    );
    await connection.notify("log/line", { line: "fine" });
    expect(await peer.next()).toMatchObject({ method: "log/line", params: { line: "fine" } });
  });

  it("a transport that fails on write closes the connection and rejects what is pending", async () => {
    const failed = deferred();
    const input = new ReadableStream<unknown>();
    const connection = new Connection(
      SERVER_TABLES,
      {
        readable: input,
        writable: new WritableStream({
          write() {
            failed.resolve();
            throw new Error("pipe broke");
          },
        }),
      },
      { log: () => {} },
    );
    connection.serve(handlers);
    open.push(connection);
    await expect(connection.request("echo/ping", { n: 1 })).rejects.toMatchObject({
      name: "ConnectionClosedError",
      reason: { message: "pipe broke" },
    });
    await failed.promise;
    await connection.closed;
    expect(connection.signal.aborted).toBe(true);
  });
});
