/**
 * What the remote transport's tests share: the test agent (test-agent.ts), a client for it,
 * and servers that are closed after each test.
 */
import { afterEach } from "vitest";
import { type ServedAcp, serve } from "../../.test-package/package/node/index.js";
import {
  AcpServer,
  type AcpServerOptions,
  type MessageStream,
} from "../../.test-package/package/remote/index.js";
import {
  type Client,
  ClientSideConnection,
  PROTOCOL_VERSION,
  type Received,
} from "../../.test-package/package/v1/index.js";
import { type AgentLog, agentConnect, newLog } from "./test-agent.js";

export { type AgentLog, agentConnect, newLog } from "./test-agent.js";

type SessionNotification = Received.SessionNotification;

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
