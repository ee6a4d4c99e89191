/**
 * The router tests' agent: one logic (sessions, replies, turns and their cancellation)
 * served to v1 and v2 clients by thin per-version surfaces on the generated package, behind
 * `agentRouter`. A prompt's first text says what the turn does: `hang` waits until the turn
 * is cancelled; anything else is echoed back (`You said: …`).
 */
import { randomUUID } from "node:crypto";
import type { MessageStream } from "../../.test-package/package/remote/index.js";
import { type AgentRouter, agentRouter } from "../../.test-package/package/router/index.js";
import * as v1 from "../../.test-package/package/v1/index.js";
import * as v2 from "../../.test-package/package/v2/index.js";

/** Types both versions define alike (`SAME_DEFINITIONS.stable`): the logic uses them for both. */
type SessionId = v1.SessionId & v2.SessionId;
type Implementation = v1.Implementation & v2.Implementation;

export const AGENT_INFO: Implementation = { name: "echo-agent", version: "1.0.0" };

interface Session {
  readonly cwd: string;
  /** Stops the running turn: resolves its wait. */
  cancel?: () => void;
}

/** What the agent does, whichever version a client speaks. */
export class EchoLogic {
  private readonly sessions = new Map<SessionId, Session>();

  newSession(cwd: string): SessionId {
    const id = randomUUID();
    this.sessions.set(id, { cwd });
    return id;
  }

  has(id: SessionId): boolean {
    return this.sessions.has(id);
  }

  list(cwd?: string | null): Array<{ sessionId: SessionId; cwd: string }> {
    return [...this.sessions]
      .filter(([, s]) => cwd === undefined || cwd === null || s.cwd === cwd)
      .map(([sessionId, s]) => ({ sessionId, cwd: s.cwd }));
  }

  close(id: SessionId): void {
    this.cancel(id);
    this.sessions.delete(id);
  }

  /** A turn on `prompt`'s text: the reply, or undefined when it was cancelled. */
  async turn(id: SessionId, text: string): Promise<string | undefined> {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const cancelled = new Promise<undefined>((resolve) => {
      session.cancel = () => resolve(undefined);
    });
    const reply = text === "hang" ? cancelled : Promise.resolve(`You said: ${text}`);
    try {
      return await Promise.race([reply, cancelled]);
    } finally {
      session.cancel = undefined;
    }
  }

  cancel(id: SessionId): void {
    this.sessions.get(id)?.cancel?.();
  }
}

/** What each route saw of its client's `initialize`, for the tests to read. */
export interface Seen {
  initialize: Array<{ version: 1 | 2; params: unknown }>;
}

/** The v1 surface over `logic`. */
export function v1Agent(
  stream: MessageStream,
  logic: EchoLogic,
  seen?: Seen,
  options?: v1.ConnectionOptions,
): v1.AgentSideConnection {
  return new v1.AgentSideConnection(
    (conn) => ({
      initialize: (params) => {
        seen?.initialize.push({ version: 1, params });
        return {
          protocolVersion: v1.PROTOCOL_VERSION,
          agentCapabilities: { sessionCapabilities: { list: {}, close: {} } },
          agentInfo: AGENT_INFO,
        };
      },
      sessionNew: ({ cwd }) => ({ sessionId: logic.newSession(cwd) }),
      sessionList: ({ cwd }) => ({ sessions: logic.list(cwd) }),
      sessionClose: ({ sessionId }) => {
        logic.close(sessionId);
        return {};
      },
      async sessionPrompt({ sessionId, prompt }) {
        if (!logic.has(sessionId)) throw v1.RequestError.sessionNotFound(sessionId);
        const first = prompt[0];
        const reply = await logic.turn(
          sessionId,
          v1.isContentBlockOf(first, "text") ? first.text : "",
        );
        if (reply === undefined) return { stopReason: "cancelled" };
        await conn.client.sessionUpdate({
          sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: reply } },
        });
        return { stopReason: "end_turn" };
      },
      sessionCancel: ({ sessionId }) => logic.cancel(sessionId),
    }),
    stream,
    options,
  );
}

/**
 * The v2 surface over `logic`: a prompt is answered with the receipt of the user message
 * (echoed as a `user_message`), and the turn runs after it: `running`, the reply, then an
 * idle `state_update` with the stop reason.
 */
export function v2Agent(
  stream: MessageStream,
  logic: EchoLogic,
  seen?: Seen,
  options?: v2.ConnectionOptions,
): v2.AgentSideConnection {
  return new v2.AgentSideConnection(
    (conn) => {
      const send = (sessionId: SessionId, update: v2.SessionUpdate) =>
        conn.client.sessionUpdate({ sessionId, update });
      const known = (sessionId: SessionId) => {
        if (!logic.has(sessionId)) throw v2.RequestError.sessionNotFound(sessionId);
      };
      return {
        initialize: (params) => {
          seen?.initialize.push({ version: 2, params });
          return {
            protocolVersion: v2.PROTOCOL_VERSION,
            info: AGENT_INFO,
            capabilities: { session: {} },
          };
        },
        sessionNew: ({ cwd }) => ({ sessionId: logic.newSession(cwd) }),
        sessionList: ({ cwd }) => ({ sessions: logic.list(cwd) }),
        sessionResume: ({ sessionId }) => {
          known(sessionId);
          return {};
        },
        sessionClose: ({ sessionId }) => {
          known(sessionId);
          logic.close(sessionId);
          return {};
        },
        async sessionPrompt({ sessionId, prompt }) {
          known(sessionId);
          const messageId = randomUUID();
          const content = prompt.filter((b): b is v2.ContentBlock => v2.isContentBlock(b));
          await send(sessionId, { sessionUpdate: "user_message", messageId, content });
          await send(sessionId, { sessionUpdate: "state_update", state: "running" });
          const first = prompt[0];
          const text = v2.isContentBlockOf(first, "text") ? first.text : "";
          // The turn goes on once the receipt is out (a task after this one).
          setTimeout(() => {
            void (async () => {
              const reply = await logic.turn(sessionId, text);
              if (reply !== undefined)
                await send(sessionId, {
                  sessionUpdate: "agent_message_chunk",
                  messageId: randomUUID(),
                  content: { type: "text", text: reply },
                });
              await send(sessionId, {
                sessionUpdate: "state_update",
                state: "idle",
                stopReason: reply === undefined ? "cancelled" : "end_turn",
              });
            })().catch(() => {});
          });
          return { messageId };
        },
        sessionCancel: ({ sessionId }) => logic.cancel(sessionId),
      };
    },
    stream,
    options,
  );
}

/** The agent behind `agentRouter`: both versions (or the ones asked for) over one logic. */
export function echoRouter(
  logic: EchoLogic = new EchoLogic(),
  seen?: Seen,
  versions: ReadonlyArray<1 | 2> = [1, 2],
  options: { log?: (event: v1.LogEvent) => void } = {},
): AgentRouter<{
  1?: (stream: MessageStream) => v1.AgentSideConnection;
  2?: (stream: MessageStream) => v2.AgentSideConnection;
}> {
  const connection = options.log ? { log: options.log } : {};
  return agentRouter(
    {
      ...(versions.includes(1)
        ? { 1: (stream: MessageStream) => v1Agent(stream, logic, seen, connection) }
        : {}),
      ...(versions.includes(2)
        ? { 2: (stream: MessageStream) => v2Agent(stream, logic, seen, connection) }
        : {}),
    },
    options,
  );
}
