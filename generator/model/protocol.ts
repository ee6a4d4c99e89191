import type { HandleSpec, MethodEntry } from "../../templates/runtime/connection-types.js";
import type { SessionSpec } from "../../templates/runtime/session-state.js";
import type { InputFile, Meta } from "../load/index.js";
import type { Stability } from "../load/layout.js";
import type { Json } from "../schema/json.js";
import type { TaggedUnion } from "../schema/unions.js";
import type { HandlerSide, Side } from "./sides.js";

/** The intermediate model every emitter reads: one entry per surface (entry point). */
export interface ProtocolModel {
  surfaces: SurfaceModel[];
  /** What the protocol versions share: the handshake, and the same definitions (versions.ts). */
  versions: VersionsModel;
  inputs: InputFile[];
  /** The schema folder's CHANGES.md: the bump's schema diff, in Markdown (emit/changelog.ts). */
  changes?: string;
  /** The user's extension files (`--extension`), in the order given. */
  extensions: InputFile[];
}

/**
 * What the package's protocol versions have in common, for the code that serves several of
 * them on one stream (`PKG/router`): the handshake that chooses the version, which every
 * version must read alike (the router reads it before it knows the version), and the
 * definitions that are the same in every version, which an application's logic can take
 * and give to a connection of any of them.
 */
export interface VersionsModel {
  /** The protocol versions the package has a surface of, ascending. */
  versions: number[];
  /**
   * The request that chooses the version and the property holding it, read from the
   * surfaces' handshakes (capabilities.ts; versions.ts builds this): absent unless every surface has one, and all
   * name the same request and property.
   */
  handshake?: { method: string; version: string };
  /**
   * Per stability with surfaces of more than one version: the definitions every version
   * defines alike, sorted. Judged without prose (schema/node.ts `withoutProse`: upstream's
   * descriptions link to each version's documentation) and over references (stability.ts):
   * such a definition admits and reads the same values in every version, and its type is
   * the same, so a value typed by one version's entry point fits any other's.
   */
  same: Partial<Record<Stability, string[]>>;
}

export interface SurfaceModel {
  /** `v1`, `v1/unstable`, `v2`, `v2/unstable`: also the folder inside the package. */
  id: string;
  /** Subpath in the package's `exports`: `.`, `./unstable`, `./v2`, `./v2/unstable`. */
  entry: string;
  version: number;
  stability: Stability;
  /**
   * On an unstable surface with a stable one beside it: the stable surface's id. Its
   * definitions that are not `experimental` are that surface's, byte for byte, so their code
   * is emitted there once and used from here.
   */
  stableSurface?: string;
  protocolVersion: number;
  schemaFile: InputFile;
  meta?: Meta;
  defsKeyword: "$defs" | "definitions";
  /** In schema order (deterministic, and the order upstream documents them in). */
  definitions: Definition[];
  /** Sorted by handler side, then wire name, then kind. */
  methods: Method[];
  /** What the schema says about each connection role's calls beyond their types (call-rules.ts). */
  calls: CallRules;
  /** The protocol's own error codes, from the `ErrorCode` definition (error-codes.ts). */
  errors: ErrorCodes;
  /** What `initialize` negotiates and what each capability gates (capabilities.ts); absent without a handshake. */
  negotiation?: Negotiation;
  /** The connections take and send JSON-RPC batches (conventions.ts: from protocol v2 on). */
  batches: boolean;
  /** What the user's extensions added to this surface (extensions.ts); empty without any. */
  extensions: SurfaceExtension[];
  /** The client's session layer and its state rules (session-rules.ts); absent without sessions. */
  session?: SessionModel;
}

/** The session layer of a surface: the runtime's spec, and what the declarations need. */
export interface SessionModel {
  /** What `connection.js` hands the runtime. */
  spec: SessionSpec;
  /** The methods behind the spec's calls. */
  methods: {
    update: Method;
    prompt: Method;
    cancel: Method;
    new: Method;
    load?: Method;
    resume?: Method;
    close?: Method;
    setMode?: Method;
    setConfigOption?: Method;
  };
  /** Each state slot: its shape and what its entities or value are, in schema order. */
  slots: SlotTyping[];
  /** The definition and property whose type a turn's stop reason has. */
  stopReason?: { definition: string; property: string };
  /** The content union a prompt holds a list of (`ContentBlock`). */
  content: string;
  /** The type of a session's id (`SessionId`). */
  sessionIdType: string;
  /** The update union (`SessionUpdate`). */
  updateUnion: string;
}

export interface SlotTyping {
  name: string;
  shape: "map" | "list" | "value";
  /** Entity slots: the key's property and its definition. */
  key?: { property: string; definition: string };
  /** What an entity (or the value) is, one entry per way one is made. */
  holds: SlotValue[];
  /** The update kinds that change it, in schema order. */
  kinds: string[];
}

export type SlotValue =
  /** As the update (or its put property) carries it: a `create`, `put` or `set`. */
  | { how: "whole"; definition: string; kind?: string }
  /** Made by patches (`patch`, `merge`): the definition's fields, `null` never stored. */
  | { how: "settled"; definition: string; kind?: string }
  /** One property of the update (`set` from it). */
  | { how: "property"; definition: string; property: string }
  /** Made by chunks alone: the key and a list of their items. */
  | { how: "chunks"; field: string; item: string; kind?: string };

/** What the user's extensions added to one surface, by file: for diff and for documentation. */
export interface SurfaceExtension {
  file: InputFile;
  /** Definition keys, in file order. */
  definitions: string[];
  /** Wire names of the extension's methods. */
  methods: string[];
  /** Typed `_meta` keys: the protocol definition and the key. */
  meta: Array<{ definition: string; key: string }>;
}

export interface Definition {
  /** The `$defs` key; also the TypeScript type's name (symbols/ checks that it can be one). */
  key: string;
  schema: Json;
  /** The tagged union at the definition's root, when it is one (see unions.ts). */
  union?: TaggedUnion;
  /**
   * On unstable surfaces: `new` when the stable schema lacks the definition, `changed`
   * when it or anything it references differs; `false` when identical (and always on stable).
   */
  experimental: false | "new" | "changed";
  /** Properties the stable schema's version of this definition lacks. */
  experimentalProperties: string[];
}

export type MethodKind = "request" | "notification";

export interface Method {
  /** Wire name (`session/new`). */
  method: string;
  /** The x-side annotation as written. */
  side: Side;
  /** Who serves it: `both` expands to agent and client. */
  handledBy: readonly HandlerSide[];
  kind: MethodKind;
  /** meta.json key (`session_new`), or derived from the wire name when there is no meta.json. */
  key: string;
  /** Handler member name on `Agent`/`Client` (`sessionNew`). */
  handler: string;
  /** Definition key of the params (the `…Request`/`…Notification` definition). */
  params: string;
  /**
   * Requests only: definition key of the result (the `…Response` definition), or `null` when
   * the result is JSON `null` with no definition of its own (early releases: the NULL
   * RESULT rule in methods.ts). Absent on notifications.
   */
  result?: string | null;
  /** On unstable surfaces: the stable surface has no such method. */
  experimental: boolean;
  /**
   * The roles every implementation must serve it in (model/conventions.ts
   * `REQUIRED_HANDLERS`: only prose says so); its handler is optional in any other.
   */
  requiredBy: readonly ServingSide[];
  /** The `--extension` file that declares the method (by its name); absent for the protocol's. */
  extension?: string;
}

/** The sides that serve methods over a connection: the connection roles. */
export type ServingSide = "agent" | "client";

export type CallRules = Readonly<Record<ServingSide, RoleCalls>>;

/** The call rules of the methods one role serves, by request. */
export interface RoleCalls {
  /** Requests a notification stops (`session/prompt`, by `session/cancel`). */
  cancelBy: ReadonlyMap<Method, CancelSpec>;
  /** Requests whose result opens a handle (`terminal/create`), in method order. */
  handles: ReadonlyMap<Method, HandleRule>;
}

/** The runtime's `MethodEntry.cancelBy`: the notification an abort sends, and what it copies. */
export type CancelSpec = NonNullable<MethodEntry["cancelBy"]>;

export interface HandleRule {
  /** What the runtime builds the handle from: the method entry's `handle`. */
  spec: HandleSpec;
  /** The namespace of the methods (`terminal`), which names the handle's type (symbols/). */
  namespace: string;
  /** `spec.methods` with the model's methods, in member order: the handle type's members. */
  members: ReadonlyArray<{ member: string; method: Method }>;
}

/** One entry of the schema's `ErrorCode`: a code with a title. */
export interface ErrorCode {
  code: number;
  /** `Resource not found`: names the helper (symbols/) and is the message of its errors. */
  title: string;
  description?: string;
  /** JSON pointer of the entry in the schema file. */
  at: string;
}

export interface ErrorCodes {
  /** In schema order. */
  codes: ErrorCode[];
  /** The code a session that does not exist is reported with (conventions.ts), if the schema has it. */
  sessionNotFound?: ErrorCode;
}

/** The handshake of a surface and the capability gates it sets up (capabilities.ts). */
export interface Negotiation {
  /** The request that negotiates (`initialize`), served by the agent. */
  method: Method;
  /**
   * Where each side's capabilities travel: the client's in a property of the params, the
   * agent's in a property of the result; and the definition each property refers to.
   */
  capabilities: Readonly<Record<ServingSide, { property: string; definition: string }>>;
  /** The property of both params and result that holds the protocol version, when both have it. */
  version?: string;
  /** In method order; a method's own gates before those of its content; then by path. */
  gates: CapabilityGate[];
}

/** One capability and one thing it gates: a method, or a variant in a method's params. */
export interface CapabilityGate {
  /** The side that declares the capability, and serves the method. */
  side: ServingSide;
  /** Property names from the side's capabilities object down to the capability. */
  path: string[];
  /** How it is declared: `true` for a boolean capability, `{}` for an object one. */
  declare: "true" | "object";
  /** The capability holds capabilities of its own (v2's `session`). */
  container: boolean;
  method: Method;
  /**
   * Declaring the capability promises to serve the method (`loadSession`: `session/load`;
   * `terminal`: "all `terminal/*` methods"), so a side that declares it without the handler
   * is reported. False where the capability only opens a namespace whose methods have gates
   * of their own (v2's `session` and `session/*`), and for content.
   */
  handlerRequired: boolean;
  /** Only for gated content: without it, the gate is on calling the method at all. */
  content?: ContentGate;
  /** How the model knows, each source once: where several agree, all of them. */
  sources: GateSource[];
}

/** A tagged-union variant that may travel in a method's params only when the capability is declared. */
export interface ContentGate {
  /** The union's definition key, its tag property, and the variant's tag value. */
  definition: string;
  tag: string;
  value: string;
  /** Where such values sit in the params: property names, and `*` for every item or map value. */
  at: string[][];
}

export type GateSource =
  /** A description says so ("Only available if …"): the JSON pointer of that description. */
  | { kind: "described"; at: string }
  /** A capability field is named after the method: the pointer of the field. */
  | { kind: "named"; at: string }
  /** A named rule of capability-rules.ts. */
  | { kind: "rule"; rule: string };
