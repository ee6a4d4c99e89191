import { prepareDefinition } from "../prepare/backends.js";
import { isObject, type Json } from "../schema/json.js";
import { reachingClosedUnions, withUnknownVariant } from "../schema/unions.js";
import { forEachJson } from "../schema/walk.js";
import type { EmitContext } from "./context.js";
import { banner, type OutputFile } from "./output.js";
import { compileDeclarations, withExperimentalTags } from "./types.js";

/**
 * `received.d.ts`: each definition a value of which can hold a closed tagged union (v1 has
 * them; in v2 every union is open), typed as the open reading (`unknownVariants: "keep"`)
 * returns it, the unions with their unknown variant. Everything else is the plain type of
 * types.d.ts, by name. Every entry point exports the module as the `Received` namespace,
 * empty where nothing differs.
 */
export async function emitReceived({
  surface,
  names,
  diagnostics,
}: EmitContext): Promise<OutputFile> {
  const defs = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  const reach = reachingClosedUnions(defs, surface.defsKeyword);
  const input = {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics,
  };
  const prepared = new Map<string, Json>();
  const plain = new Set<string>();
  for (const def of surface.definitions) {
    if (!reach.has(def.key)) continue;
    const open =
      def.union && isObject(def.schema) ? withUnknownVariant(def.schema, def.union) : def.schema;
    const schema = prepareDefinition("received-types", input, def.key, open);
    forEachJson(schema, (value, path, inNames) => {
      if (!inNames && path.at(-1) === "tsType" && typeof value === "string") plain.add(value);
    });
    prepared.set(def.key, withExperimentalTags(def, schema));
  }
  const body =
    prepared.size === 0
      ? "// Every tagged union of this surface is open: received values have the plain types.\nexport {};\n"
      : await compileDeclarations(surface, names, prepared);
  const imports = [...plain].sort();
  const lines = [
    banner(surface.schemaFile.name),
    "/**",
    ' * Received values as the open reading (`unknownVariants: "keep"`) returns them: each type that',
    " * can hold a closed tagged union, with the variants this package does not know admitted.",
    " * @packageDocumentation",
    " */",
    imports.length > 0 ? `import type { ${imports.join(", ")} } from "./types.js";` : "",
    "",
    body,
  ];
  return { path: `${surface.id}/received.d.ts`, content: lines.join("\n") };
}
