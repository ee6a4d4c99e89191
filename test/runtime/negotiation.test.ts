import AjvModule from "ajv";
import { afterEach, describe, expect, it } from "vitest";
import { Connection } from "../../templates/runtime/connection.js";
import type {
  ConnectionOptions,
  MethodEntry,
  MethodTables,
  TraceEvent,
} from "../../templates/runtime/connection-types.js";
import {
  type CapabilityGate,
  capabilitiesFrom,
  type NegotiationSpec,
} from "../../templates/runtime/negotiation.js";
import { RequestError } from "../../templates/runtime/request-error.js";
import { ValidationError } from "../../templates/runtime/validation.js";
import { RawPeer, recorder, streamPair } from "./support.js";

/**
 * The runtime's capability negotiation on a small protocol of its own, in one process: a
 * "host" side (the agent's role) serving `hello` (the handshake), `job/run` (gated by the
 * host's `jobs.run`), `say` (whose image parts need `media.image`) and `note/post` (a
 * notification gated by `notes`); a "guest" side (the client's role) serving `fs/read`
 * (gated by the guest's `fs.read`). The generated packages' own tests run the same checks
 * on ACP between two processes (test/stubs/negotiation.test.ts).
 */

const Ajv = AjvModule.default;
const anything = new Ajv().compile({}) as MethodEntry["validateParams"];
const entry = (method: string, handler: string, kind: "request" | "notification" = "request") =>
  ({
    method,
    kind,
    handler,
    params: "Object",
    validateParams: anything,
    ...(kind === "request" ? { result: "Object", validateResult: anything } : {}),
  }) as MethodEntry;

const HOST: readonly MethodEntry[] = [
  entry("hello", "hello"),
  entry("job/run", "run"),
  entry("say", "say"),
  entry("note/post", "post", "notification"),
];
const GUEST: readonly MethodEntry[] = [entry("fs/read", "read")];

const gate = (
  side: "agent" | "client",
  capability: string[],
  method: string,
  handler: string,
  extra: Partial<CapabilityGate> = {},
): CapabilityGate => ({
  side,
  capability,
  declare: {},
  method,
  kind: "request",
  handler,
  handlerRequired: true,
  ...extra,
});

const SPEC: NegotiationSpec = {
  method: "hello",
  capabilities: { agent: "hostCaps", client: "guestCaps" },
  version: "version",
  versions: [3],
};
const GATES: readonly CapabilityGate[] = [
  gate("agent", ["jobs", "run"], "job/run", "run"),
  gate("agent", ["media", "image"], "say", "say", {
    handlerRequired: false,
    content: { type: "Part", tag: "type", value: "image", at: [["parts", "*"]] },
  }),
  gate("agent", ["notes"], "note/post", "post", { kind: "notification", declare: true }),
  gate("client", ["fs", "read"], "fs/read", "read", { declare: true }),
];

const tables = (role: "agent" | "client"): MethodTables => ({
  serves: role === "agent" ? HOST : GUEST,
  calls: role === "agent" ? GUEST : HOST,
  negotiation: { role, spec: SPEC, gates: GATES },
});

const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** A host and a guest; the guest's trace records every message it sends. */
function pair(
  host: Record<string, unknown>,
  guest: Record<string, unknown> = {},
  options: { host?: ConnectionOptions; guest?: ConnectionOptions } = {},
) {
  const [a, b] = streamPair();
  const sent: string[] = [];
  const trace = (e: TraceEvent) => {
    if (e.direction === "sent" && "method" in e.message) sent.push(e.message.method);
  };
  const hostLog = recorder();
  const guestLog = recorder();
  const hostSide = new Connection(tables("agent"), a, { log: hostLog.log, ...options.host });
  const guestSide = new Connection(tables("client"), b, {
    log: guestLog.log,
    trace,
    ...options.guest,
  });
  hostSide.serve(host);
  guestSide.serve(guest);
  open.push(hostSide, guestSide);
  return { hostSide, guestSide, sent, hostLog, guestLog };
}

const hello = (hostCaps: object) => () => ({ version: 3, hostCaps });

describe("negotiation in the runtime", { timeout: 10_000 }, () => {
  it("refuses every call before the handshake completed, except the handshake, sending nothing", async () => {
    const { guestSide, sent } = pair({ hello: hello({}), run: () => ({}) });
    const early = await guestSide.request("job/run", {}).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(RequestError);
    expect(early).toMatchObject({
      code: -32600,
      data: { method: "job/run", reason: "not-initialized" },
    });
    await guestSide.notify("$/anything", {});
    await guestSide.request("hello", { version: 3, guestCaps: {} });
    expect(sent).toEqual(["$/anything", "hello"]);
  });

  it("refuses a gated call the peer did not declare, naming the capability, and sends what it did declare", async () => {
    const { guestSide, sent } = pair({ hello: hello({ jobs: {} }), run: () => ({ ran: true }) });
    await guestSide.request("hello", { version: 3 });
    const refused = await guestSide.request("job/run", {}).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: -32601,
      message: "job/run is not available: the agent did not declare hostCaps.jobs.run",
      data: { method: "job/run", capability: "hostCaps.jobs.run" },
    });
    expect(sent).toEqual(["hello"]);
    const declared = pair({ hello: hello({ jobs: { run: {} } }), run: () => ({ ran: true }) });
    await declared.guestSide.request("hello", { version: 3 });
    await expect(declared.guestSide.request("job/run", {})).resolves.toEqual({ ran: true });
  });

  it("refuses gated content at its position, and lets the rest through", async () => {
    const { guestSide, sent } = pair({ hello: hello({}), say: () => ({}) });
    await guestSide.request("hello", { version: 3 });
    const parts = [{ type: "text" }, { type: "image" }];
    await expect(guestSide.request("say", { parts })).rejects.toMatchObject({
      code: -32602,
      data: { method: "say", capability: "hostCaps.media.image", at: "/parts/1" },
    });
    await expect(guestSide.request("say", { parts: [{ type: "text" }] })).resolves.toEqual({});
    expect(sent).toEqual(["hello", "say"]);
  });

  it('"warn" logs and sends; "off" only sends', async () => {
    for (const mode of ["warn", "off"] as const) {
      const { guestSide, sent, guestLog } = pair(
        { hello: hello({}), run: () => ({}) },
        {},
        // The host serves what it did not declare, so that the guest's calls are answered.
        { guest: { capabilities: mode }, host: { capabilities: "off" } },
      );
      await guestSide.request("job/run", {});
      await guestSide.request("hello", { version: 3 });
      await guestSide.request("job/run", {});
      expect(sent, mode).toEqual(["job/run", "hello", "job/run"]);
      expect(guestLog.reasons(), mode).toEqual(
        mode === "warn" ? ["not-initialized", "capability-not-declared"] : [],
      );
    }
  });

  it("answers an undeclared incoming call -32601 without reaching the handler", async () => {
    const peer = new RawPeer();
    const log = recorder();
    const ran: string[] = [];
    const host = new Connection(tables("agent"), peer.stream, { log: log.log });
    host.serve({ hello: hello({}), run: () => ran.push("run"), post: () => ran.push("post") });
    open.push(host);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "hello", params: { version: 3 } });
    await peer.next();
    await peer.send({ jsonrpc: "2.0", method: "note/post", params: {} });
    await peer.send({ jsonrpc: "2.0", id: 2, method: "job/run", params: {} });
    expect(await peer.next()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32601, message: "Method not found: job/run", data: { method: "job/run" } },
    });
    expect(ran).toEqual([]);
    const warnings = log.events.filter((e) => e.level === "warn");
    expect(warnings.map((e) => e.message)).toEqual([
      "refused note/post: this agent did not declare hostCaps.notes",
      "refused job/run: this agent did not declare hostCaps.jobs.run",
    ]);
    // Serving a handler whose capability it did not declare is worth a note, at debug level.
    expect(log.events.filter((e) => e.level === "debug").map((e) => e.message)).toEqual([
      "this agent serves run (job/run) but does not declare hostCaps.jobs.run: calls will be refused",
      "this agent serves post (note/post) but does not declare hostCaps.notes: calls will be refused",
    ]);
  });

  it("reports a capability declared without its handler, and still answers", async () => {
    const { guestSide, hostLog } = pair({ hello: hello({ jobs: { run: {} }, notes: true }) });
    await expect(guestSide.request("hello", { version: 3 })).resolves.toMatchObject({
      hostCaps: { notes: true },
    });
    const errors = hostLog.events.filter((e) => e.level === "error");
    expect(errors.map((e) => [e.reason, e.message])).toEqual([
      [
        "capability-without-handler",
        "this agent declares hostCaps.jobs.run but has no run (job/run) handler: the client may call what it cannot serve",
      ],
      [
        "capability-without-handler",
        "this agent declares hostCaps.notes but has no post (note/post) handler: the client may call what it cannot serve",
      ],
    ]);
  });

  it("fails the handshake when the peer answers another protocol version", async () => {
    const { guestSide, sent } = pair({ hello: () => ({ version: 4, hostCaps: {} }) });
    const failed = await guestSide.request("hello", { version: 3 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ValidationError);
    expect((failed as ValidationError).issues).toEqual([
      {
        instancePath: "/version",
        keyword: "const",
        message: "is 4, and this connection speaks protocol version 3",
      },
    ]);
    expect(guestSide.negotiated).toBeUndefined();
    await expect(guestSide.request("say", {})).rejects.toMatchObject({ code: -32600 });
    expect(sent).toEqual(["hello"]);
  });

  it("remembers what was negotiated, on both sides", async () => {
    const { guestSide, hostSide } = pair({ hello: hello({ jobs: {} }) });
    expect(guestSide.negotiated).toBeUndefined();
    await guestSide.request("hello", { version: 3, guestCaps: { fs: { read: true } } });
    const expected = { protocolVersion: 3, agent: { jobs: {} }, client: { fs: { read: true } } };
    expect(guestSide.negotiated).toEqual(expected);
    expect(hostSide.negotiated).toEqual(expected);
  });
});

describe("capabilitiesFrom: the capabilities a side's handlers serve", () => {
  it("declares a method capability exactly when all its handlers are there, beside what was declared", () => {
    const both = [...GATES, gate("agent", ["jobs", "run"], "job/stop", "stop")] as CapabilityGate[];
    const none = capabilitiesFrom(both, "agent", { run: () => {} }, { media: { image: {} } });
    expect(none).toEqual({ media: { image: {} } });
    const all = capabilitiesFrom(both, "agent", { run() {}, stop() {}, post() {} }, {});
    expect(all).toEqual({ jobs: { run: {} }, notes: true });
  });

  it("never turns a declared key into a prototype", () => {
    const declared = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const out = capabilitiesFrom(GATES, "agent", {}, declared);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
