/**
 * The browser page's script, bundled with esbuild: our `PKG/remote` client streams and the
 * v1 ClientSideConnection, completing a prompt turn with the agent at `?acp=` over each
 * transport, as a web-based editor would. The outcome goes to `window.acpResult`.
 */
import {
  createHttpStream,
  createWebSocketStream,
  type MessageStream,
} from "../../../.test-package/package/remote/index.js";
import { ClientSideConnection, PROTOCOL_VERSION } from "../../../.test-package/package/v1/index.js";

interface TurnOutcome {
  transport: string;
  stopReason?: string;
  updates: string[];
  error?: string;
}

async function turn(transport: "websocket" | "http", url: string): Promise<TurnOutcome> {
  const stream: MessageStream =
    transport === "websocket" ? createWebSocketStream(url) : createHttpStream(url);
  const updates: string[] = [];
  const conn = new ClientSideConnection(
    () => ({
      sessionUpdate: ({ update }) => {
        const content = update.sessionUpdate === "agent_message_chunk" ? update.content : undefined;
        const text = (content as { text?: unknown } | undefined)?.text;
        if (typeof text === "string") updates.push(text);
      },
      sessionRequestPermission: () => ({ outcome: { outcome: "selected", optionId: "yes" } }),
    }),
    stream,
    { log: () => {} },
  );
  try {
    await conn.agent.initialize({ protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await conn.agent.sessionNew({ cwd: "/", mcpServers: [] });
    const { stopReason } = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "permission" }],
    });
    const second = await conn.agent.sessionPrompt({
      sessionId,
      prompt: [{ type: "text", text: "updates 3" }],
    });
    return { transport, stopReason: `${stopReason}, ${second.stopReason}`, updates };
  } catch (error) {
    return { transport, updates, error: error instanceof Error ? error.message : String(error) };
  } finally {
    conn.close();
  }
}

// The page's globals, typed here: the tests compile without the DOM lib.
const page = globalThis as unknown as { location: { href: string }; acpResult?: TurnOutcome[] };
const url = new URL(page.location.href).searchParams.get("acp") ?? "";
void Promise.all([turn("websocket", url), turn("http", url)]).then((outcomes) => {
  page.acpResult = outcomes;
});
