/**
 * Facts of the protocol that the schema does not state, taken from the protocol's own
 * documentation rather than from the generator (https://agentclientprotocol.com/protocol/overview,
 * "Agent" and "Client": baseline methods and notifications). Tests hold the generated code to
 * these; the generator keeps its own copy, so a change on either side shows up as a failure.
 */

/**
 * The methods every implementation must serve, by wire name: an agent answers `initialize`,
 * `session/new` and `session/prompt` and handles `session/cancel`; a client answers
 * `session/request_permission` and handles `session/update`. Everything else is optional,
 * because a capability, an advertised auth method (`authenticate`: "if required by the
 * Agent") or an unstable draft gates it.
 */
export const BASELINE_METHODS = {
  agent: ["initialize", "session/new", "session/prompt", "session/cancel"],
  client: ["session/request_permission", "session/update"],
} as const;

/** `session_set_mode` → `sessionSetMode`: handler names are the camelCase of meta.json keys. */
export const handlerName = (metaKey: string): string =>
  metaKey.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * Capability negotiation in the stable v1 protocol of SDK 2.4.0's schema (the release the test
 * holds it against), as the protocol's documentation states it
 * (https://agentclientprotocol.com/protocol/initialization, "Agent capabilities", "Client
 * capabilities", and the pages of each gated method): the capability, on the side that
 * declares it, and what it gates. `content` is a variant of a union, by its tag value, in the
 * params of `method`. Written out here rather than read from the generator, so the model is
 * held to the protocol.
 */
export const V1_CAPABILITY_GATES: ReadonlyArray<{
  side: "agent" | "client";
  capability: string;
  method: string;
  content?: string;
}> = [
  { side: "agent", capability: "loadSession", method: "session/load" },
  { side: "agent", capability: "sessionCapabilities.list", method: "session/list" },
  { side: "agent", capability: "sessionCapabilities.delete", method: "session/delete" },
  { side: "agent", capability: "sessionCapabilities.resume", method: "session/resume" },
  { side: "agent", capability: "sessionCapabilities.close", method: "session/close" },
  { side: "agent", capability: "auth.logout", method: "logout" },
  // Text and resource links are the baseline every agent accepts in a prompt.
  ...[
    ["image", "image"],
    ["audio", "audio"],
    ["embeddedContext", "resource"],
  ].map(([capability, content]) => ({
    side: "agent" as const,
    capability: `promptCapabilities.${capability}`,
    method: "session/prompt",
    content: `ContentBlock ${content}`,
  })),
  // Stdio MCP servers are the baseline; HTTP and SSE ones need the agent's say-so.
  ...["session/new", "session/load", "session/resume"].flatMap((method) =>
    ["http", "sse"].map((transport) => ({
      side: "agent" as const,
      capability: `mcpCapabilities.${transport}`,
      method,
      content: `McpServer ${transport}`,
    })),
  ),
  { side: "client", capability: "fs.readTextFile", method: "fs/read_text_file" },
  { side: "client", capability: "fs.writeTextFile", method: "fs/write_text_file" },
  ...["create", "output", "release", "wait_for_exit", "kill"].map((name) => ({
    side: "client" as const,
    capability: "terminal",
    method: `terminal/${name}`,
  })),
  // Elicitation: each mode needs its own capability; only URL elicitations complete.
  {
    side: "client",
    capability: "elicitation.form",
    method: "elicitation/create",
    content: "CreateElicitationRequest form",
  },
  {
    side: "client",
    capability: "elicitation.url",
    method: "elicitation/create",
    content: "CreateElicitationRequest url",
  },
  { side: "client", capability: "elicitation.url", method: "elicitation/complete" },
];
