import { compile } from "json-schema-to-typescript";
import { InputError } from "../errors.js";
import type { Definition, SurfaceModel } from "../model/protocol.js";
import { PlaceholderKeys } from "../prepare/placeholder-keys.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { refTo } from "../schema/refs.js";
import { importLine } from "../symbols/exports.js";
import type { DefinitionSymbols, SurfaceSymbols } from "../symbols/table.js";
import type { DeclarationInput, EmitContext } from "./context.js";
import { type FunctionDeclarations, guardDeclarations } from "./guards.js";
import { literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";
import { parserDeclarations } from "./parsers.js";
import { sharedModuleFrom } from "./shared-code.js";
import { type DeclarationSource, declarationSource, takeShared } from "./shared-declarations.js";
import { indentDeclarations, joinConstantDeclarations } from "./ts-declarations.js";

const ROOT_NAME = "AcpCodegenRoot";

/**
 * `types.d.ts` for one surface: a type per definition, named by its `$defs` key, with the
 * schema's descriptions as JSDoc (json-schema-to-typescript does the translation), then the
 * declarations of every definition's functions (guards.js, parsers.js): beside the types they
 * name, they cost a consumer's compiler one identifier per type reference and no import.
 *
 * An unstable surface's file imports and re-exports, from the stable one's, every declaration
 * the stable file already holds word for word and that means the same there
 * (shared-declarations.ts): most of the protocol, which the unstable schema repeats.
 */
export async function emitTypes(context: EmitContext): Promise<OutputFile> {
  const { surface, stable } = context;
  const declarations = await context.declarations();
  return {
    path: `${surface.id}/types.d.ts`,
    content: typesLayout(surface, stable, declarations.types, declarations.stable?.types).content,
  };
}

/**
 * types.d.ts from its declarations (`own`), an unstable surface's with what the stable file
 * (`theirs`) already says taken from there: the file's text, and the names taken (where a
 * file that imports them from `./types.js` finds their declarations).
 */
export function typesLayout(
  surface: SurfaceModel,
  stable: SurfaceModel | undefined,
  own: DeclarationSource,
  theirs: DeclarationSource | undefined,
): { content: string; taken: ReadonlySet<string> } {
  const head = banner(surface.schemaFile.name);
  const { lines, taken } = theirs
    ? takeShared(own, theirs, sharedModuleFrom(surface, stable, "types.js"))
    : {
        lines: [...own.imports.map((i) => i.line(i.names)), "", own.text],
        taken: new Set<string>(),
      };
  // `export {}` keeps the file's local names local: without it, a declaration file exports
  // every top-level declaration. (With no definitions the file must still be a module, or
  // importing it fails to compile.)
  const text = indentDeclarations([head, ...lines, "export {};", ""].join("\n"));
  return { content: joinConstantDeclarations(text), taken };
}

/** types.d.ts's declarations before any sharing: the types, then the functions' declarations. */
export async function typesSource(context: DeclarationInput): Promise<DeclarationSource> {
  const { surface, names, facts } = context;
  const defs = new Map<string, Json>();
  for (const def of surface.definitions)
    defs.set(def.key, withExperimentalTags(def, facts.prepared.types[def.key] as Json));
  const body = shareOpenObjects(
    await compileDeclarations(surface, names, defs),
    names.locals.openObject,
  );
  const functions = [guardDeclarations(context), parserDeclarations(context)];
  return declarationSource(
    functionImports(context, functions),
    [body, ...functions.flatMap((f) => f.lines)].join("\n"),
  );
}

/** What the function declarations name from outside the file: the signatures, the received types. */
function functionImports(
  { surface, names, runtime }: DeclarationInput,
  functions: FunctionDeclarations[],
): DeclarationSource["imports"] {
  const signatures = [...new Set(functions.flatMap((f) => f.signatures))].sort();
  const R = names.locals.received;
  // The symbol table's entry, with only the signatures used.
  const from = names.imports.types.signatures;
  return [
    ...(signatures.length > 0
      ? [
          {
            names: signatures,
            module: `runtime/${from.from}`,
            line: (used: readonly string[]) => importLine({ ...from, names: used }, runtime),
          },
        ]
      : []),
    ...(functions.some((f) => f.readsReceived)
      ? [
          {
            names: [R],
            module: `${surface.id}/received.js`,
            line: () => `import type * as ${R} from "./received.js";`,
          },
        ]
      : []),
  ];
}

/**
 * TypeScript declarations for prepared definitions, one type per key (named as the symbol
 * table says) and nothing else: json-schema-to-typescript does the translation.
 */
export async function compileDeclarations(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  prepared: ReadonlyMap<string, Json>,
): Promise<string> {
  const placeholders = new PlaceholderKeys(literal);
  const defs: JsonObject = {};
  for (const [key, schema] of prepared) defs[key] = placeholders.encode(schema);
  // A root that references every definition, so each is emitted exactly once under its key.
  const properties: JsonObject = {};
  for (const key of prepared.keys()) properties[key] = { $ref: refTo(surface.defsKeyword, key) };
  const root: JsonObject = {
    type: "object",
    additionalProperties: false,
    properties,
    [surface.defsKeyword]: defs,
  };
  const typeNames = new Map(names.definitions.map((d) => [d.key, d.type]));

  const raw = await compile(root as never, ROOT_NAME, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { external: false } } as never,
    customName: (_schema, keyName) => (keyName === undefined ? undefined : typeNames.get(keyName)),
  });

  const body = withoutObjectParens(placeholders.restore(tidy(raw)));
  checkDeclaredNames(
    surface,
    names.definitions.filter((d) => prepared.has(d.key)),
    body,
  );
  return body;
}

/** How json-schema-to-typescript writes an object type with no declared members. */
const OPEN_OBJECT = "{\n[k: string]: unknown\n}";
const OPEN_OBJECTS = /\{\n\[k: string\]: unknown\n\}/g;

/**
 * Every `_meta` (and any other object the schema leaves open) is the same type literal, written
 * out at each of its 120-odd uses; a consumer's compiler creates a type for each one it checks
 * (and a union with `null` for each). One local alias instead: the same type, one declaration.
 * Local, not exported: it is no name of the protocol's, and a consumer's declaration emit
 * writes the structure out where it needs it.
 */
function shareOpenObjects(body: string, alias: string): string {
  let shared = false;
  const out = body.replace(OPEN_OBJECTS, (literal, at: number) => {
    // An interface's own body stays: only type literals are types of their own.
    if (body.slice(body.lastIndexOf("\n", at) + 1, at).startsWith("export interface "))
      return literal;
    shared = true;
    return alias;
  });
  if (!shared) return body;
  // `@inline`: API documentation (TypeDoc) writes the structure where the alias is used, as
  // for any name the package does not export.
  return `${out}/**
 * A JSON object with members of any name and value: what the schema says of \`_meta\` and of
 * other objects it leaves open.
 * @inline
 */
type ${alias} = ${OPEN_OBJECT}
`;
}

/** On unstable surfaces: what the stable schema lacks is marked `@experimental` in its JSDoc. */
export function withExperimentalTags(def: Definition, patched: Json): Json {
  if (!isObject(patched) || !def.experimental) return patched;
  const marked = markExperimentalProperties(patched, def.experimentalProperties);
  if (def.experimental !== "new") return marked;
  return {
    ...marked,
    description: withTag(
      marked.description,
      "@experimental Only in the unstable schema: may change or be removed.",
    ),
  };
}

function markExperimentalProperties(schema: JsonObject, names: string[]): JsonObject {
  if (names.length === 0 || !isObject(schema.properties)) return schema;
  const properties: JsonObject = { ...schema.properties };
  for (const name of names) {
    const prop = properties[name];
    if (isObject(prop))
      properties[name] = {
        ...prop,
        description: withTag(prop.description, "@experimental Only in the unstable schema."),
      };
  }
  return { ...schema, properties };
}

function withTag(description: Json | undefined, tag: string): string {
  return typeof description === "string" && description.length > 0
    ? `${description}\n\n${tag}`
    : tag;
}

/**
 * Remove json-schema-to-typescript's own scaffolding: the synthetic root type and the
 * "referenced by" note it adds to every definition (it names the synthetic root).
 */
function tidy(raw: string): string {
  return raw
    .replace(/^ \* $/gm, " *")
    .replace(
      /(?:\n \*)?\n \* This interface was referenced by `AcpCodegenRoot`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\./g,
      "",
    )
    .replace(/\/\*\*\n \*\/\n/g, "")
    .replace(new RegExp(`export interface ${ROOT_NAME} \\{\\n[\\s\\S]*?\\n\\}\\n`), "")
    .replace(/\n{3,}/g, "\n\n")
    .trimStart();
}

/**
 * json-schema-to-typescript parenthesizes every union. Where the whole type of a property or
 * alias is such a group and it opens with an object type (`content: ({ … } | { … })`), the
 * parentheses cost a consumer's compiler: `({` may start an arrow function's parameter list
 * (`({ a }: T) => …`), so the parser reads the object once as a binding pattern and once as
 * a type, and counts its identifiers twice. Those parentheses go; every other one stays.
 */
function withoutObjectParens(text: string): string {
  const drop = new Set<number>();
  const open: Array<{ at: number; whole: boolean }> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "*") i = end(text.indexOf("*/", i + 2)) + 1;
    else if (c === "/" && text[i + 1] === "/") i = end(text.indexOf("\n", i)) - 1;
    else if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "(") {
      // The whole type: right after `: ` or `= `, the group opening with an object type.
      open.push({ at: i, whole: /[:=] $/.test(text.slice(i - 2, i)) && text[i + 1] === "{" });
    } else if (c === ")") {
      const group = open.pop();
      // …and closing at the end of its line, with nothing on the next line continuing it.
      if (group?.whole && text[i + 1] === "\n" && !/^\s*[|&[]/.test(text.slice(i + 1, i + 40))) {
        drop.add(group.at);
        drop.add(i);
      }
    }
  }
  let out = "";
  let from = 0;
  for (const at of [...drop].sort((a, b) => a - b)) {
    out += text.slice(from, at);
    from = at + 1;
  }
  return out + text.slice(from);
}

/** A position found by `indexOf`, or the end of the text when there is none. */
const end = (at: number): number => (at < 0 ? Number.MAX_SAFE_INTEGER - 1 : at);

/** The declared names must be exactly the definitions: anything else is a silent rename. */
function checkDeclaredNames(
  surface: SurfaceModel,
  definitions: readonly DefinitionSymbols[],
  body: string,
): void {
  const declared = new Set(
    [...body.matchAll(/^export (?:interface|type|enum|const enum) ([A-Za-z_$][\w$]*)/gm)].map(
      (m) => m[1] as string,
    ),
  );
  const expected = new Map(definitions.map((d) => [d.type, d.key]));
  for (const name of declared) {
    if (!expected.has(name)) {
      throw new InputError(
        surface.schemaFile.display,
        pointer(surface.defsKeyword),
        `type generation produced an unexpected type ${name}; refusing to rename silently`,
      );
    }
  }
  for (const [name, key] of expected) {
    if (!declared.has(name)) {
      throw new InputError(
        surface.schemaFile.display,
        pointer(surface.defsKeyword, key),
        `type generation produced no type for this definition (expected ${name})`,
      );
    }
  }
}
