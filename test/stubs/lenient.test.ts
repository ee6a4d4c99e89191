import { describe, expect, it } from "vitest";
import {
  AgentSideConnection,
  ClientSideConnection,
  isSessionNotification,
  type Received,
  type SessionNotification,
} from "../../.test-package/package/v1/index.js";
import { streamPair } from "../runtime/support.js";

/**
 * Received messages are read the way the reference implementation reads them: a
 * `session/update` whose tool call carries an unknown `kind` and one broken location is
 * repaired (kind dropped, the bad location skipped) and delivered, not thrown away.
 */
describe("the connection reads received messages leniently", () => {
  it("delivers a repaired session/update instead of dropping it", async () => {
    const [agentEnd, clientEnd] = streamPair();
    const received: Received.SessionNotification[] = [];
    const delivered = new Promise<void>((resolve) => {
      new ClientSideConnection(
        () => ({
          async sessionRequestPermission() {
            return { outcome: { outcome: "cancelled" } };
          },
          async sessionUpdate(params) {
            received.push(params);
            resolve();
          },
        }),
        clientEnd,
      );
    });
    const agent = new AgentSideConnection(
      () => ({
        async initialize() {
          return { protocolVersion: 1 };
        },
        async sessionNew() {
          return { sessionId: "s" };
        },
        async sessionPrompt() {
          return { stopReason: "end_turn" };
        },
        async sessionCancel() {},
      }),
      agentEnd,
      // The agent sends what a sloppy peer would: switch off its own outgoing check.
      { validate: { sent: false } },
    );
    const sloppy = {
      sessionId: "s",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "t1",
        title: "Read",
        kind: "teleport",
        locations: [{ path: "/a" }, { line: 3 }],
      },
    };
    expect(isSessionNotification(sloppy)).toBe(false);
    await agent.client.sessionUpdate(sloppy as unknown as SessionNotification);
    await delivered;
    expect(received).toHaveLength(1);
    expect(isSessionNotification(received[0])).toBe(true);
    expect(received[0]?.update).toMatchObject({
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      locations: [{ path: "/a" }],
    });
    expect(received[0]?.update).not.toHaveProperty("kind", "teleport");
    agent.close();
  });
});
