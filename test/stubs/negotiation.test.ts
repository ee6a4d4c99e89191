import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentCapabilities,
  type CapabilityOptions,
  type Client,
  type ClientCapabilities,
  ClientSideConnection,
  type ConnectionOptions,
  type LogEvent,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  ValidationError,
} from "../../.test-package/package/v1/index.js";
import { FIXTURES, start, stopAll, TS_NODE } from "./support.js";

/**
 * Capability negotiation on ACP v1 between two processes: our ClientSideConnection here,
 * test/stubs/fixtures/capability-agent.ts (our AgentSideConnection) in a child process that
 * reports on stderr what it received and which handlers ran. "Nothing on the wire" is read
 * from both ends: the client's trace of what it sent, and what the agent says it received.
 * The runtime's own tests (test/runtime/negotiation.test.ts) cover the rules on a toy
 * protocol; these hold the generated tables and ACP's capabilities to them.
 */

afterEach(stopAll);

const AGENT = [...TS_NODE, join(FIXTURES, "capability-agent.ts")];

interface AgentConfig {
  agentCapabilities?: AgentCapabilities;
  handlers?: Array<"sessionLoad">;
  protocolVersion?: number;
  capabilities?: CapabilityOptions;
  writeFile?: boolean;
}

type Report = {
  received?: string;
  handled?: string;
  log?: string;
  reason?: string;
  message?: string;
  called?: string;
  code?: number;
};

/** A client here, connected to the capability agent; `finish` closes and returns the agent's reports. */
function connect(
  agentConfig: AgentConfig,
  options: ConnectionOptions = {},
  handlers: Partial<Client> = {},
) {
  const agent = start(AGENT, { ACP_AGENT: JSON.stringify(agentConfig) });
  const sent: string[] = [];
  const logs: LogEvent[] = [];
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: () => {},
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      ...handlers,
    }),
    ndJsonStream(Writable.toWeb(agent.child.stdin), Readable.toWeb(agent.child.stdout)),
    {
      trace: (event) => {
        const message = event.message as { method?: unknown };
        if (event.direction === "sent" && typeof message.method === "string")
          sent.push(message.method);
      },
      log: (event) => logs.push(event),
      ...options,
    },
  );
  const finish = async () => {
    conn.close();
    const code = await agent.exited;
    const reports = agent
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Report);
    expect(code, agent.stderr()).toBe(0);
    return {
      received: reports.flatMap((r) => (r.received ? [r.received] : [])),
      handled: reports.flatMap((r) => (r.handled ? [r.handled] : [])),
      logs: reports.filter((r) => r.log !== undefined),
      called: reports.filter((r) => r.called !== undefined),
    };
  };
  return { conn, sent, logs, finish };
}

const initialize = (conn: ClientSideConnection, clientCapabilities: ClientCapabilities = {}) =>
  conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities });
const newSession = (conn: ClientSideConnection) =>
  conn.agent.sessionNew({ cwd: "/", mcpServers: [] });

/** The RequestError a call failed with (the test fails if it succeeded or failed otherwise). */
async function refusal(call: Promise<unknown>): Promise<RequestError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

describe("capability negotiation between two processes (v1)", { timeout: 30_000 }, () => {
  it("a call before initialize completed fails locally, and nothing but initialize is sent", async () => {
    const { conn, sent, finish } = connect({});
    const early = await refusal(newSession(conn));
    expect(early.code).toBe(-32600);
    expect(early.message).toContain("before initialize completed");
    expect(conn.negotiated).toBeUndefined();
    await initialize(conn);
    await newSession(conn);
    expect(sent).toEqual(["initialize", "session/new"]);
    const agent = await finish();
    expect(agent.received).toEqual(["initialize", "session/new"]);
  });

  it("a gated method the agent did not declare fails locally, naming the capability", async () => {
    // The agent could serve session/load, but did not declare loadSession.
    const { conn, sent, finish } = connect({ handlers: ["sessionLoad"] });
    await initialize(conn);
    const { sessionId } = await newSession(conn);
    const error = await refusal(conn.agent.sessionLoad({ sessionId, cwd: "/", mcpServers: [] }));
    expect(error.code).toBe(-32601);
    expect(error.message).toContain("agentCapabilities.loadSession");
    expect(error.data).toMatchObject({ capability: "agentCapabilities.loadSession" });
    expect(sent).not.toContain("session/load");
    const agent = await finish();
    expect(agent.received).not.toContain("session/load");
  });

  it("a gated method the agent declared goes through", async () => {
    const { conn, finish } = connect({
      agentCapabilities: { loadSession: true },
      handlers: ["sessionLoad"],
    });
    await initialize(conn);
    expect(conn.negotiated?.agent.loadSession).toBe(true);
    expect(conn.negotiated?.protocolVersion).toBe(PROTOCOL_VERSION);
    await conn.agent.sessionLoad({ sessionId: "s-1", cwd: "/", mcpServers: [] });
    const agent = await finish();
    expect(agent.handled).toContain("session/load");
  });

  it("gated prompt content fails locally at its position; the baseline content is sent", async () => {
    const { conn, sent, finish } = connect({
      agentCapabilities: { promptCapabilities: { audio: true } },
    });
    await initialize(conn);
    const { sessionId } = await newSession(conn);
    const text = { type: "text", text: "look" } as const;
    const image = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } as const;
    const error = await refusal(conn.agent.sessionPrompt({ sessionId, prompt: [text, image] }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("agentCapabilities.promptCapabilities.image");
    expect(error.data).toMatchObject({
      capability: "agentCapabilities.promptCapabilities.image",
      at: "/prompt/1",
    });
    expect(sent).not.toContain("session/prompt");
    const embedded = {
      type: "resource",
      resource: { uri: "file:///a.txt", text: "a" },
    } as const;
    const noContext = await refusal(conn.agent.sessionPrompt({ sessionId, prompt: [embedded] }));
    expect(noContext.message).toContain("agentCapabilities.promptCapabilities.embeddedContext");
    expect(sent).not.toContain("session/prompt");
    // Text and resource links need no capability; audio was declared.
    const link = { type: "resource_link", uri: "file:///a.txt", name: "a.txt" } as const;
    const audio = { type: "audio", mimeType: "audio/wav", data: "UklGRg==" } as const;
    await conn.agent.sessionPrompt({ sessionId, prompt: [text, link, audio] });
    expect(sent.filter((m) => m === "session/prompt")).toHaveLength(1);
    const agent = await finish();
    expect(agent.received.filter((m) => m === "session/prompt")).toHaveLength(1);
  });

  it('"warn" sends the undeclared call; the agent answers -32601 without running its handler', async () => {
    const { conn, sent, logs, finish } = connect(
      { handlers: ["sessionLoad"] },
      { capabilities: "warn" },
    );
    await initialize(conn);
    const error = await refusal(
      conn.agent.sessionLoad({ sessionId: "s-1", cwd: "/", mcpServers: [] }),
    );
    expect(error.code).toBe(-32601);
    expect(sent).toContain("session/load");
    expect(logs).toContainEqual(
      expect.objectContaining({ level: "warn", reason: "capability-not-declared" }),
    );
    const agent = await finish();
    expect(agent.received).toContain("session/load");
    expect(agent.handled).not.toContain("session/load");
    expect(agent.logs).toContainEqual(
      expect.objectContaining({
        reason: "undeclared-method",
        message: expect.stringContaining("agentCapabilities.loadSession"),
      }),
    );
  });

  it("the client answers an undeclared fs call -32601 without running its handler", async () => {
    let wrote = false;
    const { conn, finish } = connect(
      { writeFile: true, capabilities: { sent: "off" } },
      {},
      {
        fsWriteTextFile: () => {
          wrote = true;
          return {};
        },
      },
    );
    // The client has the handler but declares no fs capability.
    await initialize(conn);
    const { sessionId } = await newSession(conn);
    await conn.agent.sessionPrompt({ sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(wrote).toBe(false);
    const agent = await finish();
    expect(agent.called).toEqual([
      expect.objectContaining({ called: "fs/write_text_file", code: -32601 }),
    ]);
  });

  it("an agent declaring loadSession without a sessionLoad handler is reported, and still answers", async () => {
    const { conn, finish } = connect({ agentCapabilities: { loadSession: true } });
    const answer = await initialize(conn);
    expect(answer.agentCapabilities?.loadSession).toBe(true);
    const agent = await finish();
    expect(agent.logs).toContainEqual(
      expect.objectContaining({
        log: "error",
        reason: "capability-without-handler",
        message: expect.stringMatching(/agentCapabilities\.loadSession.*sessionLoad/),
      }),
    );
  });

  it("a client declaring fs.writeTextFile without its handler is reported, and initialize still goes out", async () => {
    const { conn, logs, finish } = connect({});
    await initialize(conn, { fs: { writeTextFile: true } });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: "error",
        reason: "capability-without-handler",
        message: expect.stringMatching(/clientCapabilities\.fs\.writeTextFile.*fsWriteTextFile/),
      }),
    );
    const agent = await finish();
    expect(agent.received).toEqual(["initialize"]);
  });

  it("an agent answering another protocol version fails initialize, and the connection stays uninitialized", async () => {
    const other = PROTOCOL_VERSION + 1;
    const { conn, sent, finish } = connect({ protocolVersion: other });
    const failed = await initialize(conn).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(ValidationError);
    expect(String((failed as Error).message)).toContain("protocolVersion");
    expect(conn.negotiated).toBeUndefined();
    expect((await refusal(newSession(conn))).code).toBe(-32600);
    expect(sent).toEqual(["initialize"]);
    const agent = await finish();
    expect(agent.received).toEqual(["initialize"]);
  });
});
