import { prepareDefinition } from "../prepare/backends.js";
import { isObject, type Json } from "../schema/json.js";
import { reachingClosedUnions, withUnknownVariant } from "../schema/unions.js";
import { forEachJson } from "../schema/walk.js";
import { type EmitContext, emitContext, oncePerSurface } from "./context.js";
import { banner, type OutputFile } from "./output.js";
import { sharedModuleFrom } from "./shared-code.js";
import { type DeclarationSource, declarationSource, takeShared } from "./shared-declarations.js";
import { indentDeclarations } from "./ts-declarations.js";
import { compileDeclarations, typesTaken, withExperimentalTags } from "./types.js";

/**
 * `received.d.ts`: each definition a value of which can hold a closed tagged union (v1 has
 * them; in v2 every union is open), typed as the open reading (`unknownVariants: "keep"`)
 * returns it, the unions with their unknown variant. Everything else is the plain type of
 * types.d.ts, by name. Every entry point exports the module as the `Received` namespace,
 * empty where nothing differs.
 */
export async function emitReceived(context: EmitContext): Promise<OutputFile> {
  const { surface, stable, stableNames, diagnostics } = context;
  const own = await receivedSource(context);
  const theirs =
    stable && stableNames && own
      ? await receivedSource(emitContext(stable, stableNames, diagnostics, { unstable: surface }))
      : undefined;
  // An unstable surface takes from the stable one's file what that already says, as types.d.ts does.
  const lines = !own
    ? ["", "", EMPTY]
    : theirs
      ? takeShared(own, theirs, sharedModuleFrom(surface, stable, "received.js")).lines
      : [...own.imports.map((i) => i.line(i.names)), "", own.text];
  return {
    path: `${surface.id}/received.d.ts`,
    content: indentDeclarations(
      [
        banner(surface.schemaFile.name),
        "/**",
        ' * Received values as the open reading (`unknownVariants: "keep"`) returns them: each type that',
        " * can hold a closed tagged union, with the variants this package does not know admitted.",
        " * @packageDocumentation",
        " */",
        ...lines,
      ].join("\n"),
    ),
  };
}

const EMPTY =
  "// Every tagged union of this surface is open: received values have the plain types.\nexport {};\n";

/** Built once: the unstable surface's emitter reads the stable one's too. */
const receivedSource = oncePerSurface(buildReceivedSource);

/** The file's declarations and what they import from types.d.ts; none where nothing differs. */
async function buildReceivedSource(context: EmitContext): Promise<DeclarationSource | undefined> {
  const { surface, names, diagnostics, stable } = context;
  const defs = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  const reach = reachingClosedUnions(defs, surface.defsKeyword);
  const input = {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics,
  };
  const prepared = new Map<string, Json>();
  // The plain types refs-to-plain-types names; a `tsType` may also be a TypeScript type of its
  // own (annotations-only-are-any writes `unknown`), which nothing declares.
  const declared = new Set(names.definitions.map((d) => d.type));
  const plain = new Set<string>();
  for (const def of surface.definitions) {
    if (!reach.has(def.key)) continue;
    const open =
      def.union && isObject(def.schema) ? withUnknownVariant(def.schema, def.union) : def.schema;
    const schema = prepareDefinition("received-types", input, def.key, open);
    forEachJson(schema, (value, path, inNames) => {
      if (!inNames && path.at(-1) === "tsType" && typeof value === "string" && declared.has(value))
        plain.add(value);
    });
    prepared.set(def.key, withExperimentalTags(def, schema));
  }
  if (prepared.size === 0) return undefined;
  const body = await compileDeclarations(surface, names, prepared);
  // A plain type is declared where types.d.ts has it from: the stable file, for what it takes.
  const taken = await typesTaken(context);
  const imports = [...plain].sort();
  return declarationSource(
    [
      {
        names: imports,
        module: (name) => `${taken.has(name) && stable ? stable.id : surface.id}/types.js`,
        line: (used) =>
          used.length ? `import type { ${used.join(", ")} } from "./types.js";` : "",
      },
    ],
    body,
  );
}
