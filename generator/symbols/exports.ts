import { handlerName, methodKey } from "../model/methods.js";
import { HANDLER_SIDES, type HandlerSide } from "../model/sides.js";

/**
 * The names an entry point exports that do not come from a definition: how the method
 * constants and maps are named, the connection's interfaces and classes, and what the
 * generated modules re-export from the package's runtime. The emitters write these lines
 * from here, and the symbol table checks definitions against them.
 */

/** Per-definition names: the type is the `$defs` key; the functions are derived from it. */
export const definitionNames = (type: string) => ({
  type,
  /** `guards.js`: strict type guard. */
  guard: `is${type}`,
  validate: `validate${type}`,
  assert: `assert${type}`,
  /** `parsers.js`: lenient parse. */
  parse: `parse${type}`,
  /** `validators.js`'s compiled validator: imported by the other modules, not re-exported. */
  validator: `v${type}`,
  /**
   * `parsers.js`, for a tagged union: the variant guard, the open union's custom guard, and
   * the guard of its untagged variants (where it has any).
   */
  variantGuard: `is${type}Of`,
  customGuard: `isCustom${type}`,
  untaggedGuard: `isUntagged${type}`,
});

/**
 * The namespace of received types (`received.d.ts`): each definition that can hold a closed
 * tagged union, with unknown variants admitted, as the open reading returns it.
 */
export const RECEIVED_NAMESPACE = "Received";

/** `AGENT_METHODS`: a side's method constants (meta.json's `agentMethods`). */
export const methodConstant = (side: HandlerSide): string => `${side.toUpperCase()}_METHODS`;

/** `AgentRequestMap`, `AgentNotificationMap`: a side's wire name → types map. */
export const methodMap = (side: HandlerSide, kind: "request" | "notification"): string =>
  `${side[0]?.toUpperCase()}${side.slice(1)}${kind === "request" ? "Request" : "Notification"}Map`;

/** `methods.js` exports besides the per-side constants and maps. */
export const METHOD_MODULE = {
  protocolVersion: "PROTOCOL_VERSION",
  methods: "METHODS",
  methodSpec: "MethodSpec",
} as const;

/** The roles a connection can play, and the names each exports from `connection.js`. */
export const ROLES = {
  agent: { handlers: "Agent", remote: "RemoteAgent", connection: "AgentSideConnection" },
  client: { handlers: "Client", remote: "RemoteClient", connection: "ClientSideConnection" },
} as const;
export type Role = keyof typeof ROLES;

/**
 * The roles of a proxy chain (model/chain.ts), on surfaces whose schema has one: the
 * proxy's end of its link to the conductor, and the conductor's end of its link to a proxy.
 * `groups` are the members of `Proxy` holding the handlers for the calls that pass through
 * (the agent's methods from the predecessor, the client's from the successor); `successor`
 * is the proxy connection's property for calling the next component.
 */
export const CHAIN_ROLES = {
  proxy: {
    handlers: "Proxy",
    connection: "ProxySideConnection",
    groups: { agent: "agent", client: "client" },
    successor: "successor",
  },
  conductor: {
    handlers: "Conductor",
    remote: "RemoteProxy",
    connection: "ConductorSideConnection",
  },
} as const;

/**
 * The type a request's typed call resolves with when its result opens a handle
 * (model/call-rules.ts), named after the namespace of the methods acting on it:
 * `terminal` → `TerminalHandle`. Exported from `connection.js` beside the roles' names.
 */
export const handleType = (namespace: string): string => {
  const camel = handlerName(methodKey(namespace));
  return `${camel[0]?.toUpperCase() ?? ""}${camel.slice(1)}Handle`;
};

/**
 * `session.d.ts`, on surfaces with the client's session layer (model/session-rules.ts): the
 * session `conn.session()` opens, a prompt's turn, and the state the session keeps.
 */
export const SESSION_MODULE = {
  session: "Session",
  turn: "Turn",
  state: "SessionState",
} as const;

/**
 * `errors.js`: the entry point's `RequestError` (the runtime's class with a static helper
 * per code of the schema's `ErrorCode`), and the one helper not named after a code's title
 * (model/conventions.ts says which code it makes).
 */
export const ERRORS_MODULE = {
  errorClass: "RequestError",
  sessionNotFound: "sessionNotFound",
} as const;

/**
 * `capabilities.js`: the surface's capability gates for tooling (model/capabilities.ts),
 * and per role the helper that builds that side's capabilities object from its handlers.
 */
export const CAPABILITIES_MODULE = {
  gates: "CAPABILITY_GATES",
  helper: (role: Role): string => `${role}Capabilities`,
} as const;

/** A `RequestError` helper, named after its code's title: `Authentication required` → `authenticationRequired`. */
export const errorHelper = (title: string): string =>
  title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) =>
      i === 0 ? w.toLowerCase() : `${w[0]?.toUpperCase()}${w.slice(1).toLowerCase()}`,
    )
    .join("");

/** One `export { … } from` line of a generated module: runtime names it passes on. */
export interface RuntimeReexport {
  /** The runtime module (`runtime/<from>`). */
  from: string;
  names: readonly string[];
  /** Only in the declarations (`export type { … }`): the names are types. */
  typeOnly?: true;
}

/**
 * What `connection.js` / `connection.d.ts` re-export from the runtime, in the order written:
 * the stream, the errors, and every type the connection's public signatures mention (so
 * users can name them too). `connection.js` writes the lines that are not `typeOnly`.
 */
export const CONNECTION_REEXPORTS: readonly RuntimeReexport[] = [
  { from: "ndjson-stream.js", names: ["ndJsonStream"] },
  { from: "ndjson-stream.js", names: ["NdJsonStreamOptions"], typeOnly: true },
  // RequestError comes from the entry point's own errors.js (ERRORS_MODULE).
  { from: "request-error.js", names: ["ConnectionClosedError"] },
  { from: "request-error.js", names: ["CloseKind"], typeOnly: true },
  { from: "message-stream.js", names: ["MessageEncodingError", "MessageTooLargeError"] },
  { from: "message-stream.js", names: ["MalformedDetail", "MessageStream"], typeOnly: true },
  { from: "peek.js", names: ["MessageHead"], typeOnly: true },
  { from: "handle.js", names: ["AsyncDisposableIfAvailable"], typeOnly: true },
  { from: "request-error.js", names: ["TurnAbandonedError"] },
  {
    from: "connection-types.js",
    names: [
      ...["CallOptions", "ConnectionOptions", "LogEvent", "LogReason", "MaybePromise"],
      ...["NotificationContext", "PromptOptions", "RequestContext", "SessionOf", "TraceEvent"],
      ...["TurnOf", "UpdatesOptions", "ValidationOptions"],
    ],
    typeOnly: true,
  },
  {
    from: "json-rpc.js",
    names: [
      ...["ErrorMessage", "ErrorObject", "JsonRpcId", "JsonRpcMessage", "NotificationMessage"],
      ...["RequestMessage", "ResultMessage"],
    ],
    typeOnly: true,
  },
  { from: "message-stream.js", names: ["MalformedFrame", "MalformedProblem"], typeOnly: true },
  { from: "side-connection.js", names: ["ParamsOf", "RemoteMethods", "ResultOf"], typeOnly: true },
  {
    from: "negotiation.js",
    names: ["CapabilityGate", "CapabilityMode", "CapabilityOptions", "ContentGate", "Negotiated"],
    typeOnly: true,
  },
  {
    from: "web-types.js",
    names: [
      ...["ReadableLike", "SignalLike", "StreamReader", "StreamReadResult", "StreamWriter"],
      "WritableLike",
    ],
    typeOnly: true,
  },
];

/**
 * One `import { … } from` line of a generated declaration file: runtime names its own
 * declarations use. With the re-exports, these are every edge from the generated
 * declarations into the runtime's: the package ships the runtime declarations they reach
 * (emit/package.ts `withReachableRuntime`), so a line written without its entry here would
 * point at a file the package may not have.
 */
export type RuntimeImport = RuntimeReexport;

/**
 * What `connection.d.ts` imports from the runtime for its own declarations. `negotiated` is
 * for surfaces with a handshake, `proxy` for those with a proxy chain (the symbol table
 * keeps only the entries a surface has).
 */
export const CONNECTION_IMPORTS = {
  options: {
    from: "connection-types.js",
    names: [
      ...["CallOptions", "ConnectionOptions", "ExtensionHandlers", "NotificationContext"],
      "RequestContext",
    ],
    typeOnly: true,
  },
  stream: { from: "message-stream.js", names: ["MessageStream"], typeOnly: true },
  negotiated: { from: "negotiation.js", names: ["Negotiated"], typeOnly: true },
  base: { from: "side-connection.js", names: ["SideConnection"] },
  disposable: { from: "handle.js", names: ["AsyncDisposableIfAvailable"], typeOnly: true },
  proxy: { from: "proxy-connection.js", names: ["ProxyConnection"] },
} as const satisfies Record<string, RuntimeImport>;

/** What `session.d.ts` imports from the runtime: the members every session and turn have. */
export const SESSION_IMPORTS = {
  members: {
    from: "connection-types.js",
    names: ["CallOptions", "SessionOf", "Settled", "TurnOf", "Without"],
    typeOnly: true,
  },
  disposable: { from: "handle.js", names: ["AsyncDisposableIfAvailable"], typeOnly: true },
} as const satisfies Record<string, RuntimeImport>;

/** What `capabilities.d.ts` imports from the runtime: the gate's type. */
export const CAPABILITIES_IMPORTS = {
  gate: { from: "negotiation.js", names: ["CapabilityGate"], typeOnly: true },
} as const satisfies Record<string, RuntimeImport>;

/** What `errors.d.ts` imports from the runtime: the class its `RequestError` extends. */
export const ERRORS_IMPORTS = {
  base: { from: "request-error.js", names: ["RequestError"] },
} as const satisfies Record<string, RuntimeImport>;

/**
 * The call signatures (`runtime/signatures.js`) that declare each definition's functions:
 * `is<Name>` is a `Guard<Name>`, and so on. Exported by every entry point, so a consumer's
 * declarations can name the type of anything they take from a guard or parser.
 */
export const SIGNATURES = {
  guard: "Guard",
  validate: "Validate",
  assert: "Assert",
  parse: "Parse",
  openParse: "OpenParse",
  responseParse: "ResponseParse",
  openResponseParse: "OpenResponseParse",
  variantGuard: "VariantGuard",
  openVariantGuard: "OpenVariantGuard",
  customGuard: "CustomGuard",
  untaggedGuard: "UntaggedGuard",
} as const;

/**
 * What `types.d.ts` may import from the runtime: the signatures its function declarations
 * are written with (emit/types.ts imports those it uses).
 */
export const TYPES_IMPORTS = {
  signatures: { from: "signatures.js", names: Object.values(SIGNATURES), typeOnly: true },
} as const satisfies Record<string, RuntimeImport>;

/** What the entry point (`index.js` / `index.d.ts`) re-exports from the runtime itself. */
export const INDEX_REEXPORTS: readonly RuntimeReexport[] = [
  { from: "validation.js", names: ["ValidationError"] },
  { from: "validation.js", names: ["ValidationIssue", "ValidationResult"], typeOnly: true },
  {
    from: "parse-context.js",
    names: ["ParseOptions", "ResponseParseOptions", "UnknownVariant"],
    typeOnly: true,
  },
  { from: "signatures.js", names: Object.values(SIGNATURES), typeOnly: true },
];

/** An entry point that is the same for every surface: where it lives, what it re-exports. */
export interface PackageEntry {
  /** The `exports` key: `./node`. */
  readonly subpath: string;
  /** Its folder in the package, holding `index.js` and `index.d.ts`. */
  readonly folder: string;
  readonly reexports: readonly RuntimeReexport[];
  /** What its declarations import from the runtime for their own use. */
  readonly imports: readonly RuntimeImport[];
}

/**
 * `PKG/node`: the Node.js helpers (serve on this process's stdio, spawn an agent, any pair
 * of Node streams, the remote transport on Node's `http` server), one entry point for every
 * surface since they deal in message streams, not in any surface's methods. Apart, so every
 * other entry point stays web-platform only; its `index.js` re-exports these from the
 * runtime's `node.js`.
 */
export const NODE_REEXPORTS: readonly RuntimeReexport[] = [
  {
    from: "node.js",
    // The README lists them in this order: the helpers first, the adapters under them last.
    names: [
      ...["stdio", "spawnAgent", "nodeStream", "AgentExitError", "AgentStartError"],
      ...["readableOf", "writableOf"],
    ],
  },
  {
    from: "node.js",
    names: [
      ...["AgentChild", "AgentExit", "AgentProcess", "NodeReadable", "NodeWritable"],
      "SpawnAgentOptions",
    ],
    typeOnly: true,
  },
  {
    from: "node-remote.js",
    names: ["serve", "createNodeHttpHandler", "createNodeWebSocketUpgradeHandler"],
  },
  {
    from: "node-remote.js",
    names: [
      ...["NodeIncomingMessage", "NodeServerResponse", "NodeUpgradeSocket", "NodeWebSocketServer"],
      ...["NodeWebSocketOptions", "ServedAcp", "ServeOptions"],
    ],
    typeOnly: true,
  },
];
export const NODE_ENTRY: PackageEntry = {
  subpath: "./node",
  folder: "node",
  reexports: NODE_REEXPORTS,
  imports: [],
};

/**
 * `PKG/remote`: the streamable-HTTP and WebSocket transport of the upstream RFD, web
 * platform only: the client's streams (`createHttpStream`, `createWebSocketStream`) and the
 * agent's `AcpServer`. Like `PKG/node`, one for every surface: the streams feed the
 * connection of any of them. Named as the official SDK names them, so a port changes imports.
 */
export const REMOTE_REEXPORTS: readonly RuntimeReexport[] = [
  { from: "remote-client.js", names: ["createHttpStream", "createWebSocketStream"] },
  { from: "remote-client.js", names: ["MemoryAcpCookieStore"] },
  {
    from: "remote-client.js",
    names: ["AcpCookieStore", "HttpStreamOptions", "RemoteStreamOptions", "WebSocketStreamOptions"],
    typeOnly: true,
  },
  { from: "remote-server.js", names: ["AcpServer"] },
  {
    from: "remote-server.js",
    names: ["AcpServerOptions", "AuthenticateResult", "WebSocketUpgrade"],
    typeOnly: true,
  },
  { from: "remote-connection.js", names: ["DEFAULT_REMOTE_LIMITS"] },
  {
    from: "remote-connection.js",
    names: ["RemoteConnectionInfo", "RemoteLimits", "ResolvedLimits"],
    typeOnly: true,
  },
  {
    from: "remote-wire.js",
    names: ["HEADER_CONNECTION_ID", "HEADER_SESSION_ID", "RemoteClosedError"],
  },
  { from: "message-stream.js", names: ["MessageStream"], typeOnly: true },
  { from: "web-globals.js", names: ["WebSocketConstructor"], typeOnly: true },
  {
    from: "web-types.js",
    names: [
      ...["FetchLike", "HeadersLike", "PlatformResponse", "RequestLike", "ResponseLike"],
      ...["SignalLike", "WebSocketLike"],
    ],
    typeOnly: true,
  },
];
export const REMOTE_ENTRY: PackageEntry = {
  subpath: "./remote",
  folder: "remote",
  reexports: REMOTE_REEXPORTS,
  imports: [],
};

/**
 * `PKG/router`: one agent for every client version and one client for every agent version
 * (the runtime's `router.ts`), web platform only. Besides these re-exports it holds what the
 * generator writes from the model (emit/router-entry.ts): `agentRouter` and `clientRouter`
 * bound to the package's handshake and versions, and the definitions every version shares.
 */
export const ROUTER_REEXPORTS: readonly RuntimeReexport[] = [
  {
    from: "router.js",
    names: [
      ...["AgentFactory", "AgentRoute", "AgentRouter", "AgentRoutes", "ClientConnectOptions"],
      ...["ClientOffer", "ClientRoute", "ClientRouter", "ExtraArguments", "InitializeResultOf"],
      ...["InitializingConnection", "RouterOptions"],
    ],
    typeOnly: true,
  },
  { from: "message-stream.js", names: ["MessageStream"], typeOnly: true },
];
/** The names `PKG/router` declares itself (emit/router-entry.ts writes them). */
export const ROUTER_MODULE = {
  /** The agent's router: `agentRouter({ 1: (stream) => …, 2: (stream) => … })`. */
  agentRouter: "agentRouter",
  /** The client's router: `clientRouter({ 2: { initialize, connect }, 1: { … } })`. */
  clientRouter: "clientRouter",
  /** Per stability, the definitions every protocol version defines alike (model/versions.ts). */
  sameDefinitions: "SAME_DEFINITIONS",
  /** The union of the package's protocol versions. */
  versions: "ProtocolVersions",
  /** The runtime classes the functions make, and the handshake spec they take. */
  agentClass: "AgentRouter",
  clientClass: "ClientRouter",
} as const;

/** What `PKG/router`'s declarations import from the runtime: the classes and their arguments. */
export const ROUTER_IMPORTS: readonly RuntimeImport[] = [
  {
    from: "router.js",
    names: [
      ...["AgentFactory", ROUTER_MODULE.agentClass, "ClientOffer", ROUTER_MODULE.clientClass],
      ...["InitializingConnection", "RouterOptions"],
    ],
    typeOnly: true,
  },
];

export const ROUTER_ENTRY: PackageEntry = {
  subpath: "./router",
  folder: "router",
  reexports: ROUTER_REEXPORTS,
  imports: ROUTER_IMPORTS,
};

/** The entry points shared by every surface, in the order `exports` lists them. */
export const PACKAGE_ENTRIES: readonly PackageEntry[] = [NODE_ENTRY, REMOTE_ENTRY, ROUTER_ENTRY];

/**
 * Every name an entry point may export besides those derived from definitions, whatever
 * its methods: a definition of any of these names is refused on every surface alike.
 */
export function packageNames(): string[] {
  return [
    ...HANDLER_SIDES.flatMap((side) => [
      methodConstant(side),
      methodMap(side, "request"),
      methodMap(side, "notification"),
    ]),
    ...Object.values(METHOD_MODULE),
    ...Object.values(ROLES).flatMap((r) => [r.handlers, r.remote, r.connection]),
    CAPABILITIES_MODULE.gates,
    ...(Object.keys(ROLES) as Role[]).map(CAPABILITIES_MODULE.helper),
    CHAIN_ROLES.proxy.handlers,
    CHAIN_ROLES.proxy.connection,
    ...Object.values(CHAIN_ROLES.conductor),
    RECEIVED_NAMESPACE,
    ...Object.values(SESSION_MODULE),
    ERRORS_MODULE.errorClass,
    ...[...CONNECTION_REEXPORTS, ...INDEX_REEXPORTS].flatMap((r) => r.names),
  ];
}

/**
 * The runtime's one JavaScript module for the web platform: the build bundles
 * templates/runtime into it (tools/build/runtime-bundle.mjs), because Node loads each ES
 * module file separately and eighteen small files cost a cold import more than their code.
 * Two groups of modules are bundled apart, each importing the web module for the rest: the
 * Node helpers (`node*.ts`, compiled with Node's types) into `node.js`, and the remote
 * transport (`remote*.ts`) into `remote.js`, so an application that uses neither loads
 * neither. Declarations stay one file per runtime module, so a consumer's compiler reads
 * only the ones a surface refers to.
 */
export const RUNTIME_MODULE = "index.js";
/** The Node helpers' module: its own file, which imports the web-platform one. */
export const RUNTIME_NODE_MODULE = "node.js";
/** The remote transport's module: its own file, which imports the web-platform one. */
export const RUNTIME_REMOTE_MODULE = "remote.js";
/** The routers' module (`PKG/router`): its own file, which imports the web-platform one. */
export const RUNTIME_ROUTER_MODULE = "router.js";

/** The bundled module holding runtime module `file` (`remote-client.js` → `remote.js`). */
export function runtimeBundle(file: string): string {
  if (file.startsWith("node")) return RUNTIME_NODE_MODULE;
  if (file.startsWith("remote")) return RUNTIME_REMOTE_MODULE;
  if (file.startsWith("router")) return RUNTIME_ROUTER_MODULE;
  return RUNTIME_MODULE;
}

/**
 * What generated code imports from for the runtime's module `file` (`parse.js`): in
 * declarations that module's own file, in JavaScript the bundled module that holds it.
 */
export function runtimeSpecifier(runtimePath: string, file: string, declarations: boolean): string {
  return `${runtimePath}/${declarations ? file : runtimeBundle(file)}`;
}

/** `export { a, b } from "<runtime>/<module>";` (or `export type`) for each re-export. */
export function reexportLines(
  reexports: readonly RuntimeReexport[],
  runtimePath: string,
  declarations: boolean,
): string[] {
  return reexports
    .filter((r) => declarations || !r.typeOnly)
    .map(
      (r) =>
        `export ${r.typeOnly ? "type " : ""}{ ${r.names.join(", ")} } from "${runtimeSpecifier(runtimePath, r.from, declarations)}";`,
    );
}

/** `import { a, b } from "<runtime>/<module>";` (or `import type`) in a declaration file. */
export function importLine(i: RuntimeImport, runtimePath: string): string {
  return `import ${i.typeOnly ? "type " : ""}{ ${i.names.join(", ")} } from "${runtimeSpecifier(runtimePath, i.from, true)}";`;
}
