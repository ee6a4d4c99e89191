import type { Method } from "../model/protocol.js";
import { importLine, runtimeSpecifier } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { handlerResult, resultType } from "./connection-calls.js";
import { literal } from "./js.js";

/**
 * What a surface with a proxy chain (model/chain.ts) adds to `connection.js` /
 * `connection.d.ts`: the proxy methods' table, `ProxySideConnection` (the runtime's
 * `ProxyConnection`, which routes what passes through) and `ConductorSideConnection` (a
 * plain side connection: the client's methods and the envelope in, the agent's and the
 * proxy methods out). Empty on every other surface.
 */
export interface ChainLines {
  imports: string[];
  body: string[];
}

/** The module constants `connection.js` holds the tables in. */
export interface ChainTableNames {
  agent: string;
  client: string;
  protocol: string;
}

/** `connection.js`'s part; `entry` writes one runtime method entry literal. */
export function chainJavascript(
  names: SurfaceSymbols,
  runtime: string,
  tables: ChainTableNames,
  entry: (m: Method) => string,
): ChainLines {
  const chain = names.chain;
  if (!chain) return { imports: [], body: [] };
  const { model, roles } = chain;
  const successor = literal(model.successor.method);
  const init = model.initialize;
  const spec = [
    `agent: ${tables.agent}`,
    `client: ${tables.client}`,
    "proxy: PROXY",
    `protocol: ${tables.protocol}`,
    `successor: ${successor}`,
    ...(init
      ? [
          `initialize: { method: ${literal(init.method.method)}, forwards: ${literal(init.forwards.method)} }`,
        ]
      : []),
  ];
  return {
    imports: [
      `import { ProxyConnection } from "${runtimeSpecifier(runtime, "proxy-connection.js", false)}";`,
    ],
    body: [
      "/** The proxy chain's methods, between a conductor and its proxies. */",
      "const PROXY = Object.freeze([",
      ...model.methods.map((m) => `  ${entry(m)},`),
      "]);",
      "",
      `/** A proxy's end of its link to the conductor: see \`${roles.proxy.handlers}\`. */`,
      `export class ${roles.proxy.connection} extends ProxyConnection {`,
      `  constructor(to${roles.proxy.handlers}, stream, options) {`,
      `    super({ ${spec.join(", ")} }, to${roles.proxy.handlers}, stream, options);`,
      "  }",
      `  get ${roles.proxy.groups.client}() {`,
      "    return this.predecessor;",
      "  }",
      `  get ${roles.proxy.successor}() {`,
      "    return this.next;",
      "  }",
      "}",
      "",
      `/** The conductor's end of its link to a proxy: serves \`${roles.conductor.handlers}\`, calls the proxy. */`,
      `export class ${roles.conductor.connection} extends SideConnection {`,
      `  constructor(to${roles.conductor.handlers}, stream, options) {`,
      `    const envelope = PROXY.filter((m) => m.method === ${successor});`,
      `    super({ serves: [...${tables.client}, ...envelope], calls: [...${tables.agent}, ...PROXY], protocol: ${tables.protocol} }, to${roles.conductor.handlers}, stream, { ...options, unknownVariants: "reject" });`,
      "  }",
      "  get agent() {",
      "    return this.remote;",
      "  }",
      "  get proxy() {",
      "    return this.remote;",
      "  }",
      "}",
      "",
    ],
  };
}

/** `connection.d.ts`'s part; `doc` writes a method's doc comment. */
export function chainDeclarations(
  names: SurfaceSymbols,
  runtime: string,
  doc: (m: Method, indent: string, notes?: string[]) => string[],
  strictHandlers: (role: "agent" | "client") => string,
): ChainLines {
  const chain = names.chain;
  if (!chain) return { imports: [], body: [] };
  const proxy = names.imports.connection.proxy;
  if (!proxy) throw new Error("internal error: a proxy chain without its runtime import");
  const { model, roles } = chain;
  const type = (key: string) => `T.${names.definition(key).type}`;
  const agent = names.roles.agent;
  const client = names.roles.client;
  const map = (kind: "request" | "notification") =>
    `${names.methodMap("agent", kind)} & ${names.methodMap("proxy", kind)}`;
  const handler = (m: Method, optional: boolean) => {
    // The return type written out, as connection.ts writes the other roles' handlers.
    const returns = m.kind === "request" ? handlerResult(names, m) : "void";
    const context = m.kind === "request" ? "RequestContext" : "NotificationContext";
    return `  ${m.handler}${optional ? "?" : ""}(params: ${type(m.params)}, context: ${context}): ${returns} | Promise<${returns}>;`;
  };
  const envelope = [
    model.successor,
    ...(model.successorNotification ? [model.successorNotification] : []),
  ];
  const init = model.initialize;
  const lines = [
    "/**",
    " * What a proxy serves. The conductor carries both of its neighbours over one connection:",
    ` * the predecessor's calls (the client's way) arrive as the agent's methods, and go to`,
    ` * \`${roles.proxy.groups.agent}\`; the successor's (the agent's way) arrive unwrapped from \`${model.successor.method}\` as the`,
    ` * client's methods, and go to \`${roles.proxy.groups.client}\`. A call with no handler here passes on to the other`,
    " * neighbour, and its answer comes back as that neighbour gave it, so a proxy handles only",
    " * what it changes; a handler reaches the neighbours through the connection's",
    ` * \`${roles.proxy.groups.client}\` and \`${roles.proxy.successor}\`. Params are read as with \`unknownVariants: "reject"\`:`,
    " * whatever a proxy receives it may send on, and a variant this package does not know",
    " * could not be sent.",
    " */",
    `export interface ${roles.proxy.handlers} {`,
  ];
  for (const m of model.proxyServes) {
    const notes =
      init && init.method === m
        ? [
            `Without a handler, the \`${init.forwards.method}\` request goes on to the successor with these params and its result is the answer.`,
          ]
        : [];
    lines.push(...doc(m, "  ", notes), handler(m, true));
  }
  lines.push(
    `  /** The agent's methods, as the predecessor calls them. */`,
    `  ${roles.proxy.groups.agent}?: Partial<${strictHandlers("agent")}>;`,
    `  /** The client's methods, as the successor calls them. */`,
    `  ${roles.proxy.groups.client}?: Partial<${strictHandlers("client")}>;`,
    "}",
    "",
    "/**",
    ` * A proxy's end of its link to the conductor. Serves the \`${roles.proxy.handlers}\` that \`to${roles.proxy.handlers}\` returns (it`,
    ` * receives this connection), calls the predecessor through \`${roles.proxy.groups.client}\` and the successor through`,
    ` * \`${roles.proxy.successor}\` (each call wrapped in \`${model.successor.method}\`). Reading starts as soon as it is constructed.`,
    " */",
    `export declare class ${roles.proxy.connection} extends ProxyConnection {`,
    `  constructor(to${roles.proxy.handlers}: (connection: ${roles.proxy.connection}) => ${roles.proxy.handlers}, stream: MessageStream, options?: ConnectionOptions);`,
    "  /** The predecessor, towards the client: the client's methods. */",
    `  get ${roles.proxy.groups.client}(): ${client.remote};`,
    "  /** The successor, towards the agent: the agent's methods. */",
    `  get ${roles.proxy.successor}(): ${agent.remote};`,
    "}",
    "",
    "/**",
    " * What a conductor serves on its link to a proxy: the client's methods the proxy sends",
    ` * towards the client, and \`${model.successor.method}\`, which the proxy sends to reach its successor.`,
    ' * Read as with `unknownVariants: "reject"`, like a proxy\'s: a conductor passes calls on.',
    " */",
    `export interface ${roles.conductor.handlers} extends ${strictHandlers("client")} {`,
  );
  for (const m of envelope) lines.push(...doc(m, "  "), handler(m, false));
  lines.push(
    "}",
    "",
    `/** The proxy methods as the conductor calls them. */`,
    `export interface ${roles.conductor.remote} {`,
  );
  for (const m of model.methods) {
    lines.push(
      ...doc(m, "  "),
      m.kind === "request"
        ? `  ${m.handler}(params: ${type(m.params)}, options?: CallOptions): Promise<${resultType(names, m)}>;`
        : `  ${m.handler}(params: ${type(m.params)}): Promise<void>;`,
    );
  }
  lines.push(
    "}",
    "",
    "/**",
    ` * The conductor's end of its link to a proxy. Serves the \`${roles.conductor.handlers}\` that \`to${roles.conductor.handlers}\` returns`,
    " * (it receives this connection), calls the proxy's agent methods through `agent` and the",
    " * proxy methods through `proxy`, or by wire name with `request`/`notify`.",
    " */",
    `export declare class ${roles.conductor.connection} extends SideConnection<${map("request")}, ${map("notification")}> {`,
    `  constructor(to${roles.conductor.handlers}: (connection: ${roles.conductor.connection}) => ${roles.conductor.handlers}, stream: MessageStream, options?: ConnectionOptions);`,
    "  /** The agent's methods, served by the chain from this proxy on. */",
    `  get agent(): ${agent.remote};`,
    "  /** The proxy methods. */",
    `  get proxy(): ${roles.conductor.remote};`,
    "}",
    "",
  );
  return {
    imports: [
      importLine(proxy, runtime),
      `import type { ${names.methodMap("proxy", "request")}, ${names.methodMap("proxy", "notification")} } from "./methods.js";`,
    ],
    body: lines,
  };
}
