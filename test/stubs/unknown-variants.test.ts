import { join } from "node:path";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { type AgentProcess, spawnAgent } from "../../.test-package/package/node/index.js";
import {
  type Agent,
  AgentSideConnection,
  type Client,
  ClientSideConnection,
  type ConnectionOptions,
  type ContentBlock,
  isSessionUpdateOf,
  type LogEvent,
  type PromptRequest,
  type Received,
  RequestError,
  type SessionNotification,
} from "../../.test-package/package/v1/index.js";
import type { Json } from "../../generator/schema/json.js";
import { knownTags, readTaggedUnion } from "../parse/tagged.js";
import { streamPair } from "../runtime/support.js";
import { SURFACES, schemaOf } from "../support/surfaces.js";
import { FIXTURES, TS_NODE } from "./support.js";

/**
 * A value of a closed tagged union whose tag this package does not know (a newer peer's
 * session/update kind, content block type) reaches the handler whole by default, typed as
 * the received type that admits it; `unknownVariants: "reject"` drops it (a request: -32602)
 * with a warning naming the kind.
 */

const v1 = SURFACES.find((s) => s.id === "v1");
if (!v1) throw new Error("no v1 surface in schema/");
const defs = new Map(Object.entries(schemaOf(v1).$defs) as Array<[string, Json]>);

/** A tag value the schema's union `name` does not know: a newer peer's kind. */
function unknownKindOf(name: string, wanted: string): { tag: string; kind: string } {
  const union = readTaggedUnion(defs.get(name) as Json, defs);
  if (!union) throw new Error(`${name} is no tagged union in the v1 schema`);
  const known = new Set(knownTags(union));
  let kind = wanted;
  while (known.has(kind)) kind += "_next";
  return { tag: union.tag, kind };
}

const update = unknownKindOf("SessionUpdate", "plan_v2");
const block = unknownKindOf("ContentBlock", "diagram");
/** What a newer agent sends: the unknown kind with fields of its own, nested too. */
const futureUpdate = {
  [update.tag]: update.kind,
  steps: [{ title: "one", done: false }],
  owner: { name: "agent" },
};
const knownUpdate = {
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text: "after" },
};

const open: Array<{ close(): void }> = [];
const spawned: AgentProcess[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  for (const a of spawned.splice(0)) a.child.kill("SIGKILL");
});

const agentHandlers = (
  onPrompt: (params: Received.PromptRequest) => void = () => {},
): ((conn: AgentSideConnection) => Agent) => {
  return () => ({
    initialize: () => ({ protocolVersion: 1 }),
    sessionNew: () => ({ sessionId: "s" }),
    sessionPrompt: (params) => {
      onPrompt(params);
      return { stopReason: "end_turn" };
    },
    sessionCancel: () => {},
  });
};

/** A client and an agent in this process; the agent sends what it is given unchecked. */
function pair(clientOptions: ConnectionOptions) {
  const [agentEnd, clientEnd] = streamPair();
  const updates: unknown[] = [];
  const logs: LogEvent[] = [];
  const twoUpdates = new Promise<void>((resolve) => {
    const client = new ClientSideConnection(
      () => ({
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        sessionUpdate: (params) => {
          updates.push(params.update);
          if (updates.length === 2) resolve();
        },
      }),
      clientEnd,
      { ...clientOptions, log: (event) => logs.push(event) },
    );
    open.push(client);
  });
  const agent = new AgentSideConnection(agentHandlers(), agentEnd, {
    validate: { sent: false },
  });
  open.push(agent);
  const send = (value: unknown) =>
    agent.client.sessionUpdate({ sessionId: "s", update: value } as SessionNotification);
  return { send, updates, logs, twoUpdates };
}

describe("a session/update of a kind this package does not know, in one process", () => {
  it("reaches the client's handler whole by default, and is noted with its kind", async () => {
    const { send, updates, logs } = pair({});
    await send(futureUpdate);
    await send(knownUpdate);
    await send(knownUpdate);
    await expect.poll(() => updates.length).toBe(3);
    expect(updates[0]).toEqual(futureUpdate);
    expect(updates.slice(1)).toEqual([knownUpdate, knownUpdate]);
    const noted = logs.filter((e) => e.reason === "unknown-variant");
    expect(noted).toHaveLength(1);
    expect(noted[0]?.level).toBe("debug");
    expect(noted[0]?.message).toContain(`${update.tag} "${update.kind}"`);
  });

  it('with unknownVariants: "reject" is dropped with a warning naming the kind; the rest arrives', async () => {
    const { send, updates, logs, twoUpdates } = pair({ unknownVariants: "reject" });
    await send(futureUpdate);
    await send(knownUpdate);
    await send({ ...knownUpdate, content: { type: "text", text: "last" } });
    await twoUpdates;
    expect(updates).toEqual([
      knownUpdate,
      { ...knownUpdate, content: { type: "text", text: "last" } },
    ]);
    const warned = logs.filter((e) => e.reason === "unknown-variant");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: "warn", method: "session/update" });
    expect(warned[0]?.message).toContain("dropped session/update");
    expect(warned[0]?.message).toContain(`${update.tag} "${update.kind}"`);
  });

  it("an update that is invalid for another reason is still refused as invalid, not as unknown", async () => {
    const { send, updates, logs } = pair({});
    // An unknown kind inside a known one that lacks a required field.
    await send({ sessionUpdate: "tool_call", title: "no id", content: [{ type: block.kind }] });
    await send(knownUpdate);
    await expect.poll(() => updates.length).toBe(1);
    expect(updates).toEqual([knownUpdate]);
    expect(logs.map((e) => e.reason)).toContain("invalid-params");
  });
});

describe("a request holding a variant this package does not know", () => {
  const prompt = {
    sessionId: "s",
    prompt: [
      { [block.tag]: block.kind, nodes: ["a", "b"] },
      { type: "text", text: "hi" },
    ],
  };

  function connect(agentOptions: ConnectionOptions) {
    const [agentEnd, clientEnd] = streamPair();
    const seen: Received.PromptRequest[] = [];
    const logs: LogEvent[] = [];
    const agent = new AgentSideConnection(
      agentHandlers((p) => seen.push(p)),
      agentEnd,
      { ...agentOptions, log: (event) => logs.push(event) },
    );
    const client = new ClientSideConnection(
      () => ({
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        sessionUpdate: () => {},
      }),
      clientEnd,
      { validate: { sent: false } },
    );
    open.push(agent, client);
    return { client, seen, logs };
  }

  it("reaches the agent's handler whole by default", async () => {
    const { client, seen } = connect({});
    await expect(client.agent.sessionPrompt(prompt as PromptRequest)).resolves.toEqual({
      stopReason: "end_turn",
    });
    expect(seen).toEqual([prompt]);
  });

  it('with unknownVariants: "reject" is answered -32602 naming the kind; the handler never runs', async () => {
    const { client, seen, logs } = connect({ unknownVariants: "reject" });
    const answer = client.agent.sessionPrompt(prompt as PromptRequest);
    await expect(answer).rejects.toBeInstanceOf(RequestError);
    await expect(answer).rejects.toMatchObject({ code: -32602 });
    await expect(answer).rejects.toThrow(`${block.tag} "${block.kind}"`);
    expect(seen).toEqual([]);
    expect(logs.filter((e) => e.reason === "unknown-variant")).toHaveLength(1);
  });
});

describe("handler types", () => {
  it("by default admit the unknown variant: a known tag does not narrow it away", () => {
    type Params = Parameters<Client["sessionUpdate"]>[0];
    expectTypeOf<Params>().toEqualTypeOf<Received.SessionNotification>();
    expectTypeOf<Params>().not.toMatchTypeOf<SessionNotification>();
    const handler = (params: Params) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk") expectTypeOf(u.content).toBeUnknown();
      // The generated guard checks the payload, so it narrows to the known variant.
      if (isSessionUpdateOf(u, "agent_message_chunk"))
        expectTypeOf(u.content).toEqualTypeOf<ContentBlock>();
    };
    expect(handler).toBeTypeOf("function");
  });

  it('with unknownVariants: "reject" are the plain types', () => {
    type Params = Parameters<Client<true>["sessionUpdate"]>[0];
    expectTypeOf<Params>().toEqualTypeOf<SessionNotification>();
    const strict = (stream: ReturnType<typeof streamPair>[0]) =>
      new ClientSideConnection(
        () => ({
          sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
          sessionUpdate: (params: SessionNotification) => {
            if (params.update.sessionUpdate === "agent_message_chunk")
              expectTypeOf(params.update.content).toEqualTypeOf<ContentBlock>();
          },
        }),
        stream,
        { unknownVariants: "reject" },
      );
    expect(strict).toBeTypeOf("function");
  });
});

describe("two processes: our agent sends an unknown kind raw, our client receives it", {
  timeout: 30_000,
}, () => {
  const [node, ...tsx] = TS_NODE as [string, ...string[]];

  async function turn(options: ConnectionOptions) {
    const agent = spawnAgent(node, [...tsx, join(FIXTURES, "future-agent.ts")], {
      stderr: "keep",
    });
    spawned.push(agent);
    const updates: unknown[] = [];
    const logs: LogEvent[] = [];
    const conn = new ClientSideConnection(
      () => ({
        sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        sessionUpdate: ({ update }) => {
          updates.push(update);
        },
      }),
      agent.stream,
      { ...options, log: (event) => logs.push(event) },
    );
    open.push(conn);
    await conn.agent.initialize({ protocolVersion: 1 });
    const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const { stopReason } = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: JSON.stringify([futureUpdate, knownUpdate]) }],
    });
    expect(stopReason).toBe("end_turn");
    return { updates, logs };
  }

  it("delivers it to the handler by default", async () => {
    const { updates } = await turn({});
    expect(updates).toEqual([futureUpdate, knownUpdate]);
  });

  it('drops it with a warning naming the kind with unknownVariants: "reject"', async () => {
    const { updates, logs } = await turn({ unknownVariants: "reject" });
    expect(updates).toEqual([knownUpdate]);
    const warned = logs.filter((e) => e.reason === "unknown-variant");
    expect(warned.map((e) => e.level)).toEqual(["warn"]);
    expect(warned[0]?.message).toContain(`${update.tag} "${update.kind}"`);
  });
});
