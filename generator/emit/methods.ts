import { methodsOf } from "../model/methods.js";
import type { Method } from "../model/protocol.js";
import type { EmitContext } from "./context.js";
import { jsLiteral, literal, propertyKey } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * `methods.js` / `methods.d.ts`: the method constants (as in meta.json: key → wire name),
 * `PROTOCOL_VERSION`, and per side a map from wire name to params, result and kind.
 */
export function emitMethods({ surface, names }: EmitContext): OutputFile[] {
  const head = banner(surface.schemaFile.name);
  const { protocolVersion, methods, methodSpec } = names.methodModule;
  const type = (key: string) => names.definition(key).type;
  const js: string[] = [head, `export const ${protocolVersion} = ${surface.protocolVersion};`, ""];
  const dts: string[] = [
    head,
    'import type * as T from "./types.js";',
    "",
    `export declare const ${protocolVersion}: ${surface.protocolVersion};`,
    "",
  ];

  for (const side of names.sides) {
    const entries = uniqueKeys(methodsOf(surface, side));
    const doc = `/** Methods served by the ${side} side (meta.json \`${side}Methods\`): key → wire name. */`;
    js.push(
      doc,
      `export const ${names.methodConstant(side)} = Object.freeze({`,
      ...entries.map((m) => `  ${propertyKey(m.key)}: ${literal(m.method)},`),
      "});",
      "",
    );
    dts.push(
      doc,
      `export declare const ${names.methodConstant(side)}: {`,
      ...entries.map((m) => `  readonly ${propertyKey(m.key)}: ${literal(m.method)};`),
      "};",
      "",
    );
  }

  for (const side of names.sides) {
    for (const kind of ["request", "notification"] as const) {
      dts.push(
        `/** ${kind === "request" ? "Requests" : "Notifications"} the ${side} side serves, by wire name. */`,
      );
      dts.push(`export interface ${names.methodMap(side, kind)} {`);
      for (const m of methodsOf(surface, side, kind)) {
        if (m.experimental) dts.push("  /** @experimental Only in the unstable schema. */");
        const result =
          m.result === undefined
            ? ""
            : ` result: ${m.result === null ? "null" : `T.${type(m.result)}`};`;
        dts.push(
          `  ${literal(m.method)}: { kind: ${literal(kind)}; params: T.${type(m.params)};${result} };`,
        );
      }
      dts.push("}", "");
    }
  }

  const table = surface.methods.map((m) => {
    const { method, side, kind, key, handler } = m;
    // A result without a definition (the NULL RESULT rule) is written as `null`.
    const result = m.result === undefined || m.result === null ? m.result : type(m.result);
    return `  ${jsLiteral({ method, side, kind, key, handler, params: type(m.params), result })},`;
  });
  js.push(
    "/** Every method of this surface, for routing and tooling. */",
    `export const ${methods} = Object.freeze([`,
    ...table,
    "]);",
    "",
  );
  dts.push(
    "/** One method of the surface: wire name, x-side, kind, meta.json key, handler name and type names. */",
    `export interface ${methodSpec} {`,
    "  readonly method: string;",
    "  readonly side: string;",
    '  readonly kind: "request" | "notification";',
    "  readonly key: string;",
    "  readonly handler: string;",
    "  readonly params: string;",
    "  /** Type name of the result (requests only); `null` when the result is JSON null and has no definition. */",
    "  readonly result?: string | null;",
    "}",
    "/** Every method of this surface, for routing and tooling. */",
    `export declare const ${methods}: readonly ${methodSpec}[];`,
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
