import type { Method, SurfaceModel } from "../model/protocol.js";
import { HANDLER_SIDES, type HandlerSide } from "../model/sides.js";
import { literal, propertyKey } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/** Sides that always get constants and maps, even when empty, so imports never break. */
const ALWAYS: readonly HandlerSide[] = ["agent", "client", "protocol"];

export function sidesOf(surface: SurfaceModel): HandlerSide[] {
  return HANDLER_SIDES.filter(
    (side) => ALWAYS.includes(side) || surface.methods.some((m) => m.handledBy.includes(side)),
  );
}

export const constantName = (side: HandlerSide): string => `${side.toUpperCase()}_METHODS`;
export const mapName = (side: HandlerSide, kind: Method["kind"]): string =>
  `${side[0]?.toUpperCase()}${side.slice(1)}${kind === "request" ? "Request" : "Notification"}Map`;

export function methodsOf(
  surface: SurfaceModel,
  side: HandlerSide,
  kind?: Method["kind"],
): Method[] {
  return surface.methods.filter(
    (m) => m.handledBy.includes(side) && (kind === undefined || m.kind === kind),
  );
}

/**
 * `methods.js` / `methods.d.ts`: the method constants (as in meta.json: key → wire name),
 * `PROTOCOL_VERSION`, and per side a map from wire name to params, result and kind.
 */
export function emitMethods(surface: SurfaceModel): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const sides = sidesOf(surface);
  const js: string[] = [head, `export const PROTOCOL_VERSION = ${surface.protocolVersion};`, ""];
  const dts: string[] = [
    head,
    'import type * as T from "./types.js";',
    "",
    `export declare const PROTOCOL_VERSION: ${surface.protocolVersion};`,
    "",
  ];

  for (const side of sides) {
    const entries = uniqueKeys(methodsOf(surface, side));
    const doc = `/** Methods served by the ${side} side (meta.json \`${side}Methods\`): key → wire name. */`;
    js.push(
      doc,
      `export const ${constantName(side)} = Object.freeze({`,
      ...entries.map((m) => `  ${propertyKey(m.key)}: ${literal(m.method)},`),
      "});",
      "",
    );
    dts.push(
      doc,
      `export declare const ${constantName(side)}: {`,
      ...entries.map((m) => `  readonly ${propertyKey(m.key)}: ${literal(m.method)};`),
      "};",
      "",
    );
  }

  for (const side of sides) {
    for (const kind of ["request", "notification"] as const) {
      dts.push(
        `/** ${kind === "request" ? "Requests" : "Notifications"} the ${side} side serves, by wire name. */`,
      );
      dts.push(`export interface ${mapName(side, kind)} {`);
      for (const m of methodsOf(surface, side, kind)) {
        if (m.experimental) dts.push("  /** @experimental Only in the unstable schema. */");
        const result = m.result ? ` result: T.${typeOf(surface, m.result)};` : "";
        dts.push(
          `  ${literal(m.method)}: { kind: ${literal(kind)}; params: T.${typeOf(surface, m.params)};${result} };`,
        );
      }
      dts.push("}", "");
    }
  }

  const table = surface.methods.map(
    (m) =>
      `  { method: ${literal(m.method)}, side: ${literal(m.side)}, kind: ${literal(m.kind)}, key: ${literal(m.key)}, handler: ${literal(m.handler)}, params: ${literal(typeOf(surface, m.params))}${m.result ? `, result: ${literal(typeOf(surface, m.result))}` : ""} },`,
  );
  js.push(
    "/** Every method of this surface, for routing and tooling. */",
    "export const METHODS = Object.freeze([",
    ...table,
    "]);",
    "",
  );
  dts.push(
    "/** One method of the surface: wire name, x-side, kind, meta.json key, handler name and type names. */",
    "export interface MethodSpec {",
    "  readonly method: string;",
    "  readonly side: string;",
    '  readonly kind: "request" | "notification";',
    "  readonly key: string;",
    "  readonly handler: string;",
    "  readonly params: string;",
    "  readonly result?: string;",
    "}",
    "/** Every method of this surface, for routing and tooling. */",
    "export declare const METHODS: readonly MethodSpec[];",
    "",
  );
  return [
    { path: `${surface.id}/methods.js`, content: js.join("\n") },
    { path: `${surface.id}/methods.d.ts`, content: dts.join("\n") },
  ];
}

/** A request and a notification under one wire name share one meta.json key. */
function uniqueKeys(methods: Method[]): Method[] {
  const seen = new Set<string>();
  return methods.filter((m) => {
    if (seen.has(m.key)) return false;
    seen.add(m.key);
    return true;
  });
}

function typeOf(surface: SurfaceModel, key: string): string {
  return surface.definitions.find((d) => d.key === key)?.name ?? key;
}
