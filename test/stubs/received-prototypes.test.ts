import { describe, expect, it } from "vitest";
import {
  ClientSideConnection,
  type ConnectionOptions,
} from "../../.test-package/package/v1/index.js";
import { RawPeer } from "../runtime/support.js";

/**
 * End to end through a connection: a received line with a `__proto__` key in every object
 * (as JSON.parse makes them: own properties) reaches the handler with none of them, every
 * object with its usual prototype, so copying it (`Object.assign`, spread) cannot replace a
 * prototype. Known kinds, free-form values (`rawInput`, `_meta`) and a kept unknown kind alike.
 */

/** `value` as one JSON text with `"__proto__":{"polluted":true}` first in every object. */
function withProtoKeys(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(withProtoKeys).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${withProtoKeys(v)}`);
  return `{${['"__proto__":{"polluted":true}', ...entries].join(",")}}`;
}

/** Every object in `value`, with where it is. */
function* objectsOf(value: unknown, path = ""): Generator<[string, object]> {
  if (value === null || typeof value !== "object") return;
  yield [path || "/", value];
  for (const [k, v] of Object.entries(value)) yield* objectsOf(v, `${path}/${k}`);
}

const updates: Array<[string, Record<string, unknown>]> = [
  [
    "a tool call with free-form rawInput and _meta",
    {
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      title: "Read",
      rawInput: { path: "/a", options: { deep: [{ x: 1 }] } },
      content: [{ type: "content", content: { type: "text", text: "x" } }],
      locations: [{ path: "/a", line: 3 }],
      _meta: { trace: { id: "abc" } },
    },
  ],
  [
    "a kind this package does not know, kept whole",
    { sessionUpdate: "x_future_kind", steps: [{ title: "one", detail: { depth: 2 } }] },
  ],
  [
    "a known kind holding a content block of an unknown type",
    { sessionUpdate: "agent_message_chunk", content: { type: "x_diagram", nodes: [{ id: 1 }] } },
  ],
];

async function receive(update: Record<string, unknown>, options: ConnectionOptions) {
  const peer = new RawPeer();
  const got: unknown[] = [];
  const client = new ClientSideConnection(
    () => ({
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      sessionUpdate: (params) => {
        got.push(params);
      },
    }),
    peer.stream,
    { ...options, log: () => {} },
  );
  const notification = (params: unknown) =>
    `{"jsonrpc":"2.0","method":"session/update","params":${withProtoKeys(params)}}\n`;
  await peer.send(notification({ sessionId: "s", update }));
  // The same message without the keys, as the reference of what the handler should see.
  await peer.send(
    `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update } })}\n`,
  );
  await expect.poll(() => got.length).toBe(2);
  client.close();
  return { withKeys: got[0], without: got[1] };
}

describe("__proto__ keys in a received message never reach the handler", () => {
  it.each(updates)("%s", async (_label, update) => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const { withKeys, without } = await receive(update, {});
    expect(withKeys).toEqual(without);
    const seen = [...objectsOf(withKeys)];
    // Every object of the message was walked: one per object of the input, plus params.
    expect(seen.length).toBe([...objectsOf({ sessionId: "s", update })].length);
    for (const [where, object] of seen) {
      expect(Object.hasOwn(object, "__proto__"), where).toBe(false);
      expect(Object.getPrototypeOf(object), where).toBe(
        Array.isArray(object) ? Array.prototype : Object.prototype,
      );
      if (Array.isArray(object)) continue;
      const copy = Object.assign({}, object) as Record<string, unknown>;
      expect(Object.getPrototypeOf(copy), where).toBe(Object.prototype);
      expect(copy.polluted, where).toBeUndefined();
      expect({ ...object }, where).not.toHaveProperty("polluted");
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('with unknownVariants: "reject" too', async () => {
    const [, update] = updates[0] as [string, Record<string, unknown>];
    const { withKeys, without } = await receive(update, { unknownVariants: "reject" });
    expect(withKeys).toEqual(without);
    for (const [where, object] of objectsOf(withKeys))
      expect(Object.hasOwn(object, "__proto__"), where).toBe(false);
  });
});
