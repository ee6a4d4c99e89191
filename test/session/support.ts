import { join } from "node:path";
import { type AgentProcess, spawnAgent } from "../../.test-package/package/node/index.js";
import * as v1 from "../../.test-package/package/v1/index.js";
import * as v2 from "../../.test-package/package/v2/index.js";
import { ROOT } from "../../generator/paths.js";
import { TS_NODE } from "../stubs/support.js";

/**
 * A client in this process, with the generated package's session layer, and an agent
 * process (script.ts, served by ours or by the official SDK) on its stdio: what each session
 * test runs against both implementations.
 */

export const FIXTURES = join(ROOT, "test", "session", "fixtures");
export const IMPLEMENTATIONS = ["ours", "sdk"] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];

const [node, ...tsx] = TS_NODE as [string, ...string[]];
const running: Array<{ agent: AgentProcess; close(): void }> = [];

/** For `afterEach`: closes every connection and kills every agent a test started. */
export function stopAgents(): void {
  for (const { agent, close } of running.splice(0)) {
    close();
    agent.child.kill("SIGKILL");
  }
}

/** What the client sent (from its `trace`) and logged, as the test sees it. */
export class Wire {
  readonly sent: Array<{ method?: string; id?: unknown; params?: Record<string, unknown> }> = [];
  readonly logs: v1.LogEvent[] = [];
  private readonly waiting: Array<{ reason: string; resolve: (e: v1.LogEvent) => void }> = [];

  trace = (event: v1.TraceEvent): void => {
    if (event.direction === "sent") this.sent.push(event.message as Wire["sent"][number]);
  };

  log = (event: v1.LogEvent): void => {
    this.logs.push(event);
    for (const w of this.waiting.filter((x) => x.reason === event.reason)) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve(event);
    }
  };

  /** The first log event of this reason, when it comes (at once when one came already). */
  logged(reason: v1.LogReason): Promise<v1.LogEvent> {
    const seen = this.logs.find((e) => e.reason === reason);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiting.push({ reason, resolve }));
  }

  /** The methods sent, in order (requests and notifications). */
  methods(): string[] {
    return this.sent.flatMap((m) => (m.method === undefined ? [] : [m.method]));
  }
}

function spawn(file: string): AgentProcess {
  return spawnAgent(node, [...tsx, join(FIXTURES, file)], { stderr: "keep" });
}

/** A v1 client connected to the v1 agent of `impl`, initialized. */
export async function v1Client(
  impl: Implementation,
  options: v1.ConnectionOptions = {},
  onUpdate: (params: v1.Received.SessionNotification) => void = () => {},
) {
  const agent = spawn(`${impl}-v1.ts`);
  const wire = new Wire();
  const conn = new v1.ClientSideConnection(
    () => ({
      sessionUpdate: (params) => onUpdate(params),
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    agent.stream,
    { trace: wire.trace, log: wire.log, ...options },
  );
  running.push({ agent, close: () => conn.close() });
  await conn.agent.initialize({ protocolVersion: v1.PROTOCOL_VERSION, clientCapabilities: {} });
  return { conn, wire, agent };
}

/** A v2 client connected to the v2 agent of `impl`, initialized. */
export async function v2Client(
  impl: Implementation,
  options: v2.ConnectionOptions = {},
  onUpdate: (params: v2.UpdateSessionNotification) => void = () => {},
) {
  const agent = spawn(`${impl}-v2.ts`);
  const wire = new Wire();
  const conn = new v2.ClientSideConnection(
    () => ({
      sessionUpdate: (params) => onUpdate(params),
      sessionRequestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    }),
    agent.stream,
    { trace: wire.trace, log: wire.log, ...options },
  );
  running.push({ agent, close: () => conn.close() });
  await conn.agent.initialize({
    protocolVersion: v2.PROTOCOL_VERSION,
    info: { name: "session-test-client", version: "1.0.0" },
    capabilities: {},
  });
  return { conn, wire, agent };
}

/** Every update a turn yields (iterating it to its end). */
export async function drain<U>(turn: AsyncIterable<U>): Promise<U[]> {
  const out: U[] = [];
  for await (const update of turn) out.push(update);
  return out;
}

/** The text of a text-chunk update, for readable expectations. */
export function chunkText(update: unknown): string | undefined {
  const u = update as { sessionUpdate?: string; content?: { type?: string; text?: string } };
  return u.sessionUpdate?.endsWith("_chunk") && u.content?.type === "text"
    ? u.content.text
    : undefined;
}

/** A turn's updates read by hand: the next one (undefined at the end), or all the rest and how they ended. */
export function reader<U>(turn: AsyncIterable<U>) {
  const updates = turn[Symbol.asyncIterator]();
  return {
    async next(): Promise<U | undefined> {
      const result = await updates.next();
      return result.done ? undefined : result.value;
    },
    async rest(): Promise<{ updates: U[]; error?: unknown }> {
      const out: U[] = [];
      try {
        for (;;) {
          const result = await updates.next();
          if (result.done) return { updates: out };
          out.push(result.value);
        }
      } catch (error) {
        return { updates: out, error };
      }
    },
  };
}

/** The first update `turn` yields (and stops reading it). */
export async function firstUpdate<U>(turn: AsyncIterable<U>): Promise<U | undefined> {
  for await (const update of turn) return update;
  return undefined;
}

/** What a promise settled with, without throwing. */
export async function outcome(
  promise: PromiseLike<unknown>,
): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}
