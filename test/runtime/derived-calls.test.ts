import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type { RemoteMethods } from "../../templates/runtime/side-connection.js";
import { SideConnection } from "../../templates/runtime/side-connection.js";
import { RawPeer, streamPair, TASK_CALLER_TABLES, TASK_SERVER_TABLES } from "./support.js";

/**
 * The per-method behaviours the generated tables switch on: a request stopped by a
 * notification (abort sends it and waits for the answer), and a request whose proxy
 * resolves with a handle.
 */

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

class Caller extends SideConnection<Record<string, never>, Record<string, never>> {
  get server(): RemoteMethods {
    return this.remote;
  }
}

describe("a request stopped by a notification (session/prompt and session/cancel)", {
  timeout: 10_000,
}, () => {
  it("on abort: sends the notification with the copied params, no $/cancel_request, and resolves with the answer", async () => {
    const peer = new RawPeer();
    const connection = new Connection(TASK_CALLER_TABLES, peer.stream, { log: () => {} });
    connection.serve({});
    open.push(connection);
    const controller = new AbortController();
    const call = connection.request(
      "turn/run",
      { owner: "s-1", prompt: "long" },
      { signal: controller.signal },
    );
    const sent = (await peer.next()) as { id: number };
    controller.abort();
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      method: "turn/stop",
      params: { owner: "s-1" },
    });
    await peer.send({ jsonrpc: "2.0", id: sent.id, result: { stopReason: "cancelled" } });
    await expect(call).resolves.toEqual({ stopReason: "cancelled" });
    // Nothing else was sent: the next message is the one sent now.
    await connection.notify("turn/stop", { owner: "marker" });
    expect(await peer.next()).toMatchObject({ params: { owner: "marker" } });
  });

  it("end to end: the handler sees the stop notification and answers its own call", async () => {
    const [a, b] = streamPair();
    let stop = () => {};
    const server = new SideConnection(
      TASK_SERVER_TABLES,
      () => ({
        run: () =>
          new Promise((resolve) => {
            stop = () => resolve({ stopReason: "cancelled" });
          }),
        stop: () => stop(),
      }),
      a,
      { log: () => {} },
    );
    const caller = new Caller(TASK_CALLER_TABLES, () => ({}), b, { log: () => {} });
    open.push(server, caller);
    const controller = new AbortController();
    const call = caller.server.run?.({ owner: "s" }, { signal: controller.signal });
    controller.abort();
    await expect(call).resolves.toEqual({ stopReason: "cancelled" });
  });

  it("still rejects at once when aborted before it was sent", async () => {
    const peer = new RawPeer();
    const connection = new Connection(TASK_CALLER_TABLES, peer.stream, { log: () => {} });
    connection.serve({});
    open.push(connection);
    await expect(
      connection.request("turn/run", { owner: "s" }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: -32800 });
  });
});

describe("a request whose proxy resolves with a handle (terminal/create)", {
  timeout: 10_000,
}, () => {
  function pair() {
    const [a, b] = streamPair();
    const calls: unknown[] = [];
    const server = new SideConnection(
      TASK_SERVER_TABLES,
      () => ({
        start: () => ({ jobId: "job-7", _meta: { note: 1 } }),
        poll: (p: unknown) => {
          calls.push(["poll", p]);
          return { state: "running" };
        },
        free: (p: unknown) => {
          calls.push(["free", p]);
          return {};
        },
      }),
      a,
      { log: () => {} },
    );
    const caller = new Caller(TASK_CALLER_TABLES, () => ({}), b, { log: () => {} });
    open.push(server, caller);
    return { caller, calls };
  }

  it("holds the result's properties and sends each method with the scope and id filled in", async () => {
    const { caller, calls } = pair();
    const job = (await caller.server.start?.({ owner: "s-1", what: "build" })) as Record<
      string,
      (extra?: object) => Promise<unknown>
    >;
    // Compares and serialises like the plain result.
    expect(job).toEqual({ jobId: "job-7", _meta: { note: 1 } });
    expect(JSON.parse(JSON.stringify(job))).toEqual({ jobId: "job-7", _meta: { note: 1 } });
    await expect(job.poll?.()).resolves.toEqual({ state: "running" });
    await job.free?.({ _meta: { why: "done" }, jobId: "not this one" });
    expect(calls).toEqual([
      ["poll", { owner: "s-1", jobId: "job-7" }],
      ["free", { _meta: { why: "done" }, owner: "s-1", jobId: "job-7" }],
    ]);
  });

  it("frees itself on Symbol.asyncDispose", async () => {
    const { caller, calls } = pair();
    const job = (await caller.server.start?.({ owner: "o" })) as unknown as AsyncDisposable;
    await job[Symbol.asyncDispose]();
    expect(calls).toEqual([["free", { owner: "o", jobId: "job-7" }]]);
  });

  it("keeps two handles apart", async () => {
    const { caller, calls } = pair();
    const first = (await caller.server.start?.({ owner: "a" })) as Record<
      string,
      () => Promise<unknown>
    >;
    const second = (await caller.server.start?.({ owner: "b" })) as Record<
      string,
      () => Promise<unknown>
    >;
    await second.poll?.();
    await first.poll?.();
    expect(calls).toEqual([
      ["poll", { owner: "b", jobId: "job-7" }],
      ["poll", { owner: "a", jobId: "job-7" }],
    ]);
  });
});
