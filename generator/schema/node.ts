import { isObject, type Json, type JsonObject } from "./json.js";
import { ANNOTATION_KEYWORDS, PROSE_KEYWORDS, STANDARD_KEYWORDS } from "./keywords.js";
import { mapSchema, someSchema } from "./walk.js";

/** Reading what one schema node says, the same way for every stage. */

/** `type` as a list (`"string"` → `["string"]`); undefined when the node does not say. */
export function typesOf(node: JsonObject): string[] | undefined {
  const type = node.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/** The union keyword at the root of `node`: `oneOf` when it holds a list, else `anyOf`. */
export function unionKeyword(node: JsonObject): "oneOf" | "anyOf" | undefined {
  if (Array.isArray(node.oneOf)) return "oneOf";
  if (Array.isArray(node.anyOf)) return "anyOf";
  return undefined;
}

/** The one value a node pins: its `const`, or the value of a one-value `enum`. */
export function literalOf(node: JsonObject): Json | undefined {
  if (Object.hasOwn(node, "const")) return node.const as Json;
  if (Array.isArray(node.enum) && node.enum.length === 1) return node.enum[0] as Json;
  return undefined;
}

/** The tag property an OpenAPI-style `discriminator` names, if the node has one. */
export function discriminatorOf(node: JsonObject): string | undefined {
  const d = node.discriminator;
  return isObject(d) && typeof d.propertyName === "string" ? d.propertyName : undefined;
}

/** The names `required` lists (strings only). */
export function requiredOf(node: JsonObject): string[] {
  return Array.isArray(node.required)
    ? node.required.filter((r): r is string => typeof r === "string")
    : [];
}

/**
 * The schema without keywords that cannot change validity, at every depth: annotations,
 * the ACP vocabulary (`discriminator` is only a dispatch hint) and unknown keywords.
 */
export function assertions(schema: JsonObject): JsonObject {
  return mapSchema(schema, (node) =>
    Object.fromEntries(
      Object.entries(node).filter(
        ([key]) => !ANNOTATION_KEYWORDS.has(key) && STANDARD_KEYWORDS.has(key),
      ),
    ),
  ) as JsonObject;
}

/** True for a node that holds a `$ref` or `$dynamicRef` anywhere in its subschemas. */
export function containsRef(schema: Json): boolean {
  if (Array.isArray(schema)) return schema.some(containsRef);
  return someSchema(
    schema,
    (node) => typeof node.$ref === "string" || typeof node.$dynamicRef === "string",
  );
}

/**
 * Keywords that make which keys an object may hold depend on more than its `properties`:
 * where one applies, dropping an undeclared key could change whether the object is valid,
 * and the reference's struct (if there is one) is not what the schema shows, so every key
 * is kept.
 */
const KEY_DEPENDENT_KEYWORDS = [
  ...["patternProperties", "propertyNames", "unevaluatedProperties"],
  ...["dependentRequired", "dependentSchemas", "minProperties", "maxProperties"],
  ...["if", "not"],
] as const;

export interface ObjectKeys {
  /** The names the node declares: its `properties`, then names only `required` lists. */
  declared: string[];
  /** The schema of each declared name (`true` for a name only `required` lists). */
  schemas: Map<string, Json>;
  /**
   * Keys beyond `declared`: `"dropped"` for a struct (serde ignores unknown fields and
   * keeps none), the schema their values must match where the node admits them (`true`:
   * any value: a `serde_json::Value` map, `_meta`), or undefined where the node says
   * nothing about an object's keys (a bare `allOf`/`$ref`/union, or a non-object type).
   */
  others?: "dropped" | Json;
}

/**
 * Which keys an object valid under `node` keeps, as the reference deserializes it, from
 * this node alone (its `allOf` parts, references and union branches say their own).
 */
export function objectKeys(node: Json): ObjectKeys {
  const declared: string[] = [];
  const schemas = new Map<string, Json>();
  if (node === true) return { declared, schemas, others: true };
  if (!isObject(node)) return { declared, schemas };
  const types = typesOf(node);
  if (types && !types.includes("object")) return { declared, schemas };
  if (isObject(node.properties))
    for (const [name, sub] of Object.entries(node.properties)) {
      declared.push(name);
      schemas.set(name, sub as Json);
    }
  for (const name of requiredOf(node))
    if (!schemas.has(name)) {
      declared.push(name);
      schemas.set(name, true);
    }
  const extra = node.additionalProperties;
  if (extra === false) return { declared, schemas, others: "dropped" };
  if (extra !== undefined) return { declared, schemas, others: extra as Json };
  if (KEY_DEPENDENT_KEYWORDS.some((k) => Object.hasOwn(node, k) && node[k] !== false))
    return { declared, schemas, others: true };
  if (node.unevaluatedProperties === false) return { declared, schemas, others: "dropped" };
  if (declared.length > 0) return { declared, schemas, others: "dropped" };
  // No statement about keys, no composition: a free-form object (`{}`, `{"type": "object"}`,
  // a literal); serde would need declared fields to describe a struct.
  const composed = ["allOf", "anyOf", "oneOf", "$ref"].some((k) => Object.hasOwn(node, k));
  return composed ? { declared, schemas } : { declared, schemas, others: true };
}

/**
 * The ref of a schema that is nothing but a reference, annotations aside: `{"$ref": …}`,
 * or a one-item `allOf` of one (as schemars writes a reference with a description).
 * `keep` names nodes that must stay themselves although they only refer (a parsing
 * annotation on them).
 */
export function soleRef(
  schema: Json,
  keep: (node: JsonObject) => boolean = () => false,
): string | undefined {
  if (!isObject(schema) || keep(schema)) return undefined;
  const keys = Object.keys(assertions(schema));
  if (keys.length !== 1) return undefined;
  if (keys[0] === "$ref") return typeof schema.$ref === "string" ? schema.$ref : undefined;
  if (keys[0] === "allOf" && Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return soleRef(schema.allOf[0] as Json, keep);
  return undefined;
}

/**
 * The ref of a schema that is a reference, alone or beside `null`: `soleRef`, or a
 * two-branch `anyOf`/`oneOf` of such a reference and `{"type": "null"}` (how the schema
 * writes an optional struct that may also be sent as null).
 */
export function refOrNull(schema: Json): string | undefined {
  const sole = soleRef(schema);
  if (sole !== undefined || !isObject(schema)) return sole;
  const keyword = unionKeyword(schema);
  const keys = Object.keys(assertions(schema));
  if (!keyword || keys.length !== 1 || keys[0] !== keyword) return undefined;
  const branches = schema[keyword] as Json[];
  if (branches.length !== 2) return undefined;
  const isNull = (b: Json) => isObject(b) && b.type === "null" && Object.keys(b).length === 1;
  const other = branches.find((b) => !isNull(b));
  if (other === undefined || !branches.some(isNull)) return undefined;
  return soleRef(other);
}

/**
 * The schema without its prose (descriptions, titles, examples, comments: keywords.ts
 * `PROSE_KEYWORDS`), at every depth: what a value must be and how it is read, with nothing
 * that only documents it. Two definitions equal this way admit and read the same values.
 */
export function withoutProse(schema: Json): Json {
  return mapSchema(schema, (node) => {
    if (!PROSE.some((k) => Object.hasOwn(node, k))) return node;
    return Object.fromEntries(Object.entries(node).filter(([key]) => !PROSE.includes(key)));
  });
}

const PROSE: readonly string[] = PROSE_KEYWORDS;
