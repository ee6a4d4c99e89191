import { afterEach, describe, expect, it } from "vitest";
import { ConnectionClosedError, TurnAbandonedError } from "../../.test-package/package/v2/index.js";
import { COMMANDS, OLD_SESSION, REPLAYED_ANSWER, REPLAYED_QUESTION } from "./fixtures/script.js";
import {
  chunkText,
  drain,
  firstUpdate,
  IMPLEMENTATIONS,
  outcome,
  stopAgents,
  v2Client,
} from "./support.js";

/**
 * The client's session layer on the v2 draft, against an agent process over stdio (ours
 * and the official SDK's): a prompt is answered with a receipt, the turn ends with the idle
 * state update, messages are patched by `messageId`, tool calls upserted.
 */

afterEach(stopAgents);

const NEW_SESSION = { cwd: "/workspace", mcpServers: [] };
const texts = (content: ReadonlyArray<{ type: string; text?: string }> | undefined) =>
  (content ?? []).map((c) => (c.type === "text" ? c.text : `<${c.type}>`));

describe.each(IMPLEMENTATIONS)("sessions (v2) against %s agent over stdio", (impl) => {
  it("message patches by messageId and state updates: the turn ends at idle, with the receipt", {
    timeout: 30_000,
  }, async () => {
    const states: unknown[] = [];
    let session:
      | Awaited<ReturnType<Awaited<ReturnType<typeof v2Client>>["conn"]["session"]>>
      | undefined;
    const { conn } = await v2Client(impl, {}, (params) => {
      if (params.update.sessionUpdate === "state_update") states.push(session?.state.state);
    });
    session = await conn.session(NEW_SESSION);
    const turn = session.prompt("patches");
    const updates = await drain(turn);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "state_update",
      "user_message",
      "agent_message_chunk",
      "agent_message_chunk",
      "agent_message",
      "agent_message_chunk",
      "tool_call_update",
      "tool_call_update",
      "state_update",
    ]);
    const receipt = (await turn) as { messageId: string };
    expect(receipt.messageId).toMatch(/^u-/);
    expect(turn.stopReason).toBe("end_turn");
    expect(states).toEqual(["running", "idle"]);
    expect(session.state.state).toBe("idle");
    // The agent message: two chunks, replaced whole by the patch, then one more chunk
    // (plain text kept joined).
    const agentMessages = [...session.state.messages.values()].filter(
      (m) => m.sessionUpdate === "agent_message",
    );
    expect(agentMessages.map((m) => texts(m.content))).toEqual([["Hello, patched again"]]);
    expect(await turn.text()).toBe("Hello, patched again");
    // The user message, upserted under the receipt's id.
    const user = session.state.messages.get(receipt.messageId);
    expect(user?.sessionUpdate).toBe("user_message");
    expect(texts(user?.content)).toEqual(["patches"]);
    // A tool call upserted by tool_call_update alone, merged.
    expect(session.state.toolCalls.get("call-1")).toEqual({
      toolCallId: "call-1",
      title: "Read notes.md",
      status: "completed",
    });
  });

  it("a turn whose updates all arrive before the receipt ends at the receipt", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl);
    const session = await conn.session(NEW_SESSION);
    const turn = session.prompt("quick");
    const updates = await drain(turn);
    expect(updates.at(-1)).toMatchObject({ sessionUpdate: "state_update", state: "idle" });
    expect(await turn).toMatchObject({ messageId: expect.stringMatching(/^u-/) });
    expect(await turn.text()).toBe("Hello, patched again");
    // The next turn is its own, from its prompt to its idle.
    const next = session.prompt("second");
    const nextUpdates = await drain(next);
    expect(nextUpdates.map(chunkText).filter(Boolean)).toEqual(["echo: second"]);
    expect(nextUpdates.at(0)).toMatchObject({ sessionUpdate: "state_update", state: "running" });
  });

  it("two sessions prompted at once: each turn yields only its own updates", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl);
    const [a, b] = await Promise.all([conn.session(NEW_SESSION), conn.session(NEW_SESSION)]);
    const [aUpdates, bUpdates] = await Promise.all([
      drain(a.prompt("one")),
      drain(b.prompt("two")),
    ]);
    expect(aUpdates.map(chunkText).filter(Boolean)).toEqual(["echo: one"]);
    expect(bUpdates.map(chunkText).filter(Boolean)).toEqual(["echo: two"]);
  });

  it("an agent that ignores the cancel: the turn settles abandoned, the next turn is its own, no stale session/cancel", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v2Client(impl, { cancelGraceMs: 300 });
    const session = await conn.session(NEW_SESSION);
    const stuck = session.prompt("ignore-cancel");
    // Its first update is the running state; the chunk follows.
    expect(await firstUpdate(stuck)).toMatchObject({
      sessionUpdate: "state_update",
      state: "running",
    });
    stuck.cancel();
    expect((await outcome(stuck)).error).toBeInstanceOf(TurnAbandonedError);
    const next = session.prompt("after");
    stuck.cancel();
    const updates = await drain(next);
    expect(updates.map(chunkText).filter(Boolean)).toEqual(["echo: after"]);
    expect(next.stopReason).toBe("end_turn");
    const methods = wire.methods();
    expect(methods.filter((m) => m === "session/cancel")).toHaveLength(1);
    expect(methods.lastIndexOf("session/cancel")).toBeLessThan(
      methods.lastIndexOf("session/prompt"),
    );
  });

  it("a cancel the agent honours: the idle update with its stop reason ends the turn", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl, { cancelGraceMs: 5000 });
    const session = await conn.session(NEW_SESSION);
    const turn = session.prompt("ignore-cancel answer-after 10");
    await firstUpdate(turn);
    turn.cancel();
    expect(await turn).toMatchObject({ messageId: expect.any(String) });
    expect(turn.stopReason).toBe("cancelled");
  });

  it("session/resume's replay is the session's history, not a turn's", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl);
    const session = await conn.resumeSession({ sessionId: OLD_SESSION, ...NEW_SESSION });
    expect(session.history.map((u) => u.sessionUpdate)).toEqual([
      "user_message",
      "agent_message",
      "state_update",
    ]);
    expect(session.state.state).toBe("idle");
    expect(texts(session.state.messages.get("old-a")?.content)).toEqual([REPLAYED_ANSWER]);
    expect(texts(session.state.messages.get("old-u")?.content)).toEqual([REPLAYED_QUESTION]);
    const turn = session.prompt("live");
    const updates = await drain(turn);
    expect(updates.map(chunkText).filter(Boolean)).toEqual(["echo: live"]);
    expect(session.history).toHaveLength(3);
  });

  it("what the agent sends before session/new answers is the session's history, and state", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl);
    const session = await conn.session(NEW_SESSION);
    expect(session.history.map((u) => u.sessionUpdate)).toEqual(["available_commands_update"]);
    expect(session.state.availableCommands).toEqual(COMMANDS);
    const turn = session.prompt("first");
    expect((await drain(turn)).map((u) => u.sessionUpdate)).not.toContain(
      "available_commands_update",
    );
  });

  it("a connection that closes fails a turn still waiting for its idle", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v2Client(impl);
    const session = await conn.session(NEW_SESSION);
    const turn = session.prompt("ignore-cancel");
    await firstUpdate(turn);
    conn.close();
    expect((await outcome(turn)).error).toBeInstanceOf(ConnectionClosedError);
  });
});
