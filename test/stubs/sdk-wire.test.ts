import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as sdk from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import * as acp from "../../.test-package/package/v1/index.js";

/**
 * What the official SDK does on the wire where this package's documentation compares with it
 * (`ConnectionOptions.malformedInput`, `fillEmpty` in templates/runtime/method-routes.ts,
 * MIGRATING.md): run here, in this process, against the SDK itself (the devDependency, and
 * the npm alias @agentclientprotocol/sdk-1 for its last 1.x release), so those sentences
 * cannot drift from what the SDK does.
 */

const require = createRequire(import.meta.url);
// Its exports map has no ./package.json: resolve the entry point, then walk up to the package.
const sdk1Dir = join(dirname(require.resolve("@agentclientprotocol/sdk-1")), "..");
const sdk1Version = (
  JSON.parse(readFileSync(join(sdk1Dir, "package.json"), "utf8")) as { version: string }
).version;
// The part of the builder API used here is the same in 1.x.
const sdk1 = (await import("@agentclientprotocol/sdk-1")) as unknown as typeof sdk;
const SDKS: Array<[string, typeof sdk]> = [
  ["2.x (the devDependency)", sdk],
  [`${sdk1Version} (the last 1.x)`, sdk1],
];

const encoder = new TextEncoder();
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } };
const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const request = (id: number, method: string, params: unknown): string =>
  line({ jsonrpc: "2.0", id, method, params });

/**
 * The far end of a byte pipe pair around the implementation under test: `send` writes raw
 * bytes to it, `lines(n)` waits for the first `n` JSON lines it wrote back. A peer reads its
 * lines in order, so whatever it answers to a bad line comes before its answer to the next.
 */
function wire() {
  let toPeer: ReadableStreamDefaultController<Uint8Array> | undefined;
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      toPeer = controller;
    },
  });
  const received: unknown[] = [];
  let wake = () => {};
  const decoder = new TextDecoder();
  let pending = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      pending += decoder.decode(chunk, { stream: true });
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
        received.push(JSON.parse(pending.slice(0, end)));
        pending = pending.slice(end + 1);
      }
      wake();
    },
  });
  return {
    input,
    output,
    received,
    send(bytes: string | Uint8Array): void {
      toPeer?.enqueue(typeof bytes === "string" ? encoder.encode(bytes) : bytes);
    },
    async lines(n: number): Promise<unknown[]> {
      while (received.length < n) await new Promise<void>((resolve) => (wake = resolve));
      return received.slice(0, n);
    },
    /** Every line written back up to the answer with this id: what came before it, too. */
    async through(id: number): Promise<unknown[]> {
      const at = () => received.findIndex((m) => (m as { id?: unknown }).id === id);
      while (at() === -1) await new Promise<void>((resolve) => (wake = resolve));
      return received.slice(0, at() + 1);
    },
  };
}

/** Everything written to the console while a test runs (the SDK logs through it). */
let consoleSpies: MockInstance[] = [];
beforeEach(() => {
  consoleSpies = (["error", "warn", "log", "info", "debug"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(() => {}),
  );
});
afterEach(() => {
  for (const spy of consoleSpies) spy.mockRestore();
});
const consoleCalls = (): unknown[][] => consoleSpies.flatMap((spy) => spy.mock.calls);

function sdkAgent(lib: typeof sdk, options?: { maxMessageBytes: number }) {
  const w = wire();
  const connection = lib
    .agent({ name: "probe" })
    .onRequest("initialize", ({ params }) => ({ protocolVersion: params.protocolVersion }))
    .connect(lib.ndJsonStream(w.output, w.input, options));
  return { ...w, connection };
}

describe("the official SDK on the wire, beside what our documentation says of it", {
  timeout: 10_000,
}, () => {
  it("the 1.x alias is a release from 1.4 on, where the documentation dates the change", () => {
    expect(sdk1Version).toMatch(/^1\.([4-9]|\d{2,})\./);
  });

  it.each(SDKS)(
    "SDK %s answers a line that is not JSON with -32700 and id null, logs nothing, and reads on",
    async (_, lib) => {
      const agent = sdkAgent(lib);
      agent.send("Please log in:\n");
      agent.send(line(INITIALIZE));
      expect(await agent.through(1)).toEqual([
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
        { jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } },
      ]);
      expect(consoleCalls()).toEqual([]);
    },
  );

  it("SDK 2.x reads bytes that are not UTF-8 as U+FFFD: -32700 if the line is then not JSON, handled if it is", async () => {
    let seen: unknown;
    const w = wire();
    sdk
      .agent({ name: "probe" })
      .onRequest("initialize", ({ params }) => {
        seen = params.clientInfo?.name;
        return { protocolVersion: 1 };
      })
      .connect(sdk.ndJsonStream(w.output, w.input));
    w.send(new Uint8Array([0xff, 0xfe, 0x0a]));
    const [head, tail] = line({
      ...INITIALIZE,
      params: { protocolVersion: 1, clientInfo: { name: "@", version: "1" } },
    }).split("@");
    w.send(new Uint8Array([...encoder.encode(head), 0xff, ...encoder.encode(tail)]));
    expect(await w.through(1)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } },
    ]);
    expect(seen).toBe("\uFFFD");
  });

  it("SDK 2.x closes its connection on a line over its size limit, without an answer", async () => {
    const agent = sdkAgent(sdk, { maxMessageBytes: 256 });
    agent.send(line({ ...INITIALIZE, params: { protocolVersion: 1, padding: "x".repeat(512) } }));
    await agent.connection.closed;
    expect(agent.connection.signal.reason).toBeInstanceOf(sdk.MessageTooLargeError);
    expect(agent.received).toEqual([]);
    expect(consoleCalls()).toEqual([]);
  });

  it("ours answers a line that is not JSON as the SDK does with malformedInput 'answer', and drops it by default", async () => {
    const ours = (options: acp.ConnectionOptions) => {
      const w = wire();
      new acp.AgentSideConnection(
        () => ({
          initialize: () => ({ protocolVersion: 1 }),
          sessionNew: () => ({ sessionId: "s" }),
          sessionPrompt: () => ({ stopReason: "end_turn" }),
          sessionCancel: () => {},
        }),
        acp.ndJsonStream(w.output, w.input),
        { log: () => {}, ...options },
      );
      w.send("Please log in:\n");
      w.send(line(INITIALIZE));
      return w;
    };
    const theirs = sdkAgent(sdk);
    theirs.send("Please log in:\n");
    const [sdkAnswer] = (await theirs.lines(1)) as Array<{ id: unknown; error: { code: number } }>;
    const [answered, initialized] = await ours({ malformedInput: "answer" }).through(1);
    expect(answered).toMatchObject({
      jsonrpc: "2.0",
      id: sdkAnswer?.id,
      error: { code: sdkAnswer?.error.code },
    });
    expect(initialized).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
    expect(await ours({}).through(1)).toMatchObject([{ id: 1, result: { protocolVersion: 1 } }]);
  });

  it.each(SDKS)(
    "SDK %s: a handler that returns nothing answers null, except for the methods it lists with an empty result ({})",
    async (_, lib) => {
      const w = wire();
      // Returning nothing where the SDK's types want a result is the case in question.
      lib
        .agent({ name: "probe" })
        .onRequest("initialize", () => ({ protocolVersion: 1 }))
        .onRequest("session/resume", () => undefined as never)
        .onRequest("session/set_mode", () => undefined)
        .onRequest(
          "_acme/ping",
          (params: unknown) => params,
          () => undefined as never,
        )
        .connect(lib.ndJsonStream(w.output, w.input));
      w.send(line(INITIALIZE));
      w.send(request(2, "session/resume", { sessionId: "s", cwd: "/" }));
      w.send(request(3, "session/set_mode", { sessionId: "s", modeId: "m" }));
      w.send(request(4, "_acme/ping", {}));
      const byId = new Map((await w.lines(4)).map((m) => [(m as { id: number }).id, m]));
      expect(byId.get(2)).toEqual({ jsonrpc: "2.0", id: 2, result: null });
      expect(byId.get(3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
      expect(byId.get(4)).toEqual({ jsonrpc: "2.0", id: 4, result: null });
    },
  );

  it("our client reads the SDK agent's null for session/resume as the empty result it means", async () => {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    sdk
      .agent({ name: "probe" })
      .onRequest("initialize", () => ({
        protocolVersion: 1,
        agentCapabilities: { sessionCapabilities: { resume: {} } },
      }))
      // Returns nothing, so the SDK answers `result: null`.
      .onRequest("session/resume", () => undefined as never)
      .connect(sdk.ndJsonStream(toClient.writable, toAgent.readable));
    const client = new acp.ClientSideConnection(
      () => ({
        sessionUpdate: () => {},
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      }),
      acp.ndJsonStream(toAgent.writable, toClient.readable),
    );
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(await client.agent.sessionResume({ sessionId: "s", cwd: "/" })).toEqual({});
    client.close();
  });
});
