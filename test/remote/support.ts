/**
 * What the remote transport's tests share: an agent built on the generated package's
 * `AgentSideConnection` (a prompt turn streams numbered updates, asks permission when told
 * to, or waits until cancelled), a client for it, and servers that are closed after each test.
 */
import { afterEach } from "vitest";
import { type ServedAcp, serve } from "../../.test-package/package/node/index.js";
import {
  AcpServer,
  type AcpServerOptions,
  type MessageStream,
} from "../../.test-package/package/remote/index.js";
import {
  AgentSideConnection,
  type Client,
  ClientSideConnection,
  PROTOCOL_VERSION,
  type Received,
} from "../../.test-package/package/v1/index.js";

type SessionNotification = Received.SessionNotification;

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

const servers: ServedAcp[] = [];
const clients: ClientSideConnection[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Our server on 127.0.0.1 with the test agent, closed after the test. */
export async function serveAgent(
  options: Partial<AcpServerOptions> = {},
  log: AgentLog = newLog(),
): Promise<{ served: ServedAcp; server: AcpServer; log: AgentLog; lines: string[] }> {
  const lines: string[] = [];
  const server = new AcpServer({
    connect: agentConnect(log),
    log: (line) => lines.push(line),
    ...options,
  });
  const served = await serve(server, { port: 0 });
  servers.push(served);
  return { served, server, log, lines };
}

/** Registers something with a `close()` to be closed after the test. */
export function closeAfter(served: ServedAcp): void {
  servers.push(served);
}

/** A client connection on `stream` that records the updates it receives. */
export function client(
  stream: MessageStream,
  handlers: Partial<Client> = {},
): { conn: ClientSideConnection; updates: SessionNotification[] } {
  const updates: SessionNotification[] = [];
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: (params) => {
        updates.push(params);
      },
      sessionRequestPermission: () => ({ outcome: { outcome: "selected", optionId: "yes" } }),
      ...handlers,
    }),
    stream,
    { log: () => {} },
  );
  clients.push(conn);
  return { conn, updates };
}

/** initialize, session/new, and one prompt turn of `command`. */
export async function turn(conn: ClientSideConnection, command: string) {
  const init = await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
  const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
  const result = await conn.agent.sessionPrompt({
    sessionId,
    prompt: [{ type: "text", text: command }],
  });
  return { init, sessionId, result };
}

/** The texts of the agent message chunks among `updates`. */
export function texts(updates: readonly SessionNotification[]): string[] {
  return updates.flatMap((n) => {
    const content = n.update.sessionUpdate === "agent_message_chunk" ? n.update.content : undefined;
    const text = (content as { text?: unknown } | undefined)?.text;
    return typeof text === "string" ? [text] : [];
  });
}

/** Polls `check` until it holds (bounded), for effects that happen after a close. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
