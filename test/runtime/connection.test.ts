import { afterEach, describe, expect, it, vi } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type {
  ConnectionOptions,
  NotificationContext,
  RequestContext,
} from "../../templates/runtime/connection-types.js";
import { ConnectionClosedError, RequestError } from "../../templates/runtime/request-error.js";
import { SideConnection } from "../../templates/runtime/side-connection.js";
import { ValidationError } from "../../templates/runtime/validation.js";
import {
  CALLER_TABLES,
  deferred,
  RawPeer,
  recorder,
  SERVER_TABLES,
  type ServerNotificationMap,
  type ServerRequestMap,
  streamPair,
} from "./support.js";

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** A server and a caller connected through ndjson pipes; both closed after each test. */
function connect(server: object, caller: object = {}, options: ConnectionOptions = {}) {
  options = { log: () => {}, ...options };
  const [a, b] = streamPair();
  const serverSide = new Connection(SERVER_TABLES, a, options);
  const callerSide = new Connection(CALLER_TABLES, b, options);
  serverSide.serve(server);
  callerSide.serve(caller);
  open.push(serverSide, callerSide);
  return { server: serverSide, caller: callerSide };
}

/** A `Connection` facing a raw peer, for reading exactly what goes over the wire. */
function facingRaw(handlers: object, options: ConnectionOptions = {}, tables = SERVER_TABLES) {
  options = { log: () => {}, ...options };
  const peer = new RawPeer();
  const connection = new Connection(tables, peer.stream, options);
  connection.serve(handlers);
  open.push(connection);
  return { peer, connection };
}

describe("Connection: requests and responses", { timeout: 10_000 }, () => {
  it("correlates concurrent requests by id, whatever order they finish in", async () => {
    const gates = new Map([
      ["first", deferred()],
      ["second", deferred()],
      ["third", deferred()],
    ]);
    const { caller } = connect({
      async wait(params: { tag: string }) {
        await gates.get(params.tag)?.promise;
        return { tag: params.tag };
      },
    });
    const calls = ["first", "second", "third"].map((tag) => caller.request("slow/wait", { tag }));
    gates.get("third")?.resolve();
    await expect(calls[2]).resolves.toEqual({ tag: "third" });
    gates.get("first")?.resolve();
    gates.get("second")?.resolve();
    expect(await Promise.all(calls)).toEqual([
      { tag: "first" },
      { tag: "second" },
      { tag: "third" },
    ]);
  });

  it("lets both sides call each other at the same time, also from inside a handler", async () => {
    let server!: Connection;
    const pair = connect(
      {
        async add(params: { a: number; b: number }) {
          const echoed = (await server.request("echo/ping", { n: params.a })) as { n: number };
          return { sum: echoed.n + params.b };
        },
      },
      { ping: (params: { n: number }) => ({ n: params.n }) },
    );
    server = pair.server;
    const [sum, pong] = await Promise.all([
      pair.caller.request("math/add", { a: 2, b: 3 }),
      pair.server.request("echo/ping", { n: 7 }),
    ]);
    expect(sum).toEqual({ sum: 5 });
    expect(pong).toEqual({ n: 7 });
  });

  it("gives each handler its method, request id and a live signal", async () => {
    const seen: RequestContext[] = [];
    const { caller } = connect({
      add(params: { a: number; b: number }, context: RequestContext) {
        seen.push(context);
        return { sum: params.a + params.b };
      },
    });
    await caller.request("math/add", { a: 1, b: 1 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe("math/add");
    expect(typeof seen[0]?.requestId).toBe("number");
    expect(seen[0]?.signal.aborted).toBe(false);
  });

  it("answers -32601 for a method this side does not serve, and for a served method with no handler", async () => {
    const { caller } = connect({});
    await expect(caller.request("math/add", { a: 1, b: 2 })).rejects.toMatchObject({
      code: -32601,
      data: { method: "math/add" },
    });
    await expect(caller.request("no/such", {})).rejects.toMatchObject({ code: -32601 });
  });

  it("passes a thrown RequestError through with its code and data", async () => {
    const { caller } = connect({
      add() {
        throw new RequestError(-32002, "Resource not found", { uri: "file:///missing" });
      },
    });
    const error = await caller.request("math/add", { a: 1, b: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32002, data: { uri: "file:///missing" } });
  });

  it("answers -32603 when a handler throws anything else, and logs it", async () => {
    const log = recorder();
    const { caller } = connect(
      {
        add() {
          throw new Error("disk on fire");
        },
      },
      {},
      { log: log.log },
    );
    await expect(caller.request("math/add", { a: 1, b: 2 })).rejects.toMatchObject({
      code: -32603,
      data: { message: "disk on fire" },
    });
    expect(log.events).toContainEqual(
      expect.objectContaining({ level: "error", reason: "handler-error", method: "math/add" }),
    );
  });
});

describe("Connection: validation", { timeout: 10_000 }, () => {
  it("answers -32602 with the issues' instance paths for invalid params, without calling the handler", async () => {
    let called = false;
    const { peer } = facingRaw(
      {
        add() {
          called = true;
          return { sum: 0 };
        },
      },
      { log: () => {} },
    );
    await peer.send({
      jsonrpc: "2.0",
      id: 1,
      method: "math/add",
      params: { a: "one", b: 2, extra: true },
    });
    const answer = (await peer.next()) as {
      id: number;
      error: { code: number; data: { type: string; issues: Array<{ instancePath: string }> } };
    };
    expect(answer.id).toBe(1);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.data.type).toBe("AddRequest");
    expect(answer.error.data.issues.map((i) => i.instancePath)).toEqual(
      expect.arrayContaining(["/a", ""]),
    );
    expect(called).toBe(false);
  });

  it("refuses to send invalid params: the call rejects with a ValidationError and nothing goes out", async () => {
    const { peer, connection } = facingRaw({});
    const error = await connection.request("echo/ping", { n: 1.5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.instancePath).toBe("/n");
    // The next thing on the wire is the valid call, not the invalid one.
    const valid = connection.request("echo/ping", { n: 2 });
    expect(await peer.next()).toMatchObject({ method: "echo/ping", params: { n: 2 } });
    connection.close();
    await expect(valid).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("replaces a result that fails the schema by -32603, so nothing invalid leaves this side", async () => {
    const log = recorder();
    const { caller } = connect({ add: () => ({ sum: "five" }) }, {}, { log: log.log });
    await expect(caller.request("math/add", { a: 2, b: 3 })).rejects.toMatchObject({
      code: -32603,
      data: { type: "AddResponse" },
    });
    expect(log.reasons()).toContain("invalid-result");
  });

  it("rejects the call with a ValidationError when the peer's result fails the schema", async () => {
    const { peer, connection } = facingRaw({}, { log: () => {} });
    const call = connection.request("echo/ping", { n: 1 });
    const sent = (await peer.next()) as { id: number };
    await peer.send({ jsonrpc: "2.0", id: sent.id, result: { n: "one" } });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
  });

  it("reads a null or missing result as {} when the result type accepts an empty object", async () => {
    const { caller } = connect({ wait: () => undefined });
    await expect(caller.request("slow/wait", { tag: "x" })).resolves.toEqual({});
    const { peer, connection } = facingRaw({}, {}, CALLER_TABLES);
    const call = connection.request("slow/wait", { tag: "y" });
    await peer.send({
      jsonrpc: "2.0",
      id: ((await peer.next()) as { id: number }).id,
      result: null,
    });
    await expect(call).resolves.toEqual({});
  });

  it("checks nothing when validation is off", async () => {
    const { caller } = connect(
      { add: (params: unknown) => ({ sum: params }) },
      {},
      { validate: false },
    );
    await expect(caller.request("math/add", { a: "x" })).resolves.toEqual({ sum: { a: "x" } });
  });

  it("can check only received messages", async () => {
    const { caller } = connect(
      { add: () => ({ sum: "not a number" }) },
      {},
      { validate: { sent: false } },
    );
    // The server does not check what it sends; the caller does check what it receives.
    await expect(caller.request("math/add", { a: 1, b: 1 })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe("Connection: notifications", { timeout: 10_000 }, () => {
  it("runs notification handlers one at a time, in arrival order, even when they await", async () => {
    const applied: string[] = [];
    const firstDone = deferred();
    const lines = ["one", "two", "three"];
    const allDone = deferred();
    const { caller } = connect({
      async line(params: { line: string }, context: NotificationContext) {
        expect(context.method).toBe("log/line");
        if (params.line === "one") await firstDone.promise;
        applied.push(params.line);
        if (applied.length === lines.length) allDone.resolve();
      },
    });
    for (const line of lines) await caller.notify("log/line", { line });
    // "two" and "three" have arrived but must wait for "one".
    expect(applied).toEqual([]);
    firstDone.resolve();
    await allDone.promise;
    expect(applied).toEqual(lines);
  });

  it("starts a request only after the notifications received before it were handled", async () => {
    const order: string[] = [];
    const lineGate = deferred();
    const { caller } = connect({
      async line() {
        await lineGate.promise;
        order.push("line");
      },
      wait() {
        order.push("wait");
        return {};
      },
    });
    await caller.notify("log/line", { line: "first" });
    const waited = caller.request("slow/wait", { tag: "after" });
    lineGate.resolve();
    await waited;
    expect(order).toEqual(["line", "wait"]);
  });

  it("has run a synchronous notification handler before the response that follows it resolves its call", async () => {
    const seen: string[] = [];
    const { peer, connection } = facingRaw({
      line: (p: { line: string }) => void seen.push(p.line),
    });
    const call = connection.request("echo/ping", { n: 1 }).then(() => seen.push("response"));
    const sent = (await peer.next()) as { id: number };
    // Like session/update notifications followed by the prompt's response, in one chunk.
    const update = JSON.stringify({
      jsonrpc: "2.0",
      method: "log/line",
      params: { line: "update" },
    });
    await peer.send(
      `${update}\n${JSON.stringify({ jsonrpc: "2.0", id: sent.id, result: { n: 1 } })}\n`,
    );
    await call;
    expect(seen).toEqual(["update", "response"]);
  });

  it("never holds back a response: a notification handler may await its own request", async () => {
    const seen: string[] = [];
    let connection!: Connection;
    const setup = facingRaw({
      async line(p: { line: string }) {
        if (p.line === "first") await connection.request("echo/ping", { n: 1 });
        seen.push(p.line);
      },
    });
    connection = setup.connection;
    const { peer } = setup;
    await peer.send({ jsonrpc: "2.0", method: "log/line", params: { line: "first" } });
    const ping = (await peer.next()) as { id: number };
    await peer.send({ jsonrpc: "2.0", method: "log/line", params: { line: "second" } });
    await peer.send({ jsonrpc: "2.0", id: ping.id, result: { n: 1 } });
    // A request after both notifications starts only once they were handled: a barrier.
    await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 0, b: 0 } });
    await expect(peer.next()).resolves.toMatchObject({ id: 1 });
    expect(seen).toEqual(["first", "second"]);
  });

  it("drops a notification with invalid params or no handler, logging why, and keeps going", async () => {
    const log = recorder();
    const got: string[] = [];
    const { caller } = connect(
      { line: (params: { line: string }) => void got.push(params.line) },
      {},
      { log: log.log, validate: { sent: false } },
    );
    await caller.notify("log/line", { line: 42 });
    await caller.notify("no/such", {});
    await caller.notify("log/line", { line: "fine" });
    await expect(caller.request("math/add", { a: 1, b: 1 })).rejects.toMatchObject({
      code: -32601,
    });
    expect(got).toEqual(["fine"]);
    expect(log.reasons()).toEqual(expect.arrayContaining(["invalid-params", "unknown-method"]));
  });

  it("logs a notification handler that throws, and keeps serving", async () => {
    const log = recorder();
    const { caller } = connect(
      {
        line() {
          throw new Error("boom");
        },
        add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }),
      },
      {},
      { log: log.log },
    );
    await caller.notify("log/line", { line: "x" });
    await expect(caller.request("math/add", { a: 1, b: 2 })).resolves.toEqual({ sum: 3 });
    expect(log.events).toContainEqual(
      expect.objectContaining({ reason: "handler-error", method: "log/line" }),
    );
  });
});

describe("Connection: extension methods", { timeout: 10_000 }, () => {
  it("routes `_` requests to extMethod and `_` notifications to extNotification, unchecked", async () => {
    const notes: unknown[] = [];
    const { caller } = connect({
      extMethod: (method: string, params: unknown) => ({ method, params }),
      extNotification: (method: string, params: unknown) => void notes.push([method, params]),
    });
    await expect(caller.request("_vendor/thing", { any: ["shape"] })).resolves.toEqual({
      method: "_vendor/thing",
      params: { any: ["shape"] },
    });
    await caller.notify("_vendor/ping", 1);
    await caller.request("_vendor/sync", null);
    expect(notes).toEqual([["_vendor/ping", 1]]);
  });

  it("answers -32601 for an extension request when there is no extMethod, and drops extension notifications", async () => {
    const log = recorder();
    const { caller } = connect({}, {}, { log: log.log });
    await caller.notify("_vendor/ping", {});
    await expect(caller.request("_vendor/thing", {})).rejects.toMatchObject({ code: -32601 });
    expect(log.events).toContainEqual(
      expect.objectContaining({ level: "debug", reason: "unknown-method", method: "_vendor/ping" }),
    );
  });

  it("sends null for an extension handler that returns nothing", async () => {
    const { caller } = connect({ extMethod: () => undefined });
    await expect(caller.request("_vendor/void", {})).resolves.toBeNull();
  });
});

describe("Connection: cancellation", { timeout: 10_000 }, () => {
  it("aborts the handler's signal on $/cancel_request; a handler that then throws is answered -32800", async () => {
    const started = deferred();
    const { peer } = facingRaw({
      wait(_params: unknown, context: RequestContext) {
        started.resolve();
        return new Promise((_resolve, reject) => {
          context.signal.addEventListener("abort", () => reject(new Error("stopped")));
        });
      },
    });
    await peer.send({ jsonrpc: "2.0", id: "req-1", method: "slow/wait", params: { tag: "t" } });
    await started.promise;
    await peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "req-1" } });
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: "req-1",
      error: { code: -32800, message: "Request cancelled" },
    });
  });

  it("still sends the result of a handler that finishes despite the cancellation", async () => {
    const started = deferred();
    const { peer } = facingRaw({
      async wait(_params: unknown, context: RequestContext) {
        started.resolve();
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
        return { tag: "partial" };
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 9, method: "slow/wait", params: { tag: "t" } });
    await started.promise;
    await peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 9 } });
    expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 9, result: { tag: "partial" } });
  });

  it("on the caller's abort: rejects with -32800, tells the peer, and drops the late answer", async () => {
    const log = recorder();
    const { peer, connection } = facingRaw({}, { log: log.log });
    const controller = new AbortController();
    const call = connection.request("echo/ping", { n: 1 }, { signal: controller.signal });
    const sent = (await peer.next()) as { id: number };
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: -32800 });
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: sent.id },
    });
    await peer.send({ jsonrpc: "2.0", id: sent.id, result: { n: 1 } });
    // Still up: a later call works, and the late answer was dropped quietly.
    const later = connection.request("echo/ping", { n: 2 });
    const next = (await peer.next()) as { id: number };
    await peer.send({ jsonrpc: "2.0", id: next.id, result: { n: 2 } });
    await expect(later).resolves.toEqual({ n: 2 });
    expect(log.events).toContainEqual(
      expect.objectContaining({ level: "debug", reason: "late-response", id: sent.id }),
    );
  });

  it("does not send a request whose signal is already aborted", async () => {
    const { peer, connection } = facingRaw({});
    await expect(
      connection.request("echo/ping", { n: 1 }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: -32800 });
    await connection.notify("echo/none", { marker: true });
    expect(await peer.next()).toMatchObject({ method: "echo/none" });
  });

  it("ignores a cancellation for a request that is not in flight", async () => {
    const log = recorder();
    const { peer } = facingRaw(
      { add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }) },
      { log: log.log },
    );
    await peer.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 404 } });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1, b: 1 } });
    expect(await peer.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sum: 2 } });
    expect(log.reasons()).toContain("unknown-cancel");
  });
});

describe("Connection: logging", { timeout: 10_000 }, () => {
  it("by default reports warnings on console.error (stderr) and keeps debug events quiet", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const peer = new RawPeer();
      const connection = new Connection(SERVER_TABLES, peer.stream);
      connection.serve({});
      open.push(connection);
      await peer.send("garbage\n");
      await peer.send({ jsonrpc: "2.0", method: "$/unknown_protocol_thing", params: {} });
      await peer.send({ jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1, b: 1 } });
      await peer.next();
      expect(spy.mock.calls.map((c) => c[0])).toEqual([
        "acp: an incoming line of 7 bytes is not valid JSON; dropped (later ones are logged at debug level)",
        "acp: no handler for request math/add",
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("Connection: closing", { timeout: 10_000 }, () => {
  it("on end of input: pending calls reject, handlers' signals abort, signal and closed fire", async () => {
    const handlerSignal = deferred<RequestContext["signal"]>();
    const { peer, connection } = facingRaw({
      wait(_params: unknown, context: RequestContext) {
        handlerSignal.resolve(context.signal);
        return new Promise(() => {});
      },
    });
    const call = connection.request("echo/ping", { n: 1 });
    await peer.next();
    await peer.send({ jsonrpc: "2.0", id: 5, method: "slow/wait", params: { tag: "t" } });
    const signal = await handlerSignal.promise;
    await peer.end();
    await connection.closed;
    expect(connection.signal.aborted).toBe(true);
    expect(signal.aborted).toBe(true);
    await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(connection.request("echo/ping", { n: 2 })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
    await expect(connection.notify("log/line", { line: "x" })).rejects.toBeInstanceOf(
      ConnectionClosedError,
    );
    // Its output is closed too, so a process on the other end sees end of input.
    expect(await peer.outputEnded()).toBe(true);
  });

  it("close(reason) is idempotent, carries the reason, and closes the peer in turn", async () => {
    const { server, caller } = connect({});
    const reason = new Error("shutting down");
    caller.close(reason);
    caller.close(new Error("again"));
    await caller.closed;
    expect(caller.signal.reason).toBeInstanceOf(ConnectionClosedError);
    expect((caller.signal.reason as ConnectionClosedError).reason).toBe(reason);
    await server.closed;
    expect(server.signal.aborted).toBe(true);
  });

  it("flushes what was queued before close", async () => {
    const { peer, connection } = facingRaw({});
    void connection.notify("log/line", { line: "last words" });
    connection.close();
    expect(await peer.next()).toMatchObject({ method: "log/line", params: { line: "last words" } });
    expect(await peer.outputEnded()).toBe(true);
  });
});

describe("SideConnection", { timeout: 10_000 }, () => {
  it("exposes the peer's methods by handler name and typed request/notify by wire name", async () => {
    const [a, b] = streamPair();
    const lines: string[] = [];
    const server = new SideConnection<Record<string, never>, Record<string, never>>(
      SERVER_TABLES,
      () => ({
        add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }),
        line: (p: { line: string }) => void lines.push(p.line),
      }),
      a,
      { log: () => {} },
    );
    class Caller extends SideConnection<ServerRequestMap, ServerNotificationMap> {
      get server() {
        return this.remote;
      }
    }
    const caller = new Caller(CALLER_TABLES, () => ({}), b);
    open.push(server, caller);
    const sum: { sum: number } = await caller.request("math/add", { a: 20, b: 22 });
    expect(sum).toEqual({ sum: 42 });
    await expect(caller.server.add?.({ a: 1, b: 2 })).resolves.toEqual({ sum: 3 });
    await caller.notify("log/line", { line: "typed" });
    await caller.server.line?.({ line: "proxied" });
    // A request starts only after earlier notifications were handled: a barrier.
    await caller.request("math/add", { a: 0, b: 0 });
    expect(lines).toEqual(["typed", "proxied"]);
    expect(Object.keys(caller.server).sort()).toEqual(["add", "line", "wait"]);
    caller.close();
    await Promise.all([caller.closed, server.closed]);
  });

  it("hands the handler factory the connection itself, before reading starts", () => {
    const [a] = streamPair();
    let given: unknown;
    const connection = new SideConnection(
      SERVER_TABLES,
      (c) => {
        given = c;
        return {};
      },
      a,
    );
    open.push(connection);
    expect(given).toBe(connection);
  });
});

describe("Connection: the close reason", { timeout: 10_000 }, () => {
  it("says the peer closed its output at end of input", async () => {
    const { peer, connection } = facingRaw({});
    const call = connection.request("echo/ping", { n: 1 });
    await peer.next();
    await peer.end();
    const error = (await call.catch((e: unknown) => e)) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.kind).toBe("end-of-input");
    expect(error.message).toBe("connection closed: the peer closed its output");
    expect(connection.signal.reason).toBe(error);
  });

  it("says close() was called, with its reason when it has one", async () => {
    const first = facingRaw({}).connection;
    first.close();
    await expect(first.request("echo/ping", { n: 1 })).rejects.toMatchObject({
      kind: "closed",
      message: "connection closed by close()",
    });
    const second = facingRaw({}).connection;
    second.close(new Error("user quit"));
    await expect(second.request("echo/ping", { n: 1 })).rejects.toMatchObject({
      kind: "closed",
      message: "connection closed: user quit",
    });
  });

  it("names a read error and a write error, with the transport's message", async () => {
    const failingRead = new Connection(
      SERVER_TABLES,
      {
        readable: new ReadableStream({
          pull() {
            throw new Error("EIO: input/output error");
          },
        }),
        writable: new WritableStream(),
      },
      { log: () => {} },
    );
    failingRead.serve({});
    open.push(failingRead);
    await failingRead.closed;
    expect(failingRead.signal.reason).toMatchObject({
      kind: "read-error",
      message: "connection closed: EIO: input/output error",
    });
    const failingWrite = new Connection(
      SERVER_TABLES,
      {
        readable: new ReadableStream(),
        writable: new WritableStream({
          write() {
            throw new Error("EPIPE: broken pipe");
          },
        }),
      },
      { log: () => {} },
    );
    failingWrite.serve({});
    open.push(failingWrite);
    await expect(failingWrite.request("echo/ping", { n: 1 })).rejects.toMatchObject({
      kind: "write-error",
      message: "connection closed: EPIPE: broken pipe",
    });
  });
});

describe("Connection: trace", { timeout: 10_000 }, () => {
  it("sees every message both ways, raw: before parsing, and once the transport took it", async () => {
    const events: Array<{ direction: string; message: unknown }> = [];
    const sent = deferred();
    const { peer } = facingRaw(
      { add: (p: { a: number; b: number }) => ({ sum: p.a + p.b }) },
      {
        trace: (event) => {
          events.push(event);
          if (event.direction === "sent") sent.resolve();
        },
      },
    );
    await peer.send("Please log in:\n");
    const request = { jsonrpc: "2.0", id: 1, method: "math/add", params: { a: 1, b: 2 } };
    await peer.send(request);
    await peer.next();
    await sent.promise;
    expect(events).toEqual([
      {
        direction: "received",
        message: expect.objectContaining({ problem: "parse-error", text: "Please log in:" }),
      },
      { direction: "received", message: request },
      { direction: "sent", message: { jsonrpc: "2.0", id: 1, result: { sum: 3 } } },
    ]);
  });

  it("does not report a message the transport refused", async () => {
    const events: string[] = [];
    const { peer, connection } = facingRaw(
      {},
      { validate: false, trace: (event) => events.push(event.direction) },
    );
    await expect(connection.notify("log/line", { n: 1n })).rejects.toThrow();
    // notify() resolves once the transport took the message, after the trace saw it.
    await connection.notify("log/line", { line: "ok" });
    await peer.next();
    expect(events).toEqual(["sent"]);
  });
});
