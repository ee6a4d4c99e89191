import { posix } from "node:path";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { importLine, ROUTER_MODULE, reexportLines } from "../symbols/exports.js";
import type { Symbols } from "../symbols/table.js";
import { runtimeFrom } from "./context.js";
import { jsLiteral, literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `PKG/router`: the runtime's routers, bound to what the model says of the package's
 * versions (model/versions.ts): the handshake they read and the versions they route, so a
 * route for a version the package does not have is an error (and a type error); and the
 * definitions every version shares. Only where the handshake can be read: every surface
 * negotiates with the same request and version property.
 */
export function emitRouterEntry(model: ProtocolModel, symbols: Symbols): OutputFile[] {
  const { handshake, versions, same } = model.versions;
  if (!handshake) return [];
  const entry = symbols.router;
  const runtime = runtimeFrom(entry.folder);
  const head = banner("the schemas' handshake and the runtime's router modules");
  const spec = { method: handshake.method, version: handshake.version, versions };
  const names = ROUTER_MODULE;
  const sameEntries = (["stable", "unstable"] as const).flatMap((stability) => {
    const keys = same[stability];
    return keys ? [{ stability, keys, surfaces: surfacesOf(model.surfaces, stability) }] : [];
  });
  const javascript = [
    head,
    `import { ${names.agentClass}, ${names.clientClass} } from "${runtime}/router.js";`,
    "",
    "/** The handshake every version of this package reads alike, and the versions it has. */",
    `const HANDSHAKE = Object.freeze({ method: ${literal(spec.method)}, version: ${literal(spec.version)}, versions: Object.freeze(${jsLiteral(versions)}) });`,
    "",
    `export function ${names.agentRouter}(routes, options) {`,
    `  return new ${names.agentClass}(HANDSHAKE, routes, options);`,
    "}",
    "",
    `export function ${names.clientRouter}(offers, options) {`,
    `  return new ${names.clientClass}(HANDSHAKE, offers, options);`,
    "}",
    "",
    `export const ${names.sameDefinitions} = Object.freeze({`,
    ...sameEntries.map(
      ({ stability, keys }) => `  ${stability}: Object.freeze(${jsLiteral(keys)}),`,
    ),
    "});",
    "",
  ].join("\n");
  const union = versions.join(" | ");
  // Each version's handshake params, from every surface of it (a connection of its stable
  // or its unstable entry point): typed here, so a client's offer is checked as it is written.
  const params = versions.map((version) => {
    const ofVersion = model.surfaces.filter((s) => s.protocolVersion === version);
    const imports = ofVersion.map((surface) => {
      const type = symbols.of(surface).definition(surface.negotiation?.method.params ?? "").type;
      const local = `${localName(surface)}${type}`;
      const from = posix.relative(entry.folder, `${surface.id}/types.js`);
      return { local, line: `import type { ${type} as ${local} } from "${from}";` };
    });
    const omitted = imports.map((i) => `Omit<${i.local}, ${literal(spec.version)}>`).join(" | ");
    return { version, imports, omitted };
  });
  const typeParameter = (version: number) => `V${version}`;
  const declarations = [
    head,
    ...entry.imports.map((i) => importLine(i, runtime)),
    ...params.flatMap((p) => p.imports.map((i) => i.line)),
    "",
    ...reexportLines(entry.reexports, runtime, true),
    "",
    `/** The protocol versions this package has an entry point for. */`,
    `export type ${names.versions} = ${union};`,
    "",
    "/**",
    " * One agent for every client version: `connect(stream)` reads the client's first",
    ` * \`${spec.method}\` and hands the stream, that request first, to the factory of the version`,
    ` * chosen: the highest one routed at or below the \`${spec.version}\` asked for, else the`,
    " * latest routed (its connection answers with its own version, and the client decides).",
    " * Before that request, notifications and responses are ignored, other requests answered",
    ` * -32600, a batch a single -32600 with \`id: null\`, and an \`${spec.method}\` without a valid`,
    ` * \`${spec.version}\` -32602; none of these ends the stream. Once chosen, the version stays.`,
    " *",
    " * ```ts",
    ` * ${names.agentRouter}({ 1: (stream) => new v1.AgentSideConnection(…, stream), 2: (stream) => new v2.AgentSideConnection(…, stream) }).connect(stdio());`,
    " * ```",
    " * @param routes - A factory per protocol version served, making that version's connection",
    " *   for the stream (and the arguments `connect` got after it: `AcpServer` passes the",
    " *   client connection's info).",
    " */",
    `export declare function ${names.agentRouter}<const R extends { readonly [K in ${names.versions}]?: AgentFactory }>(routes: R, options?: RouterOptions): ${names.agentClass}<R>;`,
    "",
    "/**",
    " * One client for every agent version: `connect(stream)` asks the agent for the newest",
    ` * version offered, in one \`${spec.method}\` carrying every offered version's params, and`,
    " * resolves with the connection of the version the agent answered with, which takes that",
    " * exchange as its own (its capabilities negotiate as on a stream of its own). Narrow on",
    " * `protocolVersion`:",
    " *",
    " * ```ts",
    ` * const route = await ${names.clientRouter}({ 2: { initialize: { info, capabilities: {} }, connect: (s) => new v2.ClientSideConnection(…, s) }, 1: { initialize: { clientCapabilities: {} }, connect: (s) => new v1.ClientSideConnection(…, s) } }).connect(stream);`,
    " * if (route.protocolVersion === 2) route.connection.agent; // v2's RemoteAgent",
    " * ```",
    " * @param offers - Per protocol version the client speaks: its `initialize` params",
    ` *   (without \`${spec.version}\`) and the factory of its connection. Two versions' params`,
    " *   naming the same field must give it the same value.",
    " */",
    `export declare function ${names.clientRouter}<${versions
      .map((v) => `${typeParameter(v)} extends InitializingConnection = never`)
      .join(", ")}>(offers: { ${params
      .map((p) => `readonly ${p.version}?: ClientOffer<${typeParameter(p.version)}, ${p.omitted}>;`)
      .join(" ")} }, options?: RouterOptions): ${names.clientClass}<{ ${versions
      .map((v) => `${v}: ${typeParameter(v)}`)
      .join("; ")} }>;`,
    "",
    "/**",
    " * The definitions every protocol version of this package defines alike, per stability:",
    " * the same values admitted and read the same way (prose aside), whatever they reference",
    " * included. A value of one of these types from one version's entry point is a value of",
    " * the same type in every other's, so an application's logic can be written once against",
    " * them for every version it serves.",
    " */",
    `export declare const ${names.sameDefinitions}: {`,
    ...sameEntries.flatMap(({ stability, keys, surfaces }) => [
      `  /** ${surfaces}: ${keys.length} definitions. */`,
      `  readonly ${stability}: readonly [${keys.map(literal).join(", ")}];`,
    ]),
    "};",
    "",
  ].join("\n");
  return [
    { path: `${entry.folder}/index.js`, content: javascript },
    { path: `${entry.folder}/index.d.ts`, content: declarations },
  ];
}

/** A surface's prefix for the names its types are imported under: `v1/unstable` → `V1Unstable`. */
function localName(surface: SurfaceModel): string {
  return surface.id
    .split("/")
    .map((part) => `${part[0]?.toUpperCase() ?? ""}${part.slice(1)}`)
    .join("");
}

/** The entry points of one stability, by version: `` `.` and `./v2` `` as import subpaths. */
function surfacesOf(surfaces: readonly SurfaceModel[], stability: "stable" | "unstable"): string {
  return surfaces
    .filter((s) => s.stability === stability)
    .sort((a, b) => a.protocolVersion - b.protocolVersion)
    .map((s) => `\`${s.entry}\` (v${s.protocolVersion})`)
    .join(", ");
}

/**
 * What the README's router section is rendered from (emit/package.ts), or false where the
 * package has no router or its example would call what the package lacks: the example serves
 * v1 and v2 from their stable entry points, with the methods below, on types both share.
 */
export function routerReadme(
  model: ProtocolModel,
):
  | false
  | { versions: number[]; rows: Array<{ message: string; does: string }>; sameStable: number } {
  const { handshake, versions, same } = model.versions;
  if (!handshake) return false;
  const stable = (version: number) =>
    model.surfaces.find((s) => s.protocolVersion === version && s.stability === "stable");
  const serves = (version: number, methods: readonly string[]) => {
    const surface = stable(version);
    return (
      surface !== undefined && methods.every((m) => surface.methods.some((x) => x.method === m))
    );
  };
  const shared = same.stable ?? [];
  const example =
    serves(1, [...README_EXAMPLE_METHODS, "session/list", "session/close"]) &&
    serves(2, [...README_EXAMPLE_METHODS, "session/list", "session/close", "session/resume"]) &&
    ["SessionId", "Implementation"].every((d) => shared.includes(d));
  if (!example) return false;
  return { versions, rows: routeRows(handshake, versions), sameStable: shared.length };
}

/** The methods the README's agent and clients call on both versions. */
const README_EXAMPLE_METHODS = [
  "initialize",
  "session/new",
  "session/prompt",
  "session/cancel",
  "session/update",
  "session/request_permission",
];

/** The README's table of what `agentRouter` does with a client's first messages. */
function routeRows(
  handshake: { method: string; version: string },
  versions: readonly number[],
): Array<{ message: string; does: string }> {
  const request = `\`${handshake.method}\``;
  const asking = (what: string) => `${request} asking for \`${handshake.version}\` ${what}`;
  const latest = versions[versions.length - 1] as number;
  const rows = versions.map((version, i) => {
    const next = versions[i + 1];
    const what =
      next === undefined
        ? `${version} or more`
        : next === version + 1
          ? `${version}`
          : `${version} to ${next - 1}`;
    return {
      message: asking(what),
      does: `hands the stream, that request first, to the v${version} factory`,
    };
  });
  const oldest = versions[0] as number;
  if (oldest > 0)
    rows.unshift({
      message: asking(oldest === 1 ? "0" : `0 to ${oldest - 1}`),
      does: `hands it to the latest version routed (v${latest}), whose connection answers with its own version: the client decides`,
    });
  return [
    ...rows,
    {
      message: `${request} without an integer \`${handshake.version}\` from 0 to 65535`,
      does: `answers -32602 with its id, and waits for another ${request}`,
    },
    { message: "any other request", does: "answers -32600 with its id" },
    { message: "a notification or a response", does: "ignores it" },
    { message: "a batch (a JSON array)", does: "answers one -32600 with `id: null`" },
    {
      message: "a line that is not JSON",
      does: "drops it, with a warning (one over the size limit naming a request is answered -32600)",
    },
    {
      message: "nothing more (end of input)",
      does: "closes its output; `connect` resolves `undefined`",
    },
    {
      message: `anything after the chosen ${request}, another ${request} too`,
      does: "nothing: the chosen connection reads it, as on a stream of its own",
    },
  ];
}
