import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { type SessionSpec, SessionState } from "../../templates/runtime/session-state.js";
import { SCHEMA_DIR } from "../support/run.js";

/**
 * The runtime's state rules (session-state.ts) applied to hand-made updates, with each
 * surface's spec as the generator derives it from the vendored schema: what each update
 * kind does, as the protocol's prose says it should.
 */

const surfaces = buildModel(loadSchemaDir(SCHEMA_DIR, SCHEMA_DIR, new Diagnostics())).surfaces;
const specOf = (id: string): SessionSpec => {
  const spec = surfaces.find((s) => s.id === id)?.session?.spec;
  if (!spec) throw new Error(`no session spec for ${id}`);
  return spec;
};

type Entity = Record<string, unknown>;
const text = (t: string) => ({ type: "text", text: t });
const chunk = (kind: string, t: string, messageId?: string) => ({
  sessionUpdate: `${kind}_chunk`,
  content: text(t),
  ...(messageId === undefined ? {} : { messageId }),
});

function applied(id: string, updates: Entity[]) {
  const state = new SessionState(specOf(id));
  const results = updates.map((u) => state.apply(u));
  return { view: state.view, results, state };
}

describe("session state (v1 rules)", () => {
  it("tool_call creates, tool_call_update changes only what it carries; null leaves a field as it was", () => {
    const { view } = applied("v1", [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c",
        title: "Edit",
        kind: "edit",
        status: "pending",
      },
      { sessionUpdate: "tool_call_update", toolCallId: "c", status: "in_progress", title: null },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        status: "completed",
        rawOutput: { ok: true },
      },
    ]);
    expect((view.toolCalls as Map<string, Entity>).get("c")).toEqual({
      toolCallId: "c",
      title: "Edit",
      kind: "edit",
      status: "completed",
      rawOutput: { ok: true },
    });
  });

  it("a second tool_call for an id replaces the first whole", () => {
    const { view } = applied("v1", [
      { sessionUpdate: "tool_call", toolCallId: "c", title: "First", rawInput: { a: 1 } },
      { sessionUpdate: "tool_call", toolCallId: "c", title: "Second" },
    ]);
    expect((view.toolCalls as Map<string, Entity>).get("c")).toEqual({
      toolCallId: "c",
      title: "Second",
    });
  });

  it("a tool_call_update for a tool call never created changes nothing, and says so", () => {
    const { view, results } = applied("v1", [
      { sessionUpdate: "tool_call_update", toolCallId: "x", status: "completed" },
    ]);
    expect(results).toEqual(["unknown-entity"]);
    expect((view.toolCalls as Map<string, Entity>).size).toBe(0);
  });

  it("a plan replaces the one before it whole", () => {
    const three = [1, 2, 3].map((i) => ({ content: `${i}`, priority: "low", status: "pending" }));
    const { view } = applied("v1", [
      { sessionUpdate: "plan", entries: three },
      { sessionUpdate: "plan", entries: [three[0]] },
    ]);
    expect(view.plan).toEqual({ entries: [three[0]] });
  });

  it("chunks without messageId: a run of one kind is one message; another kind, or any other update, starts the next", () => {
    const { view, state } = applied("v1", [
      chunk("agent_thought", "hmm"),
      chunk("agent_message", "Hel"),
      chunk("agent_message", "lo"),
      { sessionUpdate: "tool_call", toolCallId: "c", title: "Read" },
      chunk("agent_message", "Done"),
    ]);
    state.boundary();
    state.apply(chunk("agent_message", "Next turn"));
    expect(view.messages).toEqual([
      { sessionUpdate: "agent_thought", content: [text("hmm")] },
      { sessionUpdate: "agent_message", content: [text("Hello")] },
      { sessionUpdate: "agent_message", content: [text("Done")] },
      { sessionUpdate: "agent_message", content: [text("Next turn")] },
    ]);
  });

  it("chunks with messageId go to their message, even interleaved", () => {
    const { view } = applied("v1", [
      chunk("agent_message", "a1", "m-a"),
      chunk("agent_message", "b1", "m-b"),
      chunk("agent_message", "a2", "m-a"),
    ]);
    expect(view.messages).toEqual([
      { sessionUpdate: "agent_message", messageId: "m-a", content: [text("a1a2")] },
      { sessionUpdate: "agent_message", messageId: "m-b", content: [text("b1")] },
    ]);
  });

  it("plain text chunks are kept joined; a block with more than text is kept as it came", () => {
    const annotated = { type: "text", text: "!", annotations: { priority: 1 } };
    const first = chunk("agent_message", "Hel");
    const { view } = applied("v1", [
      first,
      chunk("agent_message", "lo"),
      { sessionUpdate: "agent_message_chunk", content: annotated },
      chunk("agent_message", " and more"),
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "image", data: "AA==", mimeType: "image/png" },
      },
    ]);
    expect(view.messages).toEqual([
      {
        sessionUpdate: "agent_message",
        content: [
          text("Hello"),
          annotated,
          text(" and more"),
          { type: "image", data: "AA==", mimeType: "image/png" },
        ],
      },
    ]);
    // The blocks the updates carried are as they came.
    expect(first.content).toEqual(text("Hel"));
  });

  it("session_info_update merges what it carries; null clears where the schema says so", () => {
    const { view } = applied("v1", [
      { sessionUpdate: "session_info_update", title: "Draft", updatedAt: "2026-01-01T00:00:00Z" },
      { sessionUpdate: "session_info_update", title: null },
    ]);
    expect(view.sessionInfoUpdate).toEqual({ updatedAt: "2026-01-01T00:00:00Z" });
  });

  it("the answers of calls: session/new's modes and config options, set_mode's params", () => {
    const state = new SessionState(specOf("v1"));
    state.applyCall(
      "session/new",
      {},
      { sessionId: "s", modes: { currentModeId: "ask", availableModes: [] }, configOptions: [] },
    );
    expect(state.view.currentModeId).toBe("ask");
    expect(state.view.configOptions).toEqual([]);
    state.applyCall("session/set_mode", { sessionId: "s", modeId: "code" }, {});
    expect(state.view.currentModeId).toBe("code");
    state.apply({ sessionUpdate: "current_mode_update", currentModeId: "architect" });
    expect(state.view.currentModeId).toBe("architect");
  });

  it("never changes the updates it was given, and never lets a __proto__ field through", () => {
    const first = {
      sessionUpdate: "tool_call",
      toolCallId: "c",
      title: "T",
      content: [] as unknown[],
    };
    const patch = JSON.parse(
      '{"sessionUpdate":"tool_call_update","toolCallId":"c","__proto__":{"polluted":true}}',
    );
    const { view } = applied("v1", [first, patch]);
    expect(first).toEqual({ sessionUpdate: "tool_call", toolCallId: "c", title: "T", content: [] });
    const entity = (view.toolCalls as Map<string, Entity>).get("c") as Entity;
    expect(Object.getPrototypeOf(entity)).toBe(Object.prototype);
    expect(({} as Entity).polluted).toBeUndefined();
  });
});

describe("session state (v2 rules)", () => {
  it("tool_call_update upserts: a new id starts an entity, null clears, _meta is patched by key", () => {
    const { view } = applied("v2", [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        title: "Run",
        status: "pending",
        _meta: { a: 1, b: 2 },
      },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        title: null,
        status: "in_progress",
        _meta: { b: null, c: 3 },
      },
    ]);
    expect((view.toolCalls as Map<string, Entity>).get("c")).toEqual({
      toolCallId: "c",
      status: "in_progress",
      _meta: { a: 1, c: 3 },
    });
  });

  it("tool_call_content_chunk appends to the tool call's content, never to the update that set it", () => {
    const setContent = {
      sessionUpdate: "tool_call_update",
      toolCallId: "c",
      content: [{ type: "content", content: text("a") }],
    };
    const { view } = applied("v2", [
      setContent,
      {
        sessionUpdate: "tool_call_content_chunk",
        toolCallId: "c",
        content: { type: "content", content: text("b") },
      },
    ]);
    expect(((view.toolCalls as Map<string, Entity>).get("c") as Entity).content).toEqual([
      { type: "content", content: text("a") },
      { type: "content", content: text("b") },
    ]);
    expect(setContent.content).toHaveLength(1);
  });

  it("an agent_message replaces the content chunks made; later chunks append to it", () => {
    const { view } = applied("v2", [
      chunk("agent_message", "Hel", "m"),
      chunk("agent_message", "lo", "m"),
      { sessionUpdate: "agent_message", messageId: "m", content: [text("Hello, patched")] },
      chunk("agent_message", " again", "m"),
    ]);
    expect((view.messages as Map<string, Entity>).get("m")).toEqual({
      sessionUpdate: "agent_message",
      messageId: "m",
      content: [text("Hello, patched again")],
    });
  });

  it("the state update's state is the session's", () => {
    const { view } = applied("v2", [
      { sessionUpdate: "state_update", state: "running" },
      { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" },
    ]);
    expect(view.state).toBe("idle");
  });

  it("plan_update puts a plan by its id, whole; plan_removed removes it (unstable)", () => {
    const items = (planId: string, n: number) => ({
      sessionUpdate: "plan_update",
      plan: {
        type: "items",
        planId,
        entries: Array.from({ length: n }, (_, i) => ({
          content: `${i}`,
          priority: "low",
          status: "pending",
        })),
      },
    });
    const { view, state } = applied("v2/unstable", [
      items("p1", 3),
      items("p2", 1),
      items("p1", 1),
    ]);
    const plans = view.plans as Map<string, Entity>;
    expect([...plans.keys()]).toEqual(["p1", "p2"]);
    expect(plans.get("p1")?.entries).toHaveLength(1);
    state.apply({ sessionUpdate: "plan_removed", planId: "p1" });
    expect([...plans.keys()]).toEqual(["p2"]);
  });

  it("an update kind without a rule changes nothing", () => {
    const { view, results } = applied("v2", [{ sessionUpdate: "_vendor/thing", anything: true }]);
    expect(results).toEqual([undefined]);
    expect((view.toolCalls as Map<string, Entity>).size).toBe(0);
    expect((view.messages as Map<string, Entity>).size).toBe(0);
  });
});
