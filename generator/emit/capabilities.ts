import type {
  NegotiationSpec,
  CapabilityGate as RuntimeGate,
} from "../../templates/runtime/negotiation.js";
import type { CapabilityGate, Negotiation, SurfaceModel } from "../model/protocol.js";
import { importLine, type Role, runtimeSpecifier } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import type { EmitContext } from "./context.js";
import { jsLiteral, literal, propertyKey } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * What the capability model (model/capabilities.ts) becomes in the package: `capabilities.js`
 * with the surface's `CAPABILITY_GATES` and the helpers that build a side's capabilities from
 * its handlers, the handshake table `connection.js` hands the runtime, and the README's table.
 */

/** The constant `connection.js` keeps the handshake in (module-private). */
export const NEGOTIATION_TABLE = "NEGOTIATION";

/** One gate as the runtime reads it (`templates/runtime/negotiation.ts`). */
function runtimeGate(names: SurfaceSymbols, gate: CapabilityGate): RuntimeGate {
  const { content } = gate;
  return {
    side: gate.side,
    capability: gate.path,
    declare: gate.declare === "true" ? true : {},
    method: gate.method.method,
    kind: gate.method.kind,
    handler: gate.method.handler,
    handlerRequired: gate.handlerRequired,
    ...(content
      ? {
          content: {
            type: names.definition(content.definition).type,
            tag: content.tag,
            value: content.value,
            at: content.at,
          },
        }
      : {}),
  };
}

/** `capabilities.js` / `capabilities.d.ts`. */
export function emitCapabilities({ surface, names, runtime }: EmitContext): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const { gates, helpers } = names.capabilities;
  const negotiation = surface.negotiation;
  const list = (negotiation?.gates ?? []).map((g) => `  ${jsLiteral(runtimeGate(names, g))},`);
  const gatesDoc = [
    "/**",
    " * What each capability gates on this surface, read from the schema: calling a method, or",
    " * sending a variant of a union in its params. The connections enforce it; tools may read it.",
    " */",
  ];
  const js = [
    head,
    `import { ${negotiation && helpers ? "capabilitiesFrom, " : ""}frozen } from "${runtimeSpecifier(runtime, "negotiation.js", false)}";`,
    "",
    ...gatesDoc,
    `export const ${gates} = /* @__PURE__ */ frozen([`,
    ...list,
    "]);",
    "",
  ];
  const dts = [
    head,
    importLine(names.imports.capabilities.gate, runtime),
    ...(negotiation && helpers
      ? [
          'import type * as T from "./types.js";',
          `import type { ${names.roles.agent.handlers}, ${names.roles.client.handlers} } from "./connection.js";`,
        ]
      : []),
    "",
    ...gatesDoc,
    `export declare const ${gates}: readonly CapabilityGate[];`,
    "",
  ];
  if (negotiation && helpers) {
    for (const role of ["agent", "client"] as const) {
      const type = names.definition(negotiation.capabilities[role].definition).type;
      const doc = helperDoc(negotiation, role, names);
      js.push(
        ...doc,
        `export function ${helpers[role]}(handlers, declared) {`,
        `  return capabilitiesFrom(${gates}, ${literal(role)}, handlers, declared);`,
        "}",
        "",
      );
      dts.push(
        ...doc,
        `export declare function ${helpers[role]}(handlers: Partial<${names.roles[role].handlers}>, declared?: T.${type}${mask(negotiation, role)}): T.${type};`,
        "",
      );
    }
  }
  return [
    { path: `${surface.id}/capabilities.js`, content: js.join("\n") },
    { path: `${surface.id}/capabilities.d.ts`, content: dts.join("\n") },
  ];
}

function helperDoc(negotiation: Negotiation, role: Role, names: SurfaceSymbols): string[] {
  const property = negotiation.capabilities[role].property;
  const carrier = role === "agent" ? "result" : "params";
  const promised = [
    ...new Set(
      negotiation.gates
        .filter((g) => g.side === role && g.handlerRequired && !g.content)
        .map((g) => `\`${g.path.join(".")}\``),
    ),
  ];
  const text = [
    `The ${role}'s capabilities (\`${property}\` of the \`${negotiation.method.method}\` ${carrier}), built from its`,
    `\`${names.roles[role].handlers}\` handlers. A capability that promises methods is declared exactly when all`,
    "their handlers are there, so it cannot be declared without them",
    promised.length > 0 ? `(${promised.join(", ")}).` : "(there are none here).",
    "Everything else (content, transports, settings) comes from `declared`, whose type leaves",
    "no room for the capabilities the handlers decide.",
  ].join(" ");
  return ["/**", ...wrap(text, 88).map((line) => ` * ${line}`), " */"];
}

/** Words of `text` on lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * ` & { loadSession?: never; sessionCapabilities?: { list?: never } | null }`: the capabilities
 * the helper decides from handlers, closed in `declared`. One that also holds capabilities
 * of its own (v2's `session`) stays open: the runtime reports it if declared without handlers.
 */
function mask(negotiation: Negotiation, role: Role): string {
  type Tree = Map<string, Tree | "never">;
  const tree: Tree = new Map();
  for (const gate of negotiation.gates) {
    if (gate.side !== role || gate.content || !gate.handlerRequired || gate.container) continue;
    let node = tree;
    for (const [i, key] of gate.path.entries()) {
      if (i === gate.path.length - 1) {
        node.set(key, "never");
        break;
      }
      const next = node.get(key);
      if (next === "never") break;
      const child: Tree = next ?? new Map();
      node.set(key, child);
      node = child;
    }
  }
  const render = (node: Tree): string =>
    `{ ${[...node]
      .map(([key, value]) =>
        value === "never"
          ? `${propertyKey(key)}?: never`
          : `${propertyKey(key)}?: ${render(value)} | null`,
      )
      .join("; ")} }`;
  return tree.size > 0 ? ` & ${render(tree)}` : "";
}

/**
 * `const NEGOTIATION = …`: the handshake the runtime keeps (`NegotiationSpec`), for
 * `connection.js`; nothing without a handshake.
 */
export function negotiationLines(surface: SurfaceModel): string[] {
  const negotiation = surface.negotiation;
  if (!negotiation) return [];
  const spec: NegotiationSpec = {
    method: negotiation.method.method,
    capabilities: {
      agent: negotiation.capabilities.agent.property,
      client: negotiation.capabilities.client.property,
    },
    ...(negotiation.version ? { version: negotiation.version } : {}),
    versions: [surface.protocolVersion],
  };
  return [
    "/** What `initialize` negotiates: the runtime keeps the capability gates after it. */",
    `const ${NEGOTIATION_TABLE} = Object.freeze(${jsLiteral(spec)});`,
    "",
  ];
}

/** One row of the README's capability table. */
export interface CapabilityRow {
  capability: string;
  side: string;
  gates: string;
  /** The entry points that have it, as a list in text. */
  entries: string;
}

/**
 * The README's table: one row per capability and what it gates, across surfaces, with the
 * entry points that have it (v1's paths differ from v2's, so rows rarely span both).
 */
export function capabilityRows(
  surfaces: readonly SurfaceModel[],
  importPath: (s: SurfaceModel) => string,
  names: (s: SurfaceModel) => SurfaceSymbols,
): CapabilityRow[] {
  const rows = new Map<string, Omit<CapabilityRow, "entries"> & { entries: string[] }>();
  for (const surface of surfaces) {
    const negotiation = surface.negotiation;
    if (!negotiation) continue;
    const grouped = new Map<
      string,
      { capability: string; side: string; what: string; methods: string[] }
    >();
    for (const gate of negotiation.gates) {
      const capability = [negotiation.capabilities[gate.side].property, ...gate.path].join(".");
      const what = gate.content
        ? `\`${names(surface).definition(gate.content.definition).type}\` with \`${gate.content.tag}: ${JSON.stringify(gate.content.value)}\` in`
        : "";
      const key = JSON.stringify([gate.side, capability, what]);
      const group = grouped.get(key) ?? { capability, side: gate.side, what, methods: [] };
      group.methods.push(`\`${gate.method.method}\``);
      grouped.set(key, group);
    }
    for (const group of grouped.values()) {
      const gates = `${group.what ? `${group.what} ` : ""}${[...new Set(group.methods)].join(", ")}`;
      const key = JSON.stringify([group.side, group.capability, gates]);
      const row = rows.get(key) ?? {
        capability: `\`${group.capability}\``,
        side: group.side,
        gates,
        entries: [],
      };
      row.entries.push(`\`${importPath(surface)}\``);
      rows.set(key, row);
    }
  }
  return [...rows.values()].map((row) => ({ ...row, entries: row.entries.join(", ") }));
}

/**
 * Whether the README's capability examples fit the root entry point: they refuse
 * `session/load` (`loadSession`) and an image prompt (`promptCapabilities.image`).
 */
export function readmeShowsCapabilities(root: SurfaceModel): boolean {
  const gates = root.negotiation?.gates ?? [];
  const has = (path: string, method: string, content?: string) =>
    gates.some(
      (g) =>
        g.side === "agent" &&
        g.path.join(".") === path &&
        g.method.method === method &&
        g.content?.value === content,
    );
  return (
    root.negotiation?.capabilities.agent.property === "agentCapabilities" &&
    has("loadSession", "session/load") &&
    has("promptCapabilities.image", "session/prompt", "image")
  );
}
