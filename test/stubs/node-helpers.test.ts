import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentProcess, spawnAgent } from "../../.test-package/package/node/index.js";
import {
  type Client,
  ClientSideConnection,
  ConnectionClosedError,
  type ConnectionOptions,
  isSessionUpdateOf,
  RequestError,
  type TraceEvent,
} from "../../.test-package/package/v1/index.js";
import { FIXTURES, run, TS_NODE } from "./support.js";

/**
 * The Node entry point between two processes: `spawnAgent` here, `stdio()` in the agent,
 * and what the connection adds on top: the terminal handle, session-not-found errors,
 * abort as session/cancel, trace, and close reasons that say what happened.
 */

const [node, ...tsx] = TS_NODE as [string, ...string[]];
const spawned: AgentProcess[] = [];
const open: ClientSideConnection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  for (const a of spawned.splice(0)) a.child.kill("SIGKILL");
});

/** Spawn a fixture agent with the Node helper and connect a client to it. */
function connect(
  fixture: string,
  handlers: Partial<Client> = {},
  options: ConnectionOptions = {},
  quiet = true,
) {
  const agent = spawnAgent(node, [...tsx, join(FIXTURES, fixture)], {
    stderr: quiet ? "keep" : "forward",
  });
  spawned.push(agent);
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: () => {},
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      ...handlers,
    }),
    agent.stream,
    { log: () => {}, ...options },
  );
  open.push(conn);
  return { agent, conn };
}

describe("spawnAgent and stdio(): a client and an agent in two processes", {
  timeout: 30_000,
}, () => {
  it("runs a turn where the agent drives a terminal through the handle", async () => {
    const calls: string[] = [];
    const said: string[] = [];
    const { conn } = connect("helpers-agent.ts", {
      sessionUpdate: ({ update }) => {
        if (isSessionUpdateOf(update, "agent_message_chunk") && update.content.type === "text")
          said.push(update.content.text);
      },
      terminalCreate: (p) => {
        calls.push(`create ${p.sessionId} ${p.command}`);
        return { terminalId: "term-9" };
      },
      terminalWaitForExit: (p) => {
        calls.push(`wait ${p.sessionId} ${p.terminalId}`);
        return { exitCode: 0 };
      },
      terminalOutput: (p) => {
        calls.push(`output ${p.sessionId} ${p.terminalId}`);
        return { output: "3 passed", truncated: false };
      },
      terminalRelease: (p) => {
        calls.push(`release ${p.sessionId} ${p.terminalId}`);
        return {};
      },
    });
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: { terminal: true } });
    const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const { stopReason } = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "terminal" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(calls).toEqual([
      "create helpers-session npm",
      "wait helpers-session term-9",
      "output helpers-session term-9",
      "release helpers-session term-9",
    ]);
    expect(said).toEqual(["term-9 exited 0: 3 passed"]);
  });

  it("aborting a prompt sends session/cancel and resolves with the agent's cancelled answer, after its last update", async () => {
    const events: string[] = [];
    const traced: TraceEvent[] = [];
    const { conn } = connect(
      "helpers-agent.ts",
      {
        sessionUpdate: ({ update }) => {
          if (isSessionUpdateOf(update, "agent_message_chunk") && update.content.type === "text")
            events.push(update.content.text);
          if (events.length === 1) controller.abort();
        },
      },
      { trace: (event) => traced.push(event) },
    );
    const controller = new AbortController();
    await conn.agent.initialize({ protocolVersion: 1 });
    const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const answer = await conn.agent.sessionPrompt(
      { sessionId, prompt: [{ type: "text", text: "wait" }] },
      { signal: controller.signal },
    );
    events.push(`answer ${answer.stopReason}`);
    expect(events).toEqual(["working", "stopped", "answer cancelled"]);
    const sent = traced
      .filter((e) => e.direction === "sent")
      .map((e) => (e.message as { method?: string }).method);
    expect(sent).toEqual(["initialize", "session/new", "session/prompt", "session/cancel"]);
  });

  it("an unknown session is answered with the sessionNotFound error", async () => {
    const { conn } = connect("helpers-agent.ts");
    await conn.agent.initialize({ protocolVersion: 1 });
    const error = await conn.agent
      .sessionPrompt({ sessionId: "nope", prompt: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32002, data: { sessionId: "nope" } });
  });

  it("closing the connection ends the agent's stdin: it exits 0, and the close reason says closed", async () => {
    const { conn, agent } = connect("helpers-agent.ts");
    await conn.agent.initialize({ protocolVersion: 1 });
    conn.close();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(conn.signal.reason).toMatchObject({ kind: "closed" });
  });
});

describe("agents that misbehave", { timeout: 30_000 }, () => {
  it("an agent that exits at start-up: the pending call says it exited, with its code and stderr", async () => {
    const { conn, agent } = connect("exits-at-start-up.ts");
    const error = await conn.agent.initialize({ protocolVersion: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const closed = error as ConnectionClosedError;
    expect(closed.kind).toBe("end-of-input");
    expect(closed.reason).toMatchObject({
      name: "AgentExitError",
      code: 3,
      signal: null,
      stderr: expect.stringContaining("error: no API key configured"),
    });
    expect(closed.message).toMatch(
      /^connection closed: the agent \(.*exits-at-start-up\.ts\) exited with code 3; its stderr ended with: starting agent v0\.1 \/ error: no API key configured/,
    );
    expect(agent.stderrTail()).toContain("no API key");
  });

  /** The close reason's message for an agent started as `node ...args`, answering nothing. */
  async function closedWith(args: string[]): Promise<string> {
    const agent = spawnAgent(node, args, { stderr: "keep" });
    spawned.push(agent);
    const conn = new ClientSideConnection(() => ({}) as Client, agent.stream, { log: () => {} });
    open.push(conn);
    const error = await conn.agent.initialize({ protocolVersion: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    return (error as ConnectionClosedError).message;
  }

  it("an agent whose file is not there: the error line of Node's stack, not its last lines", async () => {
    const missing = join(FIXTURES, "no-such-agent.js");
    const message = await closedWith([missing]);
    expect(message).toContain(
      `exited with code 1; its stderr ends in a stack trace: Error: Cannot find module '${missing}' (at `,
    );
    // What Node prints after the stack says nothing of why.
    expect(message).not.toMatch(/requireStack|Node\.js v/);
  });

  it("an agent that throws: the error and where it was thrown", async () => {
    const script =
      'console.error("starting"); function start() { throw new TypeError("no API key configured"); } start();';
    const message = await closedWith(["-e", script]);
    expect(message).toMatch(
      /exited with code 1; its stderr ends in a stack trace: TypeError: no API key configured \(at start \(/,
    );
  });

  it("a Python agent's traceback: its last line", async () => {
    const traceback = [
      "Traceback (most recent call last):",
      '  File "agent.py", line 3, in <module>',
      "    main()",
      "KeyError: 'ACP_TOKEN'",
    ].join("\n");
    const message = await closedWith([
      "-e",
      `console.error(${JSON.stringify(traceback)}); process.exit(2)`,
    ]);
    expect(message).toMatch(
      /exited with code 2; its stderr ends in a traceback: KeyError: 'ACP_TOKEN'$/,
    );
  });

  it("an agent that cannot be started at all: the call says why", async () => {
    const agent = spawnAgent("/nonexistent/acp-agent", ["--acp"]);
    spawned.push(agent);
    const conn = new ClientSideConnection(() => ({}) as Client, agent.stream, { log: () => {} });
    open.push(conn);
    await expect(conn.agent.initialize({ protocolVersion: 1 })).rejects.toMatchObject({
      name: "ConnectionClosedError",
      message: expect.stringContaining("could not be started: spawn /nonexistent/acp-agent ENOENT"),
    });
    expect((await agent.exited).error).toBeInstanceOf(Error);
  });

  it("an agent that prints a login screen on stdout: by default the screen is dropped and ACP goes on", async () => {
    const logged: string[] = [];
    const { conn, agent } = connect(
      "login-screen-agent.ts",
      {},
      { log: (e) => logged.push(`${e.level} ${e.reason}`) },
    );
    await expect(conn.agent.initialize({ protocolVersion: 1 })).resolves.toMatchObject({
      protocolVersion: 1,
    });
    // Its second answer comes after the whole screen was read: nothing was sent back to it.
    await expect(conn.agent.initialize({ protocolVersion: 1 })).resolves.toMatchObject({
      protocolVersion: 1,
    });
    expect(agent.child.exitCode).toBeNull();
    // One warning for the screen, the rest of its lines quietly.
    expect(logged).toEqual(["warn parse-error", ...Array(5).fill("debug parse-error")]);
  });

  it("…while answering its screen with -32700 errors (malformedInput: 'answer') types them in as its login code", async () => {
    const { agent } = connect("login-screen-agent.ts", {}, { malformedInput: "answer" });
    expect((await agent.exited).code).toBe(4);
    expect(agent.stderrTail()).toMatch(
      /^login: took "\{\\"jsonrpc\\":\\"2\.0\\",\\"id\\":null,\\"error/,
    );
  });
});

describe("closing while the application ends the streams itself", { timeout: 30_000 }, () => {
  it("conn.close() then child.stdin.end() with a write in flight: no crash, over spawnAgent's streams", async () => {
    const result = await run([...TS_NODE, join(FIXTURES, "close-then-end.ts"), "--node-helpers"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ sum: 5, childExit: 0 });
  });
});
