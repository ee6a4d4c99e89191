/**
 * Capability negotiation as ACP states it in prose only: the named rules that complete what
 * capabilities.ts reads from the schema. Each says what it gates and why; a test checks
 * that each names a path and a subject the schema has.
 *
 * How a rule meets a release: it applies when the release has its subject (the method, and
 * the variant it names). A release without the subject simply does not get the gate ("this
 * release does not have it"). A release with the subject but without any of the rule's
 * paths is an input error naming the rule ("moved": the rule must learn the new path, as an
 * alternative in `paths`, before the package can be generated again).
 */

import type { ServingSide } from "./protocol.js";

/**
 * What `initialize` negotiates, by the names ACP gives them ("Initialization": the client
 * sends its capabilities and protocol version, the agent answers with its own). The schema
 * cannot mark the handshake or its members; a surface without them has no negotiation, so
 * its connections enforce nothing. The properties that carry the capabilities are found by
 * the definitions they refer to: v1 names them `clientCapabilities` / `agentCapabilities`,
 * v2 `capabilities` on both sides.
 */
export const NEGOTIATION = {
  /** The request that negotiates: the client's first call. */
  method: "initialize",
  /** Each side's capabilities object: the client's travels in the params, the agent's in the result. */
  capabilities: { client: "ClientCapabilities", agent: "AgentCapabilities" },
  /** The property of both params and result that holds the protocol version. */
  version: "protocolVersion",
} as const;

/** A gate ACP states only in prose: a capability path and the method (or variant) it gates. */
export interface CapabilityRule {
  /** For errors and the README: says what the rule is about. */
  readonly name: string;
  readonly reason: string;
  /** The side whose capabilities hold the path (and which serves the method). */
  readonly side: ServingSide;
  /** The capability's path, one per era that placed it differently, tried in order. */
  readonly paths: ReadonlyArray<readonly string[]>;
  /** Wire name of the method gated, or in whose params the gated variant travels. */
  readonly method: string;
  /** A variant of the tagged union at the root of the method's params, by its tag value. */
  readonly variant?: string;
}

/**
 * ACP's elicitation modes. `ElicitationCapabilities` "determines which elicitation modes the
 * agent may use", and its fields are named after the modes' tags (`form`, `url`), but the
 * schema links neither field to the `CreateElicitationRequest` variant it allows. A URL-based
 * elicitation is the only kind that completes out of band, with `elicitation/complete`
 * ("Notification sent by the agent when a URL-based elicitation is complete"), so that
 * notification needs the `url` capability too.
 */
export const CAPABILITY_RULES: readonly CapabilityRule[] = [
  {
    name: "elicitation form mode",
    reason: "ElicitationCapabilities.form allows the `form` mode of elicitation/create",
    side: "client",
    paths: [["elicitation", "form"]],
    method: "elicitation/create",
    variant: "form",
  },
  {
    name: "elicitation url mode",
    reason: "ElicitationCapabilities.url allows the `url` mode of elicitation/create",
    side: "client",
    paths: [["elicitation", "url"]],
    method: "elicitation/create",
    variant: "url",
  },
  {
    name: "elicitation completion",
    reason: "only a URL-based elicitation completes with elicitation/complete",
    side: "client",
    paths: [["elicitation", "url"]],
    method: "elicitation/complete",
  },
];

/**
 * Upstream's "Only available if the Agent supports the `…` capability" sometimes names the
 * path another era used: v1's `session/fork` says `session.fork` (v2's path; v1 has
 * `sessionCapabilities.fork`), 0.10's `session/list` says `listSessions` (it had
 * `sessionCapabilities.list`). When such a path does not exist but a capability field named
 * after the method gates it anyway, the field wins and the prose is ignored. Only a prose
 * path that resolves to nothing while nothing else gates the method is an input error.
 */
export const STALE_PROSE = {
  name: "stale capability prose",
  reason:
    "a method's description names another era's capability path, while a field named after the method gates it",
} as const;
