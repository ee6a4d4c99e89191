import { compile } from "json-schema-to-typescript";
import { InputError } from "../errors.js";
import type { Definition, SurfaceModel } from "../model/protocol.js";
import {
  applyRules,
  escapeCommentTerminators,
  refBesideKeywords,
  splitPropertiesFromUnion,
  stripTitles,
} from "../patch/rules.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { refTo } from "../schema/refs.js";
import { banner, literal, type OutputFile } from "./output.js";

const ROOT_NAME = "AcpCodegenRoot";

/**
 * `types.d.ts` for one surface: a type per definition, named by its `$defs` key, with the
 * schema's descriptions as JSDoc. json-schema-to-typescript does the translation.
 */
export async function emitTypes(surface: SurfaceModel): Promise<OutputFile> {
  const placeholders = new PlaceholderKeys();
  const defs: JsonObject = {};
  for (const def of surface.definitions)
    defs[def.key] = applyRules(typesInput(def), [placeholders.rule]);
  // A root that references every definition, so each is emitted exactly once under its key.
  const properties: JsonObject = {};
  for (const def of surface.definitions)
    properties[def.key] = { $ref: refTo(surface.defsKeyword, def.key) };
  const root: JsonObject = {
    type: "object",
    additionalProperties: false,
    properties,
    [surface.defsKeyword]: defs,
  };
  const names = new Map(surface.definitions.map((d) => [d.key, d.name]));

  const raw = await compile(root as never, ROOT_NAME, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { external: false } } as never,
    customName: (_schema, keyName) => (keyName === undefined ? undefined : names.get(keyName)),
  });

  const body = placeholders.restore(tidy(raw));
  checkDeclaredNames(surface, body);
  return {
    path: `${surface.id}/types.d.ts`,
    // With no definitions the file must still be a module, or importing it fails to compile.
    content: `${banner(surface.schemaFile.name)}\n${body}${surface.definitions.length === 0 ? "export {};\n" : ""}`,
  };
}

/**
 * json-schema-to-typescript calls `schema.hasOwnProperty(…)` on the objects it walks, so a
 * property *named* `hasOwnProperty` (or any other Object.prototype member) crashes it.
 * Such keys go in as unique placeholder identifiers and are put back, quoted, afterwards.
 */
class PlaceholderKeys {
  private readonly originals: string[] = [];
  private readonly shadowing = new Set(Object.getOwnPropertyNames(Object.prototype));

  readonly rule = {
    name: "placeholder-prototype-keys",
    reason: "see PlaceholderKeys",
    apply: (node: JsonObject): JsonObject => {
      if (!isObject(node.properties)) return node;
      const keys = Object.keys(node.properties);
      if (!keys.some((k) => this.shadowing.has(k))) return node;
      const rename = (k: string) => (this.shadowing.has(k) ? this.placeholder(k) : k);
      const properties = Object.fromEntries(
        keys.map((k) => [rename(k), (node.properties as JsonObject)[k] as Json]),
      );
      const required = Array.isArray(node.required)
        ? node.required.map((r) => (typeof r === "string" ? rename(r) : r))
        : node.required;
      return required === undefined ? { ...node, properties } : { ...node, properties, required };
    },
  };

  private placeholder(original: string): string {
    let index = this.originals.indexOf(original);
    if (index < 0) index = this.originals.push(original) - 1;
    return `AcpCodegenPlaceholderKey${index}`;
  }

  restore(text: string): string {
    return text.replace(/\bAcpCodegenPlaceholderKey(\d+)\b/g, (_, i: string) =>
      literal(this.originals[Number(i)] ?? ""),
    );
  }
}

function typesInput(def: Definition): Json {
  const patched = applyRules(def.schema, [
    stripTitles,
    refBesideKeywords,
    splitPropertiesFromUnion,
    escapeCommentTerminators,
  ]);
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

/** The declared names must be exactly the definitions: anything else is a silent rename. */
function checkDeclaredNames(surface: SurfaceModel, body: string): void {
  const declared = new Set(
    [...body.matchAll(/^export (?:interface|type|enum|const enum) ([A-Za-z_$][\w$]*)/gm)].map(
      (m) => m[1] as string,
    ),
  );
  const expected = new Map(surface.definitions.map((d) => [d.name, d.key]));
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
