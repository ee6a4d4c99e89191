import { describe, expect, it } from "vitest";
import { AgentSideConnection, type ConnectionOptions } from "../.test-package/package/v1/index.js";
import { RawPeer, recorder } from "./runtime/support.js";

/**
 * What a buggy or malicious peer can put on the wire, against a generated agent: each
 * message gets a JSON-RPC answer or is dropped with a logged reason, the connection keeps
 * serving, nothing throws out of the process, and Object.prototype is never touched.
 */
interface Answer {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

function agentOver(peer: RawPeer, log: ConnectionOptions["log"]) {
  return new AgentSideConnection(
    () => ({
      async initialize(params) {
        return {
          protocolVersion: 1,
          agentInfo: { name: "hostile-test", version: String(params.protocolVersion) },
        };
      },
      async sessionNew() {
        return { sessionId: "s1" };
      },
      async sessionPrompt() {
        return { stopReason: "end_turn" as const };
      },
      async sessionCancel() {},
    }),
    peer.stream,
    // Answered, so that every case can be checked on the wire (the default drops junk lines).
    { log, malformedInput: "answer" },
  );
}

const initialize = (id: number, extra = "") =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":1${extra}}}\n`;

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort().join(",");

describe("hostile messages on the wire", () => {
  const cases: Array<[string, string, (answer: Answer | undefined) => void]> = [
    [
      "params nested 10,000 levels deep",
      initialize(11, `,"_meta":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`),
      (a) => expect(a?.id).toBe(11),
    ],
    [
      "a line nested 200,000 levels deep",
      `{"jsonrpc":"2.0","id":12,"method":"initialize","params":${"[".repeat(200_000)}${"]".repeat(200_000)}}\n`,
      // Params that fail the schema (an array where InitializeRequest is an object): -32602.
      (a) =>
        expect(a).toMatchObject({
          id: 12,
          error: { code: -32602, data: { type: "InitializeRequest" } },
        }),
    ],
    [
      "_meta nested 200,000 levels deep",
      initialize(19, `,"_meta":${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}`),
      // Free-form, so valid at any depth: answered, not crashed on.
      (a) => expect(a).toMatchObject({ id: 19, result: { protocolVersion: 1 } }),
    ],
    [
      "a 5 MB string",
      initialize(13, `,"clientInfo":{"name":"${"x".repeat(5_000_000)}","version":"1"}`),
      (a) => expect(a?.result).toBeDefined(),
    ],
    [
      "a number beyond 2^53 where uint16 is expected",
      initialize(14).replace('"protocolVersion":1', '"protocolVersion":9007199254740993'),
      (a) => expect(a?.error?.code).toBe(-32602),
    ],
    [
      "__proto__ keys at every level",
      `{"__proto__":{"polluted":1},"jsonrpc":"2.0","id":15,"method":"initialize","params":{"__proto__":{"polluted":2},"protocolVersion":1,"clientCapabilities":{"__proto__":{"polluted":3},"fs":{"__proto__":{"polluted":4}}},"_meta":{"__proto__":{"polluted":5},"constructor":{"prototype":{"polluted":6}}}}}\n`,
      (a) => expect(a?.id).toBe(15),
    ],
    [
      "duplicate keys (the last one wins, as in JSON.parse)",
      `{"jsonrpc":"2.0","id":16,"id":17,"method":"initialize","params":{"protocolVersion":1}}\n`,
      (a) => expect(a?.id).toBe(17),
    ],
    [
      "lone surrogates in strings",
      initialize(18, ',"clientInfo":{"name":"\\ud800\\udfff\\udc00","version":"\\ud83d"}'),
      (a) => expect(a?.result).toBeDefined(),
    ],
    [
      // The bytes of `{`, two bytes that never occur in UTF-8, `}` and a newline.
      "invalid UTF-8 bytes",
      "bytes:7bfffe7d0a",
      (a) => expect(a).toMatchObject({ id: null, error: { code: -32700 } }),
    ],
  ];

  it.each(cases)(
    "%s: answered or dropped, and the connection keeps serving",
    async (_label, message, check) => {
      const before = prototypeNames();
      const logs = recorder();
      const peer = new RawPeer({ maxMessageBytes: 64 * 1024 * 1024 });
      const agent = agentOver(peer, logs.log);
      await peer.send(
        message.startsWith("bytes:")
          ? Uint8Array.from(Buffer.from(message.slice(6), "hex"))
          : message,
      );
      check((await peer.next()) as Answer);
      await peer.send(initialize(99));
      expect(((await peer.next()) as Answer).id).toBe(99);
      expect(prototypeNames()).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      agent.close();
    },
  );

  it("half a line, then end of input: the connection closes cleanly", async () => {
    const peer = new RawPeer();
    const agent = agentOver(peer, recorder().log);
    await peer.send(initialize(21));
    expect(((await peer.next()) as Answer).id).toBe(21);
    await peer.send('{"jsonrpc":"2.0","id":22,"meth');
    await peer.end();
    await agent.closed;
    expect(agent.signal.aborted).toBe(true);
    expect(await peer.outputEnded()).toBe(true);
  });
});
