import { methodsOf } from "../model/methods.js";
import type { Method, RoleCalls, SurfaceModel } from "../model/protocol.js";
import type { HandlerSide } from "../model/sides.js";
import { importLine, type Role, reexportLines, runtimeSpecifier } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { NEGOTIATION_TABLE, negotiationLines } from "./capabilities.js";
import {
  callNotes,
  callResult,
  entryFields,
  handleDeclarations,
  handlerResult,
} from "./connection-calls.js";
import { chainDeclarations, chainJavascript } from "./connection-chain.js";
import type { EmitContext } from "./context.js";
import { commentLine, literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";
import { clientBase, clientSessionMembers, sessionLines } from "./session.js";

const other = (role: Role): Role => (role === "agent" ? "client" : "agent");

/** A role's method table in connection.js: a module constant, never exported. */
const tableOf = (role: Role | "protocol"): string => role.toUpperCase();

/**
 * `connection.js` / `connection.d.ts`: the `Agent` and `Client` handler interfaces, typed
 * proxies for calling the peer, and `AgentSideConnection` / `ClientSideConnection`. The
 * JavaScript is data (method tables with their compiled validators) and two tiny
 * subclasses; routing, validation and cancellation live in the runtime's `SideConnection`.
 */
export function emitConnection({ surface, names, runtime, facts }: EmitContext): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const served = { agent: methodsOf(surface, "agent"), client: methodsOf(surface, "client") };
  const protocol = methodsOf(surface, "protocol");
  return [
    {
      path: `${surface.id}/connection.js`,
      content: javascript(surface, names, head, runtime, served, protocol),
    },
    {
      path: `${surface.id}/connection.d.ts`,
      content: declarations(surface, names, head, runtime, served, facts.reachesClosed),
    },
  ];
}

function javascript(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  head: string,
  runtime: string,
  served: Record<Role, Method[]>,
  protocol: Method[],
): string {
  const chain = chainJavascript(
    names,
    runtime,
    { agent: tableOf("agent"), client: tableOf("client"), protocol: tableOf("protocol") },
    (m) => entry(names, m),
  );
  const all = [
    ...served.agent,
    ...served.client,
    ...protocol,
    ...(names.chain?.model.methods ?? []),
  ];
  const used = [...new Set(all.flatMap((m) => (m.result ? [m.params, m.result] : [m.params])))].map(
    (key) => names.definition(key),
  );
  const nullResults = all.some((m) => m.result === null);
  const lines = [
    head,
    `import { SideConnection } from "${runtimeSpecifier(runtime, "side-connection.js", false)}";`,
    ...(surface.session
      ? [`import { SessionConnection } from "${runtimeSpecifier(runtime, "session.js", false)}";`]
      : []),
    ...chain.imports,
    ...(nullResults
      ? [
          `import { parseNullResult, validateNullResult } from "${runtimeSpecifier(runtime, "null-result.js", false)}";`,
        ]
      : []),
    ...(used.length > 0
      ? [
          `import { ${used.map((d) => d.validator).join(", ")} } from "./validators.js";`,
          `import { ${used.map((d) => d.parse).join(", ")} } from "./parsers.js";`,
        ]
      : []),
    ...(surface.negotiation
      ? [`import { ${names.capabilities.gates} } from "./capabilities.js";`]
      : []),
    "",
    ...reexportLines(names.reexports.connection, runtime, false),
    "",
  ];
  const table = (name: string, doc: string, methods: Method[], calls?: RoleCalls) => {
    lines.push(
      `/** ${doc} */`,
      `const ${name} = Object.freeze([`,
      ...methods.map((m) => `  ${entry(names, m, calls)},`),
      "]);",
      "",
    );
  };
  table(tableOf("agent"), "Methods the agent serves.", served.agent, surface.calls.agent);
  table(tableOf("client"), "Methods the client serves.", served.client, surface.calls.client);
  table(
    tableOf("protocol"),
    "Protocol-level methods both sides understand; the runtime implements them.",
    protocol,
  );
  lines.push(...negotiationLines(surface), ...sessionLines(surface));
  for (const role of ["agent", "client"] as const) {
    const mine = names.roles[role];
    const peer = other(role);
    const negotiation = surface.negotiation
      ? `, negotiation: { role: ${literal(role)}, spec: ${NEGOTIATION_TABLE}, gates: ${names.capabilities.gates} }`
      : "";
    const batches = surface.batches ? ", batches: true" : "";
    // The client's end keeps sessions where the schema has them.
    const { base, extra } =
      role === "client" ? clientBase(surface) : { base: "SideConnection", extra: "" };
    lines.push(
      `/** The ${role}'s end of a connection: serves the \`${mine.handlers}\` handlers, calls the ${peer} through \`${peer}\`. */`,
      `export class ${mine.connection} extends ${base} {`,
      `  constructor(to${mine.handlers}, stream, options) {`,
      `    super({ serves: ${tableOf(role)}, calls: ${tableOf(peer)}, protocol: ${tableOf("protocol")}${negotiation}${batches} }, ${extra}to${mine.handlers}, stream, options);`,
      "  }",
      `  get ${peer}() {`,
      "    return this.remote;",
      "  }",
      ...(surface.batches
        ? [`  ${BATCH_MEMBER}(calls) {`, "    return this.sendBatch(calls);", "  }"]
        : []),
      "}",
      "",
    );
  }
  lines.push(...chain.body);
  return lines.join("\n");
}

/** One runtime `MethodEntry` literal. */
function entry(names: SurfaceSymbols, m: Method, calls?: RoleCalls): string {
  const params = names.definition(m.params);
  const fields = [
    `method: ${literal(m.method)}`,
    `kind: ${literal(m.kind)}`,
    `handler: ${literal(m.handler)}`,
    `params: ${literal(params.type)}`,
    `validateParams: ${params.validator}`,
    // Received values are read leniently, as the reference implementation reads them.
    `parseParams: ${params.parse}`,
  ];
  if (m.result === null) {
    // No definition (the NULL RESULT rule): the runtime's checks for a JSON null result.
    fields.push(
      `result: ${literal("null")}`,
      "validateResult: validateNullResult",
      "parseResult: parseNullResult",
    );
  } else if (m.result !== undefined) {
    const result = names.definition(m.result);
    fields.push(
      `result: ${literal(result.type)}`,
      `validateResult: ${result.validator}`,
      `parseResult: ${result.parse}`,
    );
  }
  if (calls) fields.push(...entryFields(calls, m));
  return `{ ${fields.join(", ")} }`;
}

function declarations(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  head: string,
  runtime: string,
  served: Record<Role, Method[]>,
  reach: ReadonlySet<string>,
): string {
  const type = (key: string) => names.definition(key).type;
  // Handlers receive params read openly (ConnectionOptions.unknownVariants, "keep" by
  // default): where a closed tagged union can be below, their type is the received one.
  // With `unknownVariants: "reject"` they hold known variants only: `Agent<true>`.
  const received = (key: string) =>
    reach.has(key) ? `Strict extends true ? T.${type(key)} : R.${type(key)}` : `T.${type(key)}`;
  const strictable = (role: Role) => served[role].some((m) => reach.has(m.params));
  const maps = (side: HandlerSide) => [
    names.methodMap(side, "request"),
    names.methodMap(side, "notification"),
  ];
  const imports = names.imports.connection;
  const chain = chainDeclarations(
    names,
    runtime,
    (m, indent, notes) => doc(surface, m, indent, notes),
    // The chain's roles read strictly (what they receive they may pass on).
    (role) => `${names.roles[role].handlers}${strictable(role) ? "<true>" : ""}`,
  );
  const lines = [
    head,
    'import type * as T from "./types.js";',
    ...(Object.values(served).some((ms) => ms.some((m) => reach.has(m.params)))
      ? ['import type * as R from "./received.js";']
      : []),
    `import type { ${[...maps("agent"), ...maps("client")].join(", ")} } from "./methods.js";`,
    importLine(imports.options, runtime),
    importLine(imports.stream, runtime),
    ...(imports.negotiated ? [importLine(imports.negotiated, runtime)] : []),
    ...(names.session ? [`import type { ${names.session.session} } from "./session.js";`] : []),
    importLine(imports.base, runtime),
    importLine(imports.disposable, runtime),
    ...chain.imports,
    "",
    ...reexportLines(names.reexports.connection, runtime, true),
    "",
  ];
  for (const role of ["agent", "client"] as const) {
    const iface = names.roles[role].handlers;
    lines.push(
      "/**",
      ` * What the ${role} side serves: one handler per method the ${role} handles, named after its`,
      " * meta.json key. Handlers of methods a peer may only call after negotiating them (a",
      " * capability, an advertised auth method, an unstable draft) are optional; a missing one",
      " * answers -32601. Params arrive read as the reference implementation reads them; a",
      " * variant of a closed union this package does not know arrives whole (its type is",
      ' * `Received.<Name>`) unless the connection\'s `unknownVariants` is `"reject"`.',
      ...(strictable(role)
        ? [
            " * @typeParam Strict - `true` for the handlers of a connection whose `unknownVariants` is",
            ' *   `"reject"`: params then hold known variants only, with the plain types.',
          ]
        : []),
      " */",
      `export interface ${iface}${strictable(role) ? "<Strict extends boolean = false>" : ""} extends ExtensionHandlers {`,
    );
    for (const m of served[role]) {
      const optional = m.requiredBy.includes(role) ? "" : "?";
      const params = `params: ${received(m.params)}`;
      // `MaybePromise<R>` written out: the alias would be instantiated for every handler of
      // every entry point a consumer's compiler checks, for the same union.
      const returns = m.kind === "request" ? handlerResult(names, m) : "void";
      lines.push(...doc(surface, m, "  "));
      lines.push(
        `  ${m.handler}${optional}(${params}, context: ${m.kind === "request" ? "RequestContext" : "NotificationContext"}): ${returns} | Promise<${returns}>;`,
      );
    }
    lines.push("}", "");
  }
  for (const role of ["agent", "client"] as const)
    lines.push(...handleDeclarations(names, surface.calls[role]));
  for (const role of ["agent", "client"] as const) {
    const { remote } = names.roles[role];
    lines.push(
      `/** The ${role} as its peer sees it: one function per ${role} method, sending it over the connection. */`,
      `export interface ${remote} {`,
    );
    for (const m of served[role]) {
      const params = `params: T.${type(m.params)}`;
      lines.push(...doc(surface, m, "  ", callNotes(names, surface.calls[role], m)));
      lines.push(
        m.kind === "request"
          ? `  ${m.handler}(${params}, options?: CallOptions): Promise<${callResult(names, surface.calls[role], m)}>;`
          : `  ${m.handler}(${params}): Promise<void>;`,
      );
    }
    lines.push("}", "");
  }
  for (const role of ["agent", "client"] as const) {
    const mine = names.roles[role];
    const peer = other(role);
    const [requests, notifications] = maps(peer);
    lines.push(
      "/**",
      ` * The ${role}'s end of a connection. Serves the \`${mine.handlers}\` that \`to${mine.handlers}\` returns (it receives`,
      ` * this connection, to call the ${peer} back) and calls the ${peer} through \`${peer}\`, or by wire`,
      " * name with `request`/`notify`. Reading starts as soon as it is constructed.",
      " */",
      `export declare class ${mine.connection} extends SideConnection<${requests}, ${notifications}> {`,
      ...(strictable(role)
        ? [
            `  /** With \`unknownVariants: "reject"\` the handlers receive known variants only: \`${mine.handlers}<true>\`. */`,
            `  constructor(to${mine.handlers}: (connection: ${mine.connection}) => ${mine.handlers}<true>, stream: MessageStream, options: ConnectionOptions & { readonly unknownVariants: "reject" });`,
          ]
        : []),
      `  constructor(to${mine.handlers}: (connection: ${mine.connection}) => ${mine.handlers}, stream: MessageStream, options?: ConnectionOptions);`,
      `  /** The ${peer}'s methods. */`,
      `  get ${peer}(): ${names.roles[peer].remote};`,
      ...negotiatedGetter(surface, names),
      ...batchDeclaration(surface, peer),
      ...(role === "client" ? clientSessionMembers(surface, names) : []),
      "}",
      "",
    );
  }
  lines.push(...chain.body);
  return lines.join("\n");
}

/** The member of a connection that sends a JSON-RPC batch, where the surface has them. */
const BATCH_MEMBER = "batch";

/** The declaration of `batch`, on a surface whose connections send JSON-RPC batches. */
function batchDeclaration(surface: SurfaceModel, peer: Role): string[] {
  if (!surface.batches) return [];
  return [
    "  /**",
    "   * Sends the requests and notifications `calls` makes while it runs (its synchronous",
    "   * part) as one JSON-RPC batch, and returns what it returned; each call still settles",
    `   * with its own answer: \`const [a, b] = conn.${BATCH_MEMBER}(() => [conn.${peer}.x(…), conn.${peer}.y(…)])\`.`,
    "   * ACP asks senders not to batch what changes which later messages are valid",
    "   * (`initialize`, `auth/login`, `session/new`, `session/resume`, `session/prompt`).",
    "   * Received batches are always taken apart and answered, whether or not this is used.",
    "   */",
    `  ${BATCH_MEMBER}<T>(calls: () => T): T;`,
  ];
}

/** The typed `negotiated` of a connection class, where the surface has a handshake. */
function negotiatedGetter(surface: SurfaceModel, names: SurfaceSymbols): string[] {
  const negotiation = surface.negotiation;
  if (!negotiation) return [];
  const type = (role: Role) =>
    `T.${names.definition(negotiation.capabilities[role].definition).type}`;
  return [
    "  /**",
    `   * What \`${negotiation.method.method}\` negotiated (the protocol version, and each side's capabilities as`,
    "   * it declared them); undefined until it completed. Calls the peer did not declare fail",
    "   * before anything is sent (the `capabilities` option says how).",
    "   */",
    `  get negotiated(): Negotiated<${type("agent")}, ${type("client")}> | undefined;`,
  ];
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
  const text = commentLine(first ?? "");
  return text ? ` ${text}` : "";
}
