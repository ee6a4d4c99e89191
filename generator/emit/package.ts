import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import {
  GENERATOR_VERSION,
  RUNTIME_BUNDLE_DIR,
  RUNTIME_DIR,
  RUNTIME_GRAPH,
  TEMPLATES_DIR,
} from "../paths.js";
import {
  RUNTIME_MODULE,
  RUNTIME_NODE_MODULE,
  RUNTIME_REMOTE_MODULE,
  RUNTIME_ROUTER_MODULE,
  reexportLines,
  runtimeBundle,
} from "../symbols/exports.js";
import { runtimeImportsOf, type Symbols } from "../symbols/table.js";
import { capabilityRows, readmeShowsCapabilities } from "./capabilities.js";
import { CHANGELOG_FILE } from "./changelog.js";
import type { EmitContext } from "./context.js";
import { MIGRATION_FILE, migrationRows } from "./migration.js";
import { banner, type OutputFile } from "./output.js";
import { routerReadme } from "./router-entry.js";
import { render } from "./templates.js";

export interface PackageOptions {
  name: string;
  version: string;
}

/** `index.js` / `index.d.ts`: what the surface's entry point exports. */
export function emitSurfaceIndex({ surface, names, runtime }: EmitContext): OutputFile[] {
  const data = {
    banner: banner(surface.schemaFile.name).trimEnd(),
    title: `Agent Client Protocol v${surface.version}${surface.stability === "unstable" ? " (unstable)" : ""}.`,
    protocolVersion: surface.protocolVersion,
    definitions: surface.definitions.length,
    methods: surface.methods.length,
    unstable: surface.stability === "unstable",
    received: names.received,
    session: names.session !== undefined,
  };
  const reexports = (declarations: boolean) =>
    reexportLines(names.reexports.index, runtime, declarations);
  return [
    {
      path: `${surface.id}/index.js`,
      content: render("index.js.hbs", { ...data, reexports: reexports(false) }),
    },
    {
      path: `${surface.id}/index.d.ts`,
      content: render("index.d.ts.hbs", { ...data, reexports: reexports(true) }),
    },
  ];
}

/**
 * The runtime shared by every surface, compiled from templates/runtime by the build: each
 * module's declarations, and its JavaScript as the build bundled it (one web-platform module,
 * `runtime/index.js`, and the Node helpers beside it: symbols/exports.ts `runtimeSpecifier`).
 * The module list comes from the sources, so a stale file left in dist/ can never ship.
 */
export function emitRuntime(): OutputFile[] {
  const modules = readdirSync(join(TEMPLATES_DIR, "runtime"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => f.slice(0, -3))
    .sort();
  const file = (dir: string, name: string): OutputFile => ({
    path: `runtime/${name}`,
    content: readFileSync(join(dir, name), "utf8"),
  });
  const web = modules.filter((m) => runtimeBundle(`${m}.js`) === RUNTIME_MODULE);
  return [
    ...modules.map((m) => file(RUNTIME_DIR, `${m}.d.ts`)),
    file(RUNTIME_BUNDLE_DIR, RUNTIME_MODULE),
    {
      path: `runtime/${RUNTIME_MODULE.replace(/\.js$/, ".d.ts")}`,
      content: `${web.map((m) => `export * from "./${m}.js";`).join("\n")}\n`,
    },
    file(RUNTIME_BUNDLE_DIR, RUNTIME_NODE_MODULE),
    file(RUNTIME_BUNDLE_DIR, RUNTIME_REMOTE_MODULE),
    file(RUNTIME_BUNDLE_DIR, RUNTIME_ROUTER_MODULE),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The package's files without the runtime declarations no entry point reaches. A consumer's
 * compiler reads declarations from an entry point's `index.d.ts` on, through relative imports
 * and re-exports; the runtime modules the generated code alone uses (the line framing, the
 * arrival queue, `runtime/index.d.ts` itself, …) exist in the package only inside the bundled
 * `runtime/index.js`, which the `exports` map lets no one import, so their declarations would
 * describe nothing anyone can reach. Only `runtime/` is pruned: a surface's own declaration
 * file that nothing reached would be a bug to see, not to hide.
 *
 * Computed from data, not by reading the declarations back: each entry point reaches every
 * declaration file of its surface (`index.d.ts` re-exports them all), and the symbol table
 * says which runtime modules each of those imports or re-exports (`runtimeImportsOf`, a
 * shared entry point's `reexports` and `imports`); from there the build's graph of the
 * runtime's own declarations (tools/build/runtime-graph.mjs) says what they import in turn.
 */
export function withReachableRuntime(
  files: readonly OutputFile[],
  model: ProtocolModel,
  symbols: Symbols,
): OutputFile[] {
  const graph = runtimeGraph();
  const reached = new Set<string>();
  const work = [
    ...model.surfaces.flatMap((s) => runtimeImportsOf(symbols.of(s))),
    ...sharedEntries(model, symbols).flatMap((e) => [...e.reexports, ...e.imports]),
  ].map((r) => r.from);
  while (work.length > 0) {
    const module = work.pop() as string;
    if (reached.has(module)) continue;
    const imports = graph[module];
    if (imports === undefined)
      throw new Error(`internal error: runtime module ${module} is not in ${RUNTIME_GRAPH}`);
    reached.add(module);
    work.push(...imports);
  }
  const declarationOf = (path: string) =>
    path.startsWith("runtime/") && path.endsWith(".d.ts")
      ? path.slice("runtime/".length, -".d.ts".length)
      : undefined;
  return files.filter((f) => {
    const module = declarationOf(f.path);
    return module === undefined || reached.has(`${module}.js`);
  });
}

/**
 * Runtime module (`parse.js`) → the runtime modules its declarations import: written by the
 * build beside the compiled runtime, with TypeScript's own scanner over its declarations.
 */
function runtimeGraph(): Readonly<Record<string, readonly string[]>> {
  return JSON.parse(readFileSync(RUNTIME_GRAPH, "utf8"));
}

/** Surfaces in the order package.json lists them: by protocol version, stable first. */
function orderedSurfaces(model: ProtocolModel): SurfaceModel[] {
  return [...model.surfaces].sort(
    (a, b) => a.version - b.version || (a.stability === "stable" ? -1 : 1),
  );
}

/**
 * `exports`: one entry per surface, and the Node helpers'. `types` comes first because
 * TypeScript and bundlers take the first condition that matches. There is deliberately no `import`/`require` split:
 * the package is ESM only, and `default` is what both `import` and Node's `require(esm)`
 * (Node 20.19+, 22.12+) load, so a CommonJS consumer gets the one and only copy of each
 * module (no dual-package hazard: one `ValidationError` class, one set of validators).
 */
function exportsMap(model: ProtocolModel, symbols: Symbols): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const { entry, folder } of entryPoints(model, symbols))
    map[entry] = { types: `./${folder}/index.d.ts`, default: `./${folder}/index.js` };
  map["./package.json"] = "./package.json";
  return map;
}

/**
 * The surfaces' entry points, then those every surface shares (`./node`, `./remote`, and
 * `./router` where the versions have a handshake to route on).
 */
function entryPoints(
  model: ProtocolModel,
  symbols: Symbols,
): Array<{ entry: string; folder: string }> {
  return [
    ...orderedSurfaces(model).map((s) => ({ entry: s.entry, folder: s.id })),
    ...sharedEntries(model, symbols).map((e) => ({ entry: e.subpath, folder: e.folder })),
  ];
}

/** The entry points every surface shares that the package has. */
function sharedEntries(model: ProtocolModel, symbols: Symbols) {
  return [symbols.node, symbols.remote, ...(model.versions.handshake ? [symbols.router] : [])];
}

/**
 * `typesVersions`: the subpath entry points for TypeScript's `node10` resolution
 * (`moduleResolution: "node"`, still common with older bundler set-ups), which ignores
 * `exports`. Without it `PKG/unstable` does not resolve at all there, because its files
 * live in `v1/unstable/`, not `unstable/`. Resolutions that read `exports` (node16,
 * nodenext, bundler) never consult this map. The root entry is served by `types`.
 */
function typesVersionsOf(
  model: ProtocolModel,
  symbols: Symbols,
): { typesVersions?: Record<string, unknown> } {
  const paths: Record<string, string[]> = {};
  for (const { entry, folder } of entryPoints(model, symbols)) {
    if (entry !== ".") paths[entry.slice(2)] = [`${folder}/index.d.ts`];
  }
  return Object.keys(paths).length > 0 ? { typesVersions: { "*": paths } } : {};
}

/** The `ws` releases `PKG/node` works with (the 8.x API). */
const WS_RANGE = "^8.0.0";

export function emitPackageJson(
  model: ProtocolModel,
  symbols: Symbols,
  options: PackageOptions,
): OutputFile {
  const root = model.surfaces.find((s) => s.entry === ".");
  const pkg = {
    name: options.name,
    version: options.version,
    description:
      "Agent Client Protocol types, validators and method tables, generated from the protocol's JSON Schema by acp-codegen.",
    license: "Apache-2.0",
    type: "module",
    sideEffects: false,
    ...(root ? { types: `./${root.id}/index.d.ts`, main: `./${root.id}/index.js` } : {}),
    exports: exportsMap(model, symbols),
    ...typesVersionsOf(model, symbols),
    // What a consumer installs. The manifest (acp-codegen.json) stays out: it is how
    // `generate` and `check` know the folder, and nothing that imports the package reads it.
    files: [
      ...new Set(model.surfaces.map((s) => s.id.split("/")[0] as string)),
      ...sharedEntries(model, symbols).map((e) => e.folder),
      "runtime",
      ...(migrationRows(model.surfaces) ? [MIGRATION_FILE] : []),
      CHANGELOG_FILE,
    ].sort(),
    // The oldest Node.js the package's tests run on (test/node-versions).
    engines: { node: ">=20" },
    // `PKG/node`'s `serve` accepts WebSocket upgrades with `ws`, imported only when it runs:
    // every other use of the package needs nothing installed beside it.
    peerDependencies: { ws: WS_RANGE },
    peerDependenciesMeta: { ws: { optional: true } },
    keywords: ["agent-client-protocol", "acp", "json-rpc", "types", "validation"],
  };
  return { path: "package.json", content: `${JSON.stringify(pkg, null, 2)}\n` };
}

/**
 * What the README's agent and client example calls, by wire name. The example is rendered
 * only when the root entry point has all of them, so a package generated from an older or
 * trimmed schema does not ship an example calling methods it lacks. (The example is
 * type-checked and run against the vendored schema's package in test/consumers.)
 */
const EXAMPLE_METHODS = [
  "initialize",
  "session/new",
  "session/prompt",
  "session/cancel",
  "session/update",
  "session/request_permission",
  // The terminal handle the agent example drives.
  "terminal/create",
  "terminal/wait_for_exit",
  "terminal/output",
  "terminal/release",
];

/** The envelope definitions the README's envelope example parses. */
const ENVELOPE_EXAMPLE = ["ClientRequest", "AgentResponse"];

/** Whether the root surface's session rules have what the README's session example reads. */
function readmeShowsSessions(root: SurfaceModel): boolean {
  const spec = root.session?.spec;
  if (!spec) return false;
  const rule = (tag: string) => spec.rules[tag];
  return (
    rule("plan")?.op === "set" &&
    rule("tool_call")?.op === "create" &&
    spec.slots.toolCalls === "map" &&
    spec.agentText !== undefined &&
    spec.prompt.text !== undefined
  );
}

export function emitReadme(
  model: ProtocolModel,
  symbols: Symbols,
  options: PackageOptions,
): OutputFile {
  const importPath = (s: SurfaceModel) =>
    s.entry === "." ? options.name : `${options.name}/${s.entry.slice(2)}`;
  const surfaces = model.surfaces.map((s) => ({
    importPath: importPath(s),
    protocolVersion: s.protocolVersion,
    unstable: s.stability === "unstable",
    schema: s.schemaFile.name,
    definitions: s.definitions.length,
    methods: s.methods.length,
  }));
  const root = model.surfaces.find((s) => s.entry === ".");
  const served = new Set(root?.methods.map((m) => m.method));
  const firstUnstable = orderedSurfaces(model).find((s) => s.stability === "unstable");
  const chained = orderedSurfaces(model).filter((s) => symbols.of(s).chain);
  const chainRoles = chained[0] ? symbols.of(chained[0]).chain?.roles : undefined;
  const inputs = model.inputs.map((f) => ({ name: f.name, short: f.sha256.slice(0, 12) }));
  return {
    path: "README.md",
    content: render("README.md.hbs", {
      name: options.name,
      generatorVersion: GENERATOR_VERSION,
      surfaces,
      unstableImport: firstUnstable ? importPath(firstUnstable) : false,
      example:
        root !== undefined &&
        EXAMPLE_METHODS.every((m) => served.has(m)) &&
        // The agent example answers an unknown session with RequestError.sessionNotFound.
        symbols.of(root).errors.sessionNotFound !== undefined,
      handleTypes: root ? symbols.of(root).handleTypes : [],
      // The session example renders the state's plan and tool calls and reads the agent's text.
      sessionExample: root !== undefined && readmeShowsSessions(root),
      // The envelope example reads a request and a response by the definitions' names.
      envelopeExample:
        root !== undefined &&
        ENVELOPE_EXAMPLE.every((key) => root.definitions.some((d) => d.key === key)),
      capabilityRows: capabilityRows(orderedSurfaces(model), importPath, (s) => symbols.of(s)),
      capabilityExample: root !== undefined && readmeShowsCapabilities(root),
      chain: { surfaces: chained.map(importPath), ...chainRoles },
      nodeExports: symbols.node.reexports.filter((r) => !r.typeOnly).flatMap((r) => r.names),
      remoteExports: symbols.remote.reexports.filter((r) => !r.typeOnly).flatMap((r) => r.names),
      router: routerReadme(model),
      inputs,
    }),
  };
}
