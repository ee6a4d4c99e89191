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
