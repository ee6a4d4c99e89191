import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentProcess,
  AgentStartError,
  spawnAgent,
} from "../../.test-package/package/node/index.js";
import {
  ClientSideConnection,
  ConnectionClosedError,
  PROTOCOL_VERSION,
} from "../../.test-package/package/v1/index.js";
import { TS_NODE } from "../stubs/support.js";
import { FIXTURES, outcome } from "./support.js";

/**
 * `spawnAgent`'s guard on `initialize`: an agent that fails it, or does not answer it within
 * `initializeTimeoutMs`, is killed, and the call rejects with an error that names why and
 * shows the end of the agent's stderr.
 */

const [node, ...tsx] = TS_NODE as [string, ...string[]];
const spawned: AgentProcess[] = [];
afterEach(() => {
  for (const agent of spawned.splice(0)) agent.child.kill("SIGKILL");
});

function connect(fixture: string, initializeTimeoutMs: number) {
  const agent = spawnAgent(node, [...tsx, join(FIXTURES, fixture)], {
    stderr: "keep",
    initializeTimeoutMs,
  });
  spawned.push(agent);
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: () => {},
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    agent.stream,
    { log: () => {} },
  );
  return { agent, conn };
}

/** Waits until the agent wrote something to stderr, so its stderr's end is known. */
async function stderrOf(agent: AgentProcess): Promise<void> {
  while (agent.stderrTail() === "") await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("spawnAgent's initializeTimeoutMs", { timeout: 30_000 }, () => {
  it("an agent that never answers initialize is killed; the call names why, with its stderr", async () => {
    const { agent, conn } = connect("hangs-at-start.ts", 1500);
    await stderrOf(agent);
    const { error } = await outcome(conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION }));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const reason = (error as ConnectionClosedError).reason;
    expect(reason).toBeInstanceOf(AgentStartError);
    expect((reason as AgentStartError).kind).toBe("timed-out");
    expect((error as Error).message).toContain("did not answer initialize within 1500 ms");
    expect((error as Error).message).toContain("waiting for the license server");
    const exit = await agent.exited;
    expect(exit.signal).toBe("SIGTERM");
  });

  it("an agent that fails initialize is killed; the call names its error, with its stderr", async () => {
    const { agent, conn } = connect("fails-initialize.ts", 20_000);
    const { error } = await outcome(conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION }));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const reason = (error as ConnectionClosedError).reason as AgentStartError;
    expect(reason).toBeInstanceOf(AgentStartError);
    expect(reason.kind).toBe("failed");
    expect(reason.error).toMatchObject({ code: -32603, message: "no credentials" });
    expect(reason.message).toContain("AGENT_API_KEY is not set");
    expect((await agent.exited).signal).toBe("SIGTERM");
  });

  it("an agent that answered in time is left alone after the timeout has passed", async () => {
    // Long enough for the agent to start (tsx compiles it first); then waited out.
    const timeoutMs = 4000;
    const { agent, conn } = connect("ours-v1.ts", timeoutMs);
    const sent = Date.now();
    await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    await new Promise((resolve) => setTimeout(resolve, sent + timeoutMs + 500 - Date.now()));
    const session = await conn.session({ cwd: "/workspace", mcpServers: [] });
    expect(await session.prompt("still here")).toEqual({ stopReason: "end_turn" });
    expect(agent.child.exitCode).toBe(null);
    conn.close();
  });
});
