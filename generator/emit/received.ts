import type { Json } from "../schema/json.js";
import type { DeclarationInput, EmitContext } from "./context.js";
import { banner, type OutputFile } from "./output.js";
import { sharedModuleFrom } from "./shared-code.js";
import { type DeclarationSource, declarationSource, takeShared } from "./shared-declarations.js";
import { indentDeclarations } from "./ts-declarations.js";
import { compileDeclarations, withExperimentalTags } from "./types.js";

/**
 * `received.d.ts`: each definition a value of which can hold a closed tagged union (v1 has
 * them; in v2 every union is open), typed as the open reading (`unknownVariants: "keep"`)
 * returns it, the unions with their unknown variant. Everything else is the plain type of
 * types.d.ts, by name. Every entry point exports the module as the `Received` namespace,
 * empty where nothing differs.
 */
export async function emitReceived(context: EmitContext): Promise<OutputFile> {
  const { surface, stable } = context;
  const declarations = await context.declarations();
  const own = declarations.received;
  const theirs = own ? declarations.stable?.received : undefined;
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

/**
 * The file's declarations and what they import from types.d.ts; none where nothing differs.
 * `typesTaken`: what this surface's types.d.ts takes from the stable one's, where the plain
 * types those names stand for are declared.
 */
export async function receivedSource(
  { surface, names, stable, facts }: DeclarationInput,
  typesTaken: ReadonlySet<string>,
): Promise<DeclarationSource | undefined> {
  const prepared = new Map<string, Json>();
  for (const def of surface.definitions) {
    const schema = facts.prepared.received.get(def.key);
    if (schema !== undefined) prepared.set(def.key, withExperimentalTags(def, schema));
  }
  if (prepared.size === 0) return undefined;
  const body = await compileDeclarations(surface, names, prepared);
  // A plain type is declared where types.d.ts has it from: the stable file, for what it takes.
  const imports = [...facts.prepared.receivedPlain].sort();
  return declarationSource(
    [
      {
        names: imports,
        module: (name) => `${typesTaken.has(name) && stable ? stable.id : surface.id}/types.js`,
        line: (used) =>
          used.length ? `import type { ${used.join(", ")} } from "./types.js";` : "",
      },
    ],
    body,
  );
}
