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
