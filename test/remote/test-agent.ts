/**
 * The remote tests' agent, built on the generated package's `AgentSideConnection`: a prompt
 * turn streams numbered updates, asks permission when told to, or waits until cancelled.
 */
import type { AcpServerOptions, MessageStream } from "../../.test-package/package/remote/index.js";
import { AgentSideConnection, PROTOCOL_VERSION } from "../../.test-package/package/v1/index.js";

/** What the test agent saw, per connection. */
export interface AgentLog {
  connections: number;
  prompts: number;
  /** Turns whose handler saw its signal abort or a session/cancel. */
  cancelled: number;
  closed: number;
}

/**
 * A prompt's first text tells the agent what to do: `updates N` streams N updates then ends
 * the turn, `permission` asks for permission first, `hang` waits until cancelled.
 */
export function agentConnect(log: AgentLog = newLog()): AcpServerOptions["connect"] {
  return (stream: MessageStream) => {
    log.connections++;
    let sessions = 0;
    const cancels = new Map<string, () => void>();
    const conn = new AgentSideConnection(
      (agent) => ({
        initialize: () => ({
          protocolVersion: PROTOCOL_VERSION,
          agentCapabilities: { loadSession: true },
        }),
        sessionNew: () => ({
          sessionId: `session-${++sessions}-${Math.random().toString(36).slice(2)}`,
        }),
        sessionLoad: () => ({}),
        async sessionPrompt({ sessionId, prompt }, { signal }) {
          log.prompts++;
          const first = prompt[0];
          const command = first?.type === "text" ? first.text : "";
          const cancelled = new Promise<void>((resolve) => {
            cancels.set(sessionId, resolve);
            signal.addEventListener("abort", () => resolve(), { once: true });
          });
          if (command === "hang") {
            await cancelled;
            log.cancelled++;
            return { stopReason: "cancelled" };
          }
          if (command === "permission") {
            const answer = await agent.client.sessionRequestPermission({
              sessionId,
              toolCall: { toolCallId: "t1", title: "write a file" },
              options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
            });
            return { stopReason: answer.outcome.outcome === "selected" ? "end_turn" : "refusal" };
          }
          const count = Number(/^updates (\d+)$/.exec(String(command))?.[1] ?? 1);
          for (let i = 0; i < count; i++)
            await agent.client.sessionUpdate({
              sessionId,
              update: {
                sessionUpdate: "agent_message_chunk",
                content: { type: "text", text: `chunk ${i}` },
              },
            });
          return { stopReason: "end_turn" };
        },
        sessionCancel: ({ sessionId }) => cancels.get(sessionId)?.(),
        authenticate: () => ({}),
      }),
      stream,
      { log: () => {} },
    );
    void conn.closed.then(() => {
      log.closed++;
    });
  };
}

export function newLog(): AgentLog {
  return { connections: 0, prompts: 0, cancelled: 0, closed: 0 };
}
