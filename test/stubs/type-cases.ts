/**
 * Type-level tests of the generated stubs: compiles only if every `@ts-expect-error` below
 * marks a real type error. Checked by `npm run typecheck` and, under several consumer
 * setups (no DOM, DOM, @types/node; skipLibCheck off), by types.test.ts. Never executed.
 * The methods named here are v1's baseline (the protocol's documentation); the cases about
 * methods that come and go between releases (unstable-only, dropped by v2) are picked from
 * the schema: test/support/schema-cases.ts.
 */
import type * as stable from "../../.test-package/package/v1/index.js";

declare const clientSide: stable.ClientSideConnection;
declare const agentSide: stable.AgentSideConnection;

// --- proxies: methods, params and results come from the schema --------------------------------

export const created: Promise<stable.NewSessionResponse> = clientSide.agent.sessionNew({
  cwd: "/",
  mcpServers: [],
});
// @ts-expect-error cwd must be a string
clientSide.agent.sessionNew({ cwd: 42, mcpServers: [] });
// @ts-expect-error mcpServers is required
clientSide.agent.sessionNew({ cwd: "/" });
// @ts-expect-error the result is a PromptResponse, not a NewSessionResponse
export const wrongResult: Promise<stable.NewSessionResponse> = clientSide.agent.sessionPrompt({
  sessionId: "s",
  prompt: [],
});
// @ts-expect-error the client proxy only has client methods
agentSide.client.sessionPrompt({ sessionId: "s", prompt: [] });
export const notified: Promise<void> = agentSide.client.sessionUpdate({
  sessionId: "s",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
});
agentSide.client.sessionUpdate({
  sessionId: "s",
  // @ts-expect-error not a session update kind
  update: { sessionUpdate: "agent_shout", content: { type: "text", text: "HI" } },
});

// --- request/notify by wire name -----------------------------------------------------------------

export const byName: Promise<stable.InitializeResponse> = clientSide.request("initialize", {
  protocolVersion: 1,
});
// @ts-expect-error params of another method
clientSide.request("session/new", { protocolVersion: 1 });
// @ts-expect-error a notification is not a request
clientSide.request("session/cancel", { sessionId: "s" });
clientSide.notify("session/cancel", { sessionId: "s" });
// @ts-expect-error a request is not a notification
agentSide.notify("fs/read_text_file", { sessionId: "s", path: "/x" });
// Extension methods: any name starting with "_", unchecked.
export const extension: Promise<unknown> = clientSide.request("_vendor/anything", { free: "form" });
agentSide.notify("_vendor/ping");
// @ts-expect-error not an extension name and not a method of the schema
clientSide.request("vendor/anything", {});

// --- handler interfaces: required and optional members -------------------------------------------

const minimalAgent: stable.Agent = {
  initialize: (params) => ({ protocolVersion: params.protocolVersion }),
  sessionNew: async () => ({ sessionId: "s" }),
  sessionPrompt: async (_params, context) =>
    context.signal.aborted ? { stopReason: "cancelled" } : { stopReason: "end_turn" },
  sessionCancel: () => {},
};
export const withExtras: stable.Agent = {
  ...minimalAgent,
  sessionLoad: async () => ({}),
  extMethod: async (method, params) => ({ method, params }),
};
// @ts-expect-error sessionPrompt is required
export const noPrompt: stable.Agent = {
  initialize: minimalAgent.initialize,
  sessionNew: minimalAgent.sessionNew,
  sessionCancel: () => {},
};
export const badStop: stable.Agent = {
  ...minimalAgent,
  // @ts-expect-error "done" is not a StopReason
  sessionPrompt: async () => ({ stopReason: "done" }),
};
export const minimalClient: stable.Client = {
  sessionUpdate: (params) => void params.update.sessionUpdate,
  sessionRequestPermission: async () => ({ outcome: { outcome: "cancelled" } }),
};
// @ts-expect-error sessionUpdate is required
export const noUpdates: stable.Client = {
  sessionRequestPermission: minimalClient.sessionRequestPermission,
};

// --- terminal handle: terminal/create resolves with one -----------------------------------------

export async function useTerminal(): Promise<number | null | undefined> {
  const terminal: stable.TerminalHandle = await agentSide.client.terminalCreate({
    sessionId: "s",
    command: "npm",
  });
  const id: string = terminal.terminalId;
  const output: stable.TerminalOutputResponse = await terminal.output();
  // @ts-expect-error the handle fills in the terminal id itself
  await terminal.kill({ terminalId: id });
  await terminal.release({ _meta: { reason: "done" } });
  return output.exitStatus?.exitCode;
}
// @ts-expect-error a handle is not a plain function result: waitForExit is a method, not data
export const notData: string = ({} as stable.TerminalHandle).waitForExit;

// --- capabilities: negotiated, and built from the handlers ---------------------------------------

export const loads: boolean | undefined = clientSide.negotiated?.agent.loadSession;
export const writes: boolean | undefined = agentSide.negotiated?.client.fs?.writeTextFile;
// @ts-expect-error negotiated is undefined until initialize completed
export const loadsAlways: boolean | undefined = clientSide.negotiated.agent.loadSession;
declare const agentCapabilities: typeof stable.agentCapabilities;
declare const clientCapabilities: typeof stable.clientCapabilities;
export const declaredAgent: stable.AgentCapabilities = agentCapabilities(minimalAgent, {
  promptCapabilities: { image: true },
});
// @ts-expect-error loadSession follows from the handlers (sessionLoad), it cannot be declared
agentCapabilities(minimalAgent, { loadSession: true });
// @ts-expect-error nor can a session capability that promises a method
agentCapabilities(minimalAgent, { sessionCapabilities: { list: {} } });
// @ts-expect-error terminal follows from the terminal handlers
clientCapabilities(minimalClient, { terminal: true });
export const declaredClient: stable.ClientCapabilities = clientCapabilities(minimalClient, {});
