import { REQUIRED_HANDLERS } from "../model/conventions.js";
import { methodsOf } from "../model/methods.js";
import type { Method, RoleCalls, SurfaceModel } from "../model/protocol.js";
import type { HandlerSide } from "../model/sides.js";
import { type Role, reexportLines } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { callNotes, callResult, entryFields, handleDeclarations } from "./connection-calls.js";
import type { EmitContext } from "./context.js";
import { commentLine, literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

const other = (role: Role): Role => (role === "agent" ? "client" : "agent");

/** A role's method table in connection.js: a module constant, never exported. */
const tableOf = (role: Role | "protocol"): string => role.toUpperCase();

/**
 * `connection.js` / `connection.d.ts`: the `Agent` and `Client` handler interfaces, typed
 * proxies for calling the peer, and `AgentSideConnection` / `ClientSideConnection`. The
 * JavaScript is data (method tables with their compiled validators) and two tiny
 * subclasses; routing, validation and cancellation live in the runtime's `SideConnection`.
 */
export function emitConnection({ surface, names, runtime }: EmitContext): OutputFile[] {
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
      content: declarations(surface, names, head, runtime, served),
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
  const all = [...served.agent, ...served.client, ...protocol];
  const used = [...new Set(all.flatMap((m) => (m.result ? [m.params, m.result] : [m.params])))].map(
    (key) => names.definition(key),
  );
  const lines = [
    head,
    `import { SideConnection } from "${runtime}/side-connection.js";`,
    ...(used.length > 0
      ? [
          `import { ${used.map((d) => d.validator).join(", ")} } from "./validators.js";`,
          `import { ${used.map((d) => d.parse).join(", ")} } from "./parsers.js";`,
        ]
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
  for (const role of ["agent", "client"] as const) {
    const mine = names.roles[role];
    const peer = other(role);
    lines.push(
      `/** The ${role}'s end of a connection: serves the \`${mine.handlers}\` handlers, calls the ${peer} through \`${peer}\`. */`,
      `export class ${mine.connection} extends SideConnection {`,
      `  constructor(to${mine.handlers}, stream, options) {`,
      `    super({ serves: ${tableOf(role)}, calls: ${tableOf(peer)}, protocol: ${tableOf("protocol")} }, to${mine.handlers}, stream, options);`,
      "  }",
      `  get ${peer}() {`,
      "    return this.remote;",
      "  }",
      "}",
      "",
    );
  }
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
  if (m.result) {
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
): string {
  const type = (key: string) => names.definition(key).type;
  const maps = (side: HandlerSide) => [
    names.methodMap(side, "request"),
    names.methodMap(side, "notification"),
  ];
  const lines = [
    head,
    'import type * as T from "./types.js";',
    `import type { ${[...maps("agent"), ...maps("client")].join(", ")} } from "./methods.js";`,
    `import type { CallOptions, ConnectionOptions, ExtensionHandlers, NotificationContext, RequestContext } from "${runtime}/connection-types.js";`,
    `import type { MessageStream } from "${runtime}/message-stream.js";`,
    `import { SideConnection } from "${runtime}/side-connection.js";`,
    `import type { AsyncDisposableIfAvailable } from "${runtime}/handle.js";`,
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
      " * answers -32601. Params arrive already checked against the schema.",
      " */",
      `export interface ${iface} extends ExtensionHandlers {`,
    );
    for (const m of served[role]) {
      const optional = REQUIRED_HANDLERS[role].includes(m.method) ? "" : "?";
      const params = `params: T.${type(m.params)}`;
      // `MaybePromise<R>` written out: the alias would be instantiated for every handler of
      // every entry point a consumer's compiler checks, for the same union.
      const returns = m.result ? `T.${type(m.result)}` : "void";
      lines.push(...doc(surface, m, "  "));
      lines.push(
        `  ${m.handler}${optional}(${params}, context: ${m.result ? "RequestContext" : "NotificationContext"}): ${returns} | Promise<${returns}>;`,
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
        m.result
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
      `  constructor(to${mine.handlers}: (connection: ${mine.connection}) => ${mine.handlers}, stream: MessageStream, options?: ConnectionOptions);`,
      `  /** The ${peer}'s methods. */`,
      `  get ${peer}(): ${names.roles[peer].remote};`,
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
  const text = commentLine(first ?? "");
  return text ? ` ${text}` : "";
}
