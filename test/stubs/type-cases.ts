/**
 * Type-level tests of the generated stubs: compiles only if every `@ts-expect-error` below
 * marks a real type error. Checked by `npm run typecheck` and, under several consumer
 * setups (no DOM, DOM, @types/node; skipLibCheck off), by types.test.ts. Never executed.
 */
import type * as stable from "../../.test-package/package/v1/index.js";
import type * as unstable from "../../.test-package/package/v1/unstable/index.js";
import type * as v2 from "../../.test-package/package/v2/index.js";

declare const clientSide: stable.ClientSideConnection;
declare const agentSide: stable.AgentSideConnection;
declare const unstableClientSide: unstable.ClientSideConnection;
declare const v2AgentSide: v2.AgentSideConnection;

// --- proxies: methods, params and results come from the schema --------------------------------

export const created: Promise<stable.NewSessionResponse> = clientSide.agent.sessionNew({
  cwd: "/",
  mcpServers: [],
});
// @ts-expect-error session/fork is an unstable method: the stable proxy has no such member
clientSide.agent.sessionFork({ sessionId: "s", cwd: "/" });
export const forked: Promise<unstable.ForkSessionResponse> = unstableClientSide.agent.sessionFork({
  sessionId: "s",
  cwd: "/",
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
// @ts-expect-error v2 has no fs/ methods
v2AgentSide.client.fsReadTextFile({ sessionId: "s", path: "/x" });
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
// @ts-expect-error session/fork is not in the stable AgentRequestMap
clientSide.request("session/fork", { sessionId: "s", cwd: "/" });
unstableClientSide.request("session/fork", { sessionId: "s", cwd: "/" });
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
export const nesAgent: unstable.Agent = {
  ...minimalAgent,
  nesStart: async () => ({ sessionId: "nes" }),
};
export const stableNes: stable.Agent = {
  ...minimalAgent,
  // @ts-expect-error nesStart is not an Agent member on the stable surface
  nesStart: async () => ({ sessionId: "nes" }),
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
