/**
 * What ACP says only in prose, so the schema cannot tell the generator: each rule named
 * here, with its reason, and applied wherever the schema has what it names (a schema
 * without it simply does not get the behaviour). Everything else the model reads from the
 * schema itself.
 */

/**
 * The handlers an implementation must provide: the methods of a prompt turn that no
 * capability gates and no negotiation makes conditional. ACP requires every agent to serve
 * these and every client to answer these; every other method is served only after the peer
 * learned of it (a capability such as `loadSession`, `fs.readTextFile`, `terminal`, an
 * advertised auth method, mode or config option, an elicitation capability) or is an
 * unstable draft, so its handler is optional, and a missing one answers -32601.
 *
 * The schema itself cannot say this: "Only available if …" appears on some gated methods'
 * descriptions but not on others (`terminal/*`, `session/set_mode`, `elicitation/*`). Listed
 * by wire name, so they apply to every surface that has them; a test checks each exists.
 */
export const REQUIRED_HANDLERS: Readonly<Record<"agent" | "client", readonly string[]>> = {
  agent: ["initialize", "session/new", "session/prompt", "session/cancel"],
  client: ["session/request_permission", "session/update"],
};

/**
 * The one handle member the schema cannot point at: which call frees the thing a handle
 * stands for (call-rules.ts finds the handles). ACP names it `release`
 * (`terminal/release`: "Releases the terminal and frees all associated resources"), and the
 * official SDK's TerminalHandle releases on `Symbol.asyncDispose` too. A handle without a
 * member of this name has no `Symbol.asyncDispose`.
 */
export const DISPOSE_MEMBER = "release";

/**
 * The one error the schema's `ErrorCode` cannot name (error-codes.ts reads the others): ACP
 * reports a session that does not exist as the code titled "Resource not found" with
 * `data.sessionId` (the official SDK's `RequestError.sessionNotFound` sends exactly that,
 * while its `resourceNotFound(uri)` would put the id under `uri`). Only where the schema
 * has a code of that title.
 */
export const SESSION_NOT_FOUND = {
  title: "Resource not found",
  dataProperty: "sessionId",
} as const;

/**
 * Proxy chains (the methods with `x-side: proxy`, SDK 2.3 and later): what the schema's
 * prose says and its annotations cannot. A conductor runs the chain; between it and each
 * proxy, `successor` is the envelope in both directions (the proxy sends it to reach its
 * successor, the conductor sends it to deliver what the successor sent), every other
 * `x-side: proxy` method is one the conductor calls and the proxy serves, and `initialize`
 * is the one a conductor sends in place of `forwards` ("A conductor sends `proxy/initialize`
 * instead of `initialize` to every component that has a successor"; the proxy "MUST forward
 * an `initialize` request to its successor"). Only a surface whose schema has the envelope
 * gets the proxy and conductor connections (model/chain.ts).
 */
export const PROXY_CHAIN = {
  successor: "proxy/successor",
  initialize: { method: "proxy/initialize", forwards: "initialize" },
} as const;

/**
 * JSON-RPC batches, which only prose allows: ACP v2's transports document ("Messages are
 * individual JSON-RPC requests, notifications, responses, or batch arrays", with JSON-RPC
 * 2.0's batch rules restated), while v1's says nothing of them and its SDKs refuse them.
 * A surface of this protocol version or later gets connections that take batches apart and
 * answer them as JSON-RPC says, and can send some; an earlier one keeps answering an array
 * with -32600.
 */
export const BATCHES_SINCE_PROTOCOL_VERSION = 2;

/**
 * The client's session layer (model/session-rules.ts): its calls, by the names the package
 * gives them. ACP's prose says what each does to a session and the schema cannot: `new`
 * opens one and names it in its result; `load` opens one named in its params and replays
 * its history as updates before it answers ("the Agent MUST replay the entire
 * conversation"), as v2's `resume` does on request (`replayFrom`); `prompt` runs a turn;
 * `close` ends one. Listed by wire name, so they apply to every surface that has them with
 * the session named in their params (the model checks each); a test checks each exists.
 * The cancel notification and the update notification are read from the schema instead.
 */
export const SESSION_CALLS = {
  new: "session/new",
  load: "session/load",
  resume: "session/resume",
  prompt: "session/prompt",
  close: "session/close",
  setMode: "session/set_mode",
  setConfigOption: "session/set_config_option",
} as const;

/**
 * How the schema names an identifier: a property named after its own type, a type whose
 * name ends in `Id` (`toolCallId: ToolCallId`, `messageId: MessageId`), is the identity of
 * the entity an update is about, so updates carrying the same value act on the same entity.
 * A reference to something listed elsewhere is named for its role instead (`currentModeId:
 * SessionModeId`), and a value named after its type is not an identity (`cost: Cost`).
 */
export const ENTITY_KEY = {
  /** Whether a property of that name and type is a key. */
  is: (property: string, type: string): boolean =>
    type.endsWith("Id") && ENTITY_KEY.property(type) === property,
  /** The key property's name for a type name: `ToolCallId` → `toolCallId`. */
  property: (type: string): string => `${type[0]?.toLowerCase() ?? ""}${type.slice(1)}`,
  /** The slot holding such entities: `ToolCallId` → `toolCalls`. */
  slot: (type: string): string => `${ENTITY_KEY.property(type.replace(/Id$/, ""))}s`,
} as const;

/**
 * Update kinds named for what they do, where the shape alone does not tell: a tag ending in
 * `_chunk` streams one item of an entity (`agent_message_chunk`: "A chunk of the agent's
 * response being streamed"), and the entity it belongs to is of the kind the tag names
 * without it (`agent_message`); a tag ending in `_update` updates the state the rest of it
 * names, so an update carrying one property named so (`available_commands_update`'s
 * `availableCommands`) sets the value of that name.
 */
export const UPDATE_TAGS = { chunk: "_chunk", update: "_update" } as const;

/**
 * Where chunks that name no entity go: releases before `messageId` stream the conversation
 * as bare chunks, and a run of them of one kind is one message. Their slot is named as
 * later releases' `MessageId` names it (`ENTITY_KEY`), so a client reads both alike.
 */
export const KEYLESS_CHUNKS = { slot: "messages" } as const;

/**
 * What `null` means in a field of a partial update, which only prose says. v1's
 * `tool_call_update` "only changed fields need to be included", and the reference reads a
 * `null` there as an absent `Option`: the field is left unchanged. Where a definition's or
 * a field's description says `null` clears (v2's upserts: "omitted fields leave the
 * existing tool call value unchanged, `null` clears or unsets the value"; "Set to null to
 * clear"), it removes the stored value. An object field whose description says it "patches
 * the stored metadata by top-level key" (v2's `_meta`) is merged key by key instead, a key
 * set to `null` removed.
 */
export const PATCH_PROSE = {
  nullClears: /`null` (?:clears|unsets|resets|removes)|null to clear/i,
  byKey: /patches the stored metadata by top-level key/i,
} as const;

/**
 * The state value that ends a turn where the prompt's answer only acknowledges it (v2): the
 * agent "MUST report `running` when foreground work starts … and `idle` when it ends",
 * with the stop reason on that idle update. The schema has the states, not which one ends.
 */
export const IDLE_STATE = "idle";

/**
 * The content block that is plain text, which every agent must accept ("the Agent MUST
 * support `text` and `resource_link` content blocks"): the variant tagged `text`, holding
 * its text in a property of that name. A string prompt is sent as one; `Turn.text()`
 * reads them. Only where the content union has it.
 */
export const TEXT_BLOCK = "text";

/**
 * The entity kind of the agent's own messages (`agent_message_chunk`: "A chunk of the
 * agent's response being streamed"), whose text `Turn.text()` returns; thoughts and the
 * user's messages are other kinds.
 */
export const AGENT_MESSAGE = "agent_message";
