import { InputError, pointer } from "../errors.js";
import type { Method, SurfaceModel } from "../model/protocol.js";
import { parserName } from "../model/unions.js";
import { CONNECTION_EXPORTS, validatorExportName } from "../naming.js";
import type { HandlerSide } from "../patch/vocabulary.js";
import {
  type CallRules,
  callRules,
  entryFields,
  handleDeclarations,
  handleTypeNames,
  proxyNotes,
  proxyResult,
} from "./connection-extras.js";
import { mapName, methodsOf } from "./methods.js";
import { banner, literal, type OutputFile } from "./output.js";
import { runtimePathFrom } from "./package.js";

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

export { CONNECTION_EXPORTS };

/** The two roles a connection can play, and the interfaces and tables that belong to each. */
const ROLES = {
  agent: {
    iface: "Agent",
    remote: "RemoteAgent",
    table: "AGENT",
    connection: "AgentSideConnection",
    property: "agent",
  },
  client: {
    iface: "Client",
    remote: "RemoteClient",
    table: "CLIENT",
    connection: "ClientSideConnection",
    property: "client",
  },
} as const;
type Role = keyof typeof ROLES;
const other = (role: Role): Role => (role === "agent" ? "client" : "agent");

/**
 * `connection.js` / `connection.d.ts`: the `Agent` and `Client` handler interfaces, typed
 * proxies for calling the peer, and `AgentSideConnection` / `ClientSideConnection`. The
 * JavaScript is data (method tables with their compiled validators) and two tiny
 * subclasses; routing, validation and cancellation live in the runtime's `SideConnection`.
 */
export function emitConnection(surface: SurfaceModel): OutputFile[] {
  const runtime = runtimePathFrom(surface);
  const head = banner(surface.schemaFile.name);
  const served = { agent: methodsOf(surface, "agent"), client: methodsOf(surface, "client") };
  const protocol = methodsOf(surface, "protocol");
  const rules = {
    agent: callRules(surface, served.agent),
    client: callRules(surface, served.client),
  };
  checkNames(surface, handleTypeNames([rules.agent, rules.client]));
  return [
    {
      path: `${surface.id}/connection.js`,
      content: javascript(surface, head, runtime, served, protocol, rules),
    },
    {
      path: `${surface.id}/connection.d.ts`,
      content: declarations(surface, head, runtime, served, rules),
    },
  ];
}

function javascript(
  surface: SurfaceModel,
  head: string,
  runtime: string,
  served: Record<Role, Method[]>,
  protocol: Method[],
  rules: Record<Role, CallRules>,
): string {
  const all = [...served.agent, ...served.client, ...protocol];
  const types = [
    ...new Set(all.flatMap((m) => (m.result ? [m.params, m.result] : [m.params]))),
  ].map((key) => typeOf(surface, key));
  const validators = types.map(validatorExportName);
  const parsers = types.map(parserName);
  const lines = [
    head,
    `import { SideConnection } from "${runtime}/side-connection.js";`,
    ...(validators.length > 0
      ? [
          `import { ${validators.join(", ")} } from "./validators.js";`,
          `import { ${parsers.join(", ")} } from "./parsers.js";`,
        ]
      : []),
    "",
    `export { ndJsonStream } from "${runtime}/ndjson-stream.js";`,
    `export { ConnectionClosedError } from "${runtime}/request-error.js";`,
    // The entry point's RequestError: the runtime's, with a helper per schema error code.
    'export { RequestError } from "./errors.js";',
    `export { MessageEncodingError, MessageTooLargeError } from "${runtime}/message-stream.js";`,
    "",
  ];
  const table = (name: string, doc: string, methods: Method[], extras?: CallRules) => {
    lines.push(
      `/** ${doc} */`,
      `const ${name} = Object.freeze([`,
      ...methods.map((m) => `  ${entry(surface, m, extras)},`),
      "]);",
      "",
    );
  };
  table(ROLES.agent.table, "Methods the agent serves.", served.agent, rules.agent);
  table(ROLES.client.table, "Methods the client serves.", served.client, rules.client);
  table(
    "PROTOCOL",
    "Protocol-level methods both sides understand; the runtime implements them.",
    protocol,
  );
  for (const role of ["agent", "client"] as const) {
    const mine = ROLES[role];
    const peer = ROLES[other(role)];
    lines.push(
      `/** The ${role}'s end of a connection: serves the \`${mine.iface}\` handlers, calls the ${peer.property} through \`${peer.property}\`. */`,
      `export class ${mine.connection} extends SideConnection {`,
      `  constructor(to${mine.iface}, stream, options) {`,
      `    super({ serves: ${mine.table}, calls: ${peer.table}, protocol: PROTOCOL }, to${mine.iface}, stream, options);`,
      "  }",
      `  get ${peer.property}() {`,
      "    return this.remote;",
      "  }",
      "}",
      "",
    );
  }
  return lines.join("\n");
}

/** One runtime `MethodEntry` literal. */
function entry(surface: SurfaceModel, m: Method, rules?: CallRules): string {
  const params = typeOf(surface, m.params);
  const fields = [
    `method: ${literal(m.method)}`,
    `kind: ${literal(m.kind)}`,
    `handler: ${literal(m.handler)}`,
    `params: ${literal(params)}`,
    `validateParams: ${validatorExportName(params)}`,
    // Received values are read leniently, as the reference implementation reads them.
    `parseParams: ${parserName(params)}`,
  ];
  if (m.result) {
    const result = typeOf(surface, m.result);
    fields.push(
      `result: ${literal(result)}`,
      `validateResult: ${validatorExportName(result)}`,
      `parseResult: ${parserName(result)}`,
    );
  }
  if (rules) fields.push(...entryFields(rules, m));
  return `{ ${fields.join(", ")} }`;
}

function declarations(
  surface: SurfaceModel,
  head: string,
  runtime: string,
  served: Record<Role, Method[]>,
  rules: Record<Role, CallRules>,
): string {
  const maps = (side: HandlerSide) => [mapName(side, "request"), mapName(side, "notification")];
  const lines = [
    head,
    'import type * as T from "./types.js";',
    `import type { ${[...maps("agent"), ...maps("client")].join(", ")} } from "./methods.js";`,
    `import type { CallOptions, ConnectionOptions, ExtensionHandlers, MaybePromise, NotificationContext, RequestContext } from "${runtime}/connection-types.js";`,
    `import type { MessageStream } from "${runtime}/message-stream.js";`,
    `import { SideConnection } from "${runtime}/side-connection.js";`,
    `import type { AsyncDisposableIfAvailable } from "${runtime}/handle.js";`,
    "",
    `export { ndJsonStream } from "${runtime}/ndjson-stream.js";`,
    `export type { NdJsonStreamOptions } from "${runtime}/ndjson-stream.js";`,
    `export { ConnectionClosedError } from "${runtime}/request-error.js";`,
    // The entry point's RequestError: the runtime's, with a helper per schema error code.
    'export { RequestError } from "./errors.js";',
    `export type { CloseKind } from "${runtime}/request-error.js";`,
    `export { MessageEncodingError, MessageTooLargeError } from "${runtime}/message-stream.js";`,
    `export type { MalformedDetail, MessageStream } from "${runtime}/message-stream.js";`,
    `export type { MessageHead } from "${runtime}/peek.js";`,
    `export type { AsyncDisposableIfAvailable } from "${runtime}/handle.js";`,
    `export type { CallOptions, ConnectionOptions, LogEvent, LogReason, MaybePromise, NotificationContext, RequestContext, TraceEvent, ValidationOptions } from "${runtime}/connection-types.js";`,
    // Types the public signatures above mention: exported so users can name them too.
    `export type { ErrorMessage, ErrorObject, JsonRpcId, JsonRpcMessage, NotificationMessage, RequestMessage, ResultMessage } from "${runtime}/json-rpc.js";`,
    `export type { MalformedFrame, MalformedProblem } from "${runtime}/message-stream.js";`,
    `export type { ParamsOf, RemoteMethods, ResultOf } from "${runtime}/side-connection.js";`,
    `export type { ReadableLike, SignalLike, StreamReader, StreamReadResult, StreamWriter, WritableLike } from "${runtime}/web-types.js";`,
    "",
  ];
  for (const role of ["agent", "client"] as const) {
    const { iface } = ROLES[role];
    lines.push(
      "/**",
      ` * What the ${role} side serves: one handler per method the ${role} handles, named after its`,
      " * meta.json key. Handlers of methods a peer may only call after negotiating them (a",
      " * capability, an advertised auth method, an unstable draft) are optional; a missing one",
      " * answers -32601. Params arrive already checked against the schema.",
      " */",
      `export interface ${iface} extends ExtensionHandlers {`,
    );
    for (const m of served[role]) {
      const optional = REQUIRED_HANDLERS[role].includes(m.method) ? "" : "?";
      const params = `params: T.${typeOf(surface, m.params)}`;
      lines.push(...doc(surface, m, "  "));
      lines.push(
        m.result
          ? `  ${m.handler}${optional}(${params}, context: RequestContext): MaybePromise<T.${typeOf(surface, m.result)}>;`
          : `  ${m.handler}${optional}(${params}, context: NotificationContext): MaybePromise<void>;`,
      );
    }
    lines.push("}", "");
  }
  for (const role of ["agent", "client"] as const) {
    lines.push(...handleDeclarations(rules[role], (key) => typeOf(surface, key)));
  }
  for (const role of ["agent", "client"] as const) {
    const { remote } = ROLES[role];
    lines.push(
      `/** The ${role} as its peer sees it: one function per ${role} method, sending it over the connection. */`,
      `export interface ${remote} {`,
    );
    for (const m of served[role]) {
      const params = `params: T.${typeOf(surface, m.params)}`;
      lines.push(...doc(surface, m, "  ", proxyNotes(rules[role], m)));
      lines.push(
        m.result
          ? `  ${m.handler}(${params}, options?: CallOptions): Promise<${proxyResult(rules[role], m, typeOf(surface, m.result))}>;`
          : `  ${m.handler}(${params}): Promise<void>;`,
      );
    }
    lines.push("}", "");
  }
  for (const role of ["agent", "client"] as const) {
    const mine = ROLES[role];
    const peer = ROLES[other(role)];
    const [requests, notifications] = maps(other(role));
    lines.push(
      "/**",
      ` * The ${role}'s end of a connection. Serves the \`${mine.iface}\` that \`to${mine.iface}\` returns (it receives`,
      ` * this connection, to call the ${peer.property} back) and calls the ${peer.property} through \`${peer.property}\`, or by wire`,
      " * name with `request`/`notify`. Reading starts as soon as it is constructed.",
      " */",
      `export declare class ${mine.connection} extends SideConnection<${requests}, ${notifications}> {`,
      `  constructor(to${mine.iface}: (connection: ${mine.connection}) => ${mine.iface}, stream: MessageStream, options?: ConnectionOptions);`,
      `  /** The ${peer.property}'s methods. */`,
      `  get ${peer.property}(): ${peer.remote};`,
      "}",
      "",
    );
  }
  return lines.join("\n");
}

/** The doc comment of one method: wire name, kind, the first paragraph of its description. */
function doc(surface: SurfaceModel, m: Method, indent: string, notes: string[] = []): string[] {
  const summary = `\`${m.method}\` (${m.kind}).${summaryOf(surface, m.params)}`;
  if (!m.experimental && notes.length === 0) return [`${indent}/** ${summary} */`];
  return [
    `${indent}/**`,
    `${indent} * ${summary}`,
    ...notes.map((note) => `${indent} * ${note}`),
    ...(m.experimental ? [`${indent} * @experimental Only in the unstable schema.`] : []),
    `${indent} */`,
  ];
}

/** First paragraph of a definition's description, on one line; the UNSTABLE banner is left to `@experimental`. */
function summaryOf(surface: SurfaceModel, key: string): string {
  const schema = surface.definitions.find((d) => d.key === key)?.schema;
  const description =
    typeof schema === "object" && schema !== null && !Array.isArray(schema)
      ? schema.description
      : undefined;
  if (typeof description !== "string") return "";
  const paragraphs = description.split(/\n\s*\n/);
  // Unstable definitions open with "**UNSTABLE**" and a paragraph explaining it.
  const first = paragraphs[0]?.trim() === "**UNSTABLE**" ? paragraphs[2] : paragraphs[0];
  const text = (first ?? "")
    .replace(/\*\//g, "*\\/")
    .replace(/\s*\n\s*/g, " ")
    .trim();
  return text ? ` ${text}` : "";
}

/** Every exported name must stay free: a definition of that name would be shadowed silently. */
function checkNames(surface: SurfaceModel, derived: readonly string[]): void {
  const exported = new Set<string>([...CONNECTION_EXPORTS, ...derived]);
  for (const def of surface.definitions) {
    if (exported.has(def.name)) {
      throw new InputError(
        surface.schemaFile.display,
        pointer(surface.defsKeyword, def.key),
        `definition name ${JSON.stringify(def.name)} collides with a name the generated package exports`,
      );
    }
  }
}

function typeOf(surface: SurfaceModel, key: string): string {
  return surface.definitions.find((d) => d.key === key)?.name ?? key;
}
