import { afterEach, describe, expect, it } from "vitest";
import { ConnectionClosedError, TurnAbandonedError } from "../../.test-package/package/v1/index.js";
import {
  MODES,
  OLD_SESSION,
  PLAN_OF_ONE,
  PLAN_OF_THREE,
  REPLAYED_ANSWER,
  REPLAYED_QUESTION,
  TOOL_CALL,
} from "./fixtures/script.js";
import {
  chunkText,
  drain,
  firstUpdate,
  IMPLEMENTATIONS,
  outcome,
  reader,
  stopAgents,
  v1Client,
} from "./support.js";

/**
 * The client's session layer (v1) against an agent process over stdio, ours and the
 * official SDK's alike: routing by session, the tool-call and plan rules, cancel for sure,
 * and load's replay kept apart.
 */

afterEach(stopAgents);

const NEW_SESSION = { cwd: "/workspace", mcpServers: [] };

describe.each(IMPLEMENTATIONS)("sessions (v1) against %s agent over stdio", (impl) => {
  it("two sessions prompted at once: each turn yields only its own updates", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl);
    const [a, b] = await Promise.all([conn.session(NEW_SESSION), conn.session(NEW_SESSION)]);
    expect(a.sessionId).not.toBe(b.sessionId);
    const [aUpdates, bUpdates] = await Promise.all([
      drain(a.prompt("count a 12")),
      drain(b.prompt("count b 12")),
    ]);
    const count = (tag: string) => Array.from({ length: 12 }, (_, i) => `${tag}-${i + 1}`);
    expect(aUpdates.map(chunkText)).toEqual(count("a"));
    expect(bUpdates.map(chunkText)).toEqual(count("b"));
    expect(wire.methods().filter((m) => m === "session/prompt")).toHaveLength(2);
    expect(await a.prompt("done")).toEqual({ stopReason: "end_turn" });
  });

  it("the two turns' updates interleaved on the wire (the routing had work to do)", {
    timeout: 30_000,
  }, async () => {
    const order: string[] = [];
    const { conn } = await v1Client(impl, {}, (params) => order.push(String(params.sessionId)));
    const [a, b] = await Promise.all([conn.session(NEW_SESSION), conn.session(NEW_SESSION)]);
    await Promise.all([a.prompt("count a 12"), b.prompt("count b 12")]);
    const switches = order.filter((id, i) => i > 0 && id !== order[i - 1]).length;
    expect(switches).toBeGreaterThan(2);
  });

  it("a tool call taken pending → in_progress → completed by partial updates ends merged", {
    timeout: 30_000,
  }, async () => {
    const statuses: unknown[] = [];
    let session:
      | Awaited<ReturnType<Awaited<ReturnType<typeof v1Client>>["conn"]["session"]>>
      | undefined;
    // The application's handler runs after the session applied the update: it sees the state it made.
    const { conn } = await v1Client(impl, {}, () =>
      statuses.push(session?.state.toolCalls.get("call-1")?.status),
    );
    session = await conn.session(NEW_SESSION);
    const turn = session.prompt("tool");
    const updates = await drain(turn);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "tool_call",
      "tool_call_update",
      "tool_call_update",
    ]);
    expect(statuses).toEqual(["pending", "in_progress", "completed"]);
    // tool_call creates it; each tool_call_update changes only the fields it carries.
    const { sessionUpdate: _create, ...created } = TOOL_CALL.create;
    expect(session.state.toolCalls.get("call-1")).toEqual({
      ...created,
      status: "completed",
      content: TOOL_CALL.finish.content,
      rawOutput: TOOL_CALL.finish.rawOutput,
    });
    expect([...session.state.toolCalls.keys()]).toEqual(["call-1"]);
    expect(await turn).toEqual({ stopReason: "end_turn" });
  });

  it("a plan of three entries is replaced whole by a plan of one", {
    timeout: 30_000,
  }, async () => {
    const sizes: unknown[] = [];
    let session:
      | Awaited<ReturnType<Awaited<ReturnType<typeof v1Client>>["conn"]["session"]>>
      | undefined;
    const { conn } = await v1Client(impl, {}, () =>
      sizes.push(session?.state.plan?.entries.length),
    );
    session = await conn.session(NEW_SESSION);
    await session.prompt("plan");
    expect(sizes).toEqual([3, 1]);
    expect(session.state.plan).toEqual({ entries: PLAN_OF_ONE });
    expect(session.state.plan?.entries).not.toContainEqual(PLAN_OF_THREE[0]);
  });

  it("an agent that never answers a cancel: the turn settles abandoned, the next turn gets its own answer, no stale session/cancel", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl, { cancelGraceMs: 300 });
    const session = await conn.session(NEW_SESSION);
    const stuck = session.prompt("ignore-cancel");
    const read = reader(stuck);
    expect(chunkText(await read.next())).toBe("working");
    stuck.cancel();
    const abandoned = await outcome(stuck);
    expect(abandoned.error).toBeInstanceOf(TurnAbandonedError);
    expect((abandoned.error as TurnAbandonedError).sessionId).toBe(session.sessionId);
    // Reading it ends the same way: by throwing why.
    const rest = await read.rest();
    expect(rest.updates).toEqual([]);
    expect(rest.error).toBe(abandoned.error);
    expect((await wire.logged("turn-abandoned")).level).toBe("warn");

    const next = session.prompt("after");
    // Cancelling the settled turn again, while the next runs, sends nothing.
    stuck.cancel();
    expect(await next).toEqual({ stopReason: "end_turn" });
    expect(await next.text()).toBe("echo: after");
    stuck.cancel();
    const methods = wire.methods();
    expect(methods.filter((m) => m === "session/cancel")).toHaveLength(1);
    expect(methods.lastIndexOf("session/cancel")).toBeLessThan(
      methods.lastIndexOf("session/prompt"),
    );
    const cancel = wire.sent.find((m) => m.method === "session/cancel");
    expect(cancel?.params).toEqual({ sessionId: session.sessionId });
  });

  it("a late answer to an abandoned turn is dropped with a log line, not given to the turn running then", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl, { cancelGraceMs: 300 });
    const session = await conn.session(NEW_SESSION);
    const stuck = session.prompt("ignore-cancel answer-after 1500");
    await firstUpdate(stuck);
    stuck.cancel();
    expect((await outcome(stuck)).error).toBeInstanceOf(TurnAbandonedError);
    // Running while the abandoned turn's answer (`cancelled`) arrives.
    const next = session.prompt("wait 3000");
    const late = await wire.logged("late-response");
    expect(late.level).toBe("debug");
    expect(await next).toEqual({ stopReason: "end_turn" });
    expect(next.stopReason).toBe("end_turn");
  });

  it("a late update of an abandoned turn is dropped with a log line, not given to the next turn", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl, { cancelGraceMs: 300 });
    const session = await conn.session(NEW_SESSION);
    const outside: unknown[] = [];
    const outsideRead = (async () => {
      for await (const update of session.updates()) outside.push(update);
    })();
    const stuck = session.prompt("ignore-cancel update-after 1000");
    const read = reader(stuck);
    await read.next();
    stuck.cancel();
    expect((await outcome(stuck)).error).toBeInstanceOf(TurnAbandonedError);
    await wire.logged("late-update");
    const next = session.prompt("fresh");
    expect((await drain(next)).map(chunkText)).toEqual(["echo: fresh"]);
    const rest = await read.rest();
    expect(rest.updates).toEqual([]);
    expect(rest.error).toBeInstanceOf(TurnAbandonedError);
    await session.close();
    await outsideRead;
    expect(outside).toEqual([]);
  });

  it("aborting the prompt's signal cancels the turn like cancel()", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl, { cancelGraceMs: 300 });
    const session = await conn.session(NEW_SESSION);
    const stop = new AbortController();
    const turn = session.prompt("ignore-cancel answer-after 10", { signal: stop.signal });
    await firstUpdate(turn);
    stop.abort();
    // The agent answers within the grace: the turn ends with its own answer.
    expect(await turn).toEqual({ stopReason: "cancelled" });
    expect(turn.stopReason).toBe("cancelled");
    expect(wire.methods().filter((m) => m === "session/cancel")).toHaveLength(1);
  });

  it("session/load's replay is the session's history, not a turn's", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v1Client(impl);
    const outside: unknown[] = [];
    const session = await conn.loadSession({ sessionId: OLD_SESSION, ...NEW_SESSION });
    const outsideRead = (async () => {
      for await (const update of session.updates()) outside.push(update);
    })();
    expect(session.sessionId).toBe(OLD_SESSION);
    expect(session.history.map((u) => [u.sessionUpdate, chunkText(u)])).toEqual([
      ["user_message_chunk", REPLAYED_QUESTION],
      ["agent_message_chunk", REPLAYED_ANSWER],
    ]);
    const turn = session.prompt("live");
    expect((await drain(turn)).map(chunkText)).toEqual(["echo: live"]);
    expect(await turn.text()).toBe("echo: live");
    expect(session.history).toHaveLength(2);
    // The state holds both: the replayed conversation, then the live answer, as messages.
    expect(
      session.state.messages.map((m) => [
        m.sessionUpdate,
        m.content.map((c) => (c.type === "text" ? c.text : "")),
      ]),
    ).toEqual([
      ["user_message", [REPLAYED_QUESTION]],
      ["agent_message", [REPLAYED_ANSWER]],
      ["agent_message", ["echo: live"]],
    ]);
    await session.close();
    await outsideRead;
    expect(outside).toEqual([]);
  });

  it("the current mode: from session/new's answer, set_mode's params once answered, current_mode_update", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v1Client(impl);
    const session = await conn.session(NEW_SESSION);
    expect(session.response.modes).toEqual(MODES);
    expect(session.state.currentModeId).toBe("ask");
    await session.setMode({ modeId: "code" });
    expect(session.state.currentModeId).toBe("code");
    await session.prompt("mode ask");
    expect(session.state.currentModeId).toBe("ask");
  });

  it("close() cancels the running turn, ends the readers, and refuses later prompts", {
    timeout: 30_000,
  }, async () => {
    const { conn, wire } = await v1Client(impl, { cancelGraceMs: 5000 });
    const session = await conn.session(NEW_SESSION);
    const outsideRead = (async () => {
      for await (const _ of session.updates());
      return "ended";
    })();
    const turn = session.prompt("ignore-cancel answer-after 10");
    await firstUpdate(turn);
    await session.close();
    // This agent serves no session/close: closing cancelled the turn, which the agent ended.
    expect(turn.stopReason).toBe("cancelled");
    expect(wire.methods()).toContain("session/cancel");
    expect(wire.methods()).not.toContain("session/close");
    expect(await outsideRead).toBe("ended");
    expect((await outcome(session.prompt("again"))).error).toBeInstanceOf(Error);
    await session.close();
  });

  it("a connection that closes fails the running turn with its reason", {
    timeout: 30_000,
  }, async () => {
    const { conn } = await v1Client(impl);
    const session = await conn.session(NEW_SESSION);
    const turn = session.prompt("wait 10000");
    await firstUpdate(turn);
    conn.close();
    expect((await outcome(turn)).error).toBeInstanceOf(ConnectionClosedError);
  });
});
