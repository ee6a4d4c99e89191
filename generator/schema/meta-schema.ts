import Ajv2020Module, { type ErrorObject } from "ajv/dist/2020.js";
import { isObject, type Json, jsonType } from "./json.js";
import { keyword } from "./keywords.js";
import { unescapePointerToken } from "./pointer.js";
import { forEachSchema } from "./walk.js";

const Ajv2020 = Ajv2020Module.default;

/** JSON Schema 2020-12's own meta-schema: what a schema written in that dialect must be. */
export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** One way a document fails a check: where (a JSON pointer into it) and what. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

let validator: ReturnType<InstanceType<typeof Ajv2020>["getSchema"]>;

/**
 * The meta-schema's validator, ajv's copy of it (ajv ships the 2020-12 meta-schemas).
 * Formats are annotations here: `pattern` is checked on its own, as a Unicode regular
 * expression (load/hostile.ts), and ajv would otherwise warn on stderr that it does not
 * know the `regex` format the meta-schema names.
 */
function metaValidator(): NonNullable<typeof validator> {
  validator ??= new Ajv2020({ allErrors: false, validateFormats: false }).getSchema(DRAFT_2020_12);
  if (validator === undefined) throw new Error("internal error: ajv has no 2020-12 meta-schema");
  return validator;
}

/** The value a JSON pointer names in `root` (undefined where it names nothing). */
function at(root: Json, path: string): Json | undefined {
  let node: Json | undefined = root;
  for (const token of path.split("/").slice(1)) {
    const name = unescapePointerToken(token);
    if (Array.isArray(node)) node = node[Number(name)];
    else if (isObject(node)) node = Object.hasOwn(node, name) ? node[name] : undefined;
    else return undefined;
  }
  return node;
}

const ARTICLE: Record<string, string> = {
  array: "an array",
  boolean: "a boolean",
  integer: "an integer",
  null: "null",
  number: "a number",
  object: "an object",
  string: "a string",
};

function found(value: Json | undefined): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `${ARTICLE[jsonType(value)] ?? jsonType(value)} (${shown})`;
}

/** What one failed check of the meta-schema means, for a person. */
function phrase(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return `must be ${String(params.type)
        .split(",")
        .map((t) => ARTICLE[t] ?? t)
        .join(" or ")}`;
    case "enum":
      return `must be one of ${(params.allowedValues as Json[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

/**
 * The first place where `schema` is not a JSON Schema 2020-12 schema, by the dialect's own
 * meta-schema, or undefined when it is one. The message names the keyword, what it must be
 * (every alternative the meta-schema allows there) and what was found.
 */
export function metaSchemaProblem(schema: Json): SchemaProblem | undefined {
  const validate = metaValidator();
  if (validate(schema)) return undefined;
  const errors = (validate.errors ?? []).filter(
    (e) => e.keyword !== "anyOf" && e.keyword !== "oneOf",
  );
  // The deepest place first: an `anyOf`'s branches report at the value that failed them all.
  const depth = (e: ErrorObject) => e.instancePath.split("/").length;
  const deepest = Math.max(...errors.map(depth));
  const here = errors.filter((e) => depth(e) === deepest);
  const first = here[0];
  if (first === undefined) return { pointer: "", message: "not a JSON Schema 2020-12 schema" };
  const name = first.instancePath.split("/").at(-1) ?? "";
  const what = keyword(unescapePointerToken(name)) ? `${name} ` : "";
  const phrases = [...new Set(here.map(phrase))];
  const alternatives = phrases.every((p) => p.startsWith("must be "))
    ? `must be ${phrases.map((p) => p.slice("must be ".length)).join(", or ")}`
    : phrases.join(", or ");
  return {
    pointer: first.instancePath,
    message: `not valid JSON Schema 2020-12: ${what}${alternatives}; found ${found(at(schema, first.instancePath))}`,
  };
}

export interface UndeclaredRequired {
  /** JSON pointer tokens from the schema given to the `required` entry. */
  path: string[];
  name: string;
  /** The names the node does declare. */
  declared: string[];
}

/** `"nonse" is required, but the properties beside it are sessionId, nonce`: a finding as words. */
export function undeclaredMessage({ name, declared }: UndeclaredRequired): string {
  const shown = declared.length > 8 ? [...declared.slice(0, 8), "…"] : declared;
  return `${JSON.stringify(name)} is required but is not one of the properties beside it (${shown.join(", ")}): a typo?`;
}

/**
 * Names an object schema requires but does not declare: on a node with `properties`, a
 * `required` name that is not one of them and that no `patternProperties` pattern matches.
 * Almost always a typo (`nonse` for `nonce`): the types then describe the declared,
 * optional property while validators demand the other one. A node that composes other
 * schemas (`allOf`, `$ref`, …) may declare the name there: only inline `allOf` parts are
 * read, and any other composition leaves its names alone.
 */
export function undeclaredRequired(schema: Json): UndeclaredRequired[] {
  const problems: UndeclaredRequired[] = [];
  forEachSchema(schema, (node, path) => {
    if (!Array.isArray(node.required) || !isObject(node.properties)) return;
    const declared = declaredNames(node);
    if (declared === undefined) return;
    const patterns = isObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
    node.required.forEach((name, i) => {
      if (typeof name !== "string" || declared.has(name)) return;
      if (patterns.some((p) => matches(p, name))) return;
      problems.push({ path: [...path, "required", String(i)], name, declared: [...declared] });
    });
  });
  return problems;
}

/** The property names a node and its inline `allOf` parts declare; undefined when other schemas may declare more. */
function declaredNames(node: Json): Set<string> | undefined {
  if (!isObject(node)) return node === true ? new Set() : undefined;
  const composes = ["$ref", "$dynamicRef", "anyOf", "oneOf", "if", "dependentSchemas"].some((k) =>
    Object.hasOwn(node, k),
  );
  if (composes) return undefined;
  const names = new Set(isObject(node.properties) ? Object.keys(node.properties) : []);
  if (Array.isArray(node.allOf))
    for (const part of node.allOf) {
      const more = declaredNames(part);
      if (more === undefined) return undefined;
      for (const name of more) names.add(name);
    }
  return names;
}

function matches(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, "u").test(name);
  } catch {
    return true; // an invalid pattern is reported where patterns are checked
  }
}
