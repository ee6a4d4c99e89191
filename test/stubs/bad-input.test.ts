import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { OUR_AGENT, type Started, start, stopAll } from "./support.js";

afterEach(stopAll);

/** Raw ndjson over a real agent process's stdio: write anything, read its answers one by one. */
function rawSession(agent: Started) {
  const lines = createInterface({ input: agent.child.stdout })[Symbol.asyncIterator]();
  return {
    send: (text: string) =>
      new Promise<void>((resolve, reject) =>
        agent.child.stdin.write(text, (e) => (e ? reject(e) : resolve())),
      ),
    async next(): Promise<unknown> {
      const line = await lines.next();
      if (line.done) throw new Error("the agent closed its output");
      return JSON.parse(line.value);
    },
  };
}

const initialize = (id: number) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 1 } })}\n`;

describe("bad input to a generated AgentSideConnection in its own process", {
  timeout: 30_000,
}, () => {
  it("answers or drops each with a logged reason, stays up throughout, and exits cleanly at end of input", async () => {
    const agent = start(OUR_AGENT, { ACP_MAX_MESSAGE_BYTES: "4096" });
    const wire = rawSession(agent);

    // Not JSON: dropped (the default), so the next answer is the next request's.
    await wire.send("hello, is this JSON?\n");

    await wire.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, pad: "x".repeat(5000) } })}\n`,
    );
    expect(await wire.next()).toMatchObject({
      id: 1,
      error: { code: -32600, message: "Invalid request: message too large", data: { limit: 4096 } },
    });

    await wire.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "one" } })}\n`,
    );
    expect(await wire.next()).toMatchObject({
      id: 2,
      error: {
        code: -32602,
        data: {
          type: "InitializeRequest",
          issues: [expect.objectContaining({ instancePath: "/protocolVersion" })],
        },
      },
    });

    // session/fork exists only in the unstable schema: the stable agent does not serve it.
    await wire.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/fork", params: { sessionId: "s", cwd: "/" } })}\n`,
    );
    expect(await wire.next()).toMatchObject({
      id: 3,
      error: { code: -32601, data: { method: "session/fork" } },
    });

    // An optional method the agent did not implement.
    await wire.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/load", params: { sessionId: "s", cwd: "/", mcpServers: [] } })}\n`,
    );
    expect(await wire.next()).toMatchObject({ id: 4, error: { code: -32601 } });

    // Responses nobody asked for are not answered.
    await wire.send(`${JSON.stringify({ jsonrpc: "2.0", id: 999, result: {} })}\n`);

    await wire.send(initialize(5));
    expect(await wire.next()).toMatchObject({ id: 5, result: { protocolVersion: 1 } });

    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
    expect(agent.stderr().trim().split("\n")).toEqual([
      "acp: an incoming line of 20 bytes is not valid JSON; dropped (later ones are logged at debug level)",
      expect.stringMatching(/^acp: skipped an incoming message of \d+ bytes: over the size limit$/),
      expect.stringMatching(
        /^acp: invalid params for initialize: invalid InitializeRequest: \/protocolVersion /,
      ),
      "acp: no handler for request session/fork",
      "acp: no handler for request session/load",
      "acp: dropped a response to unknown request id 999",
    ]);
  });
});
