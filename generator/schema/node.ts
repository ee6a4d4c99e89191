import { isObject, type Json, type JsonObject } from "./json.js";
import { ANNOTATION_KEYWORDS, STANDARD_KEYWORDS } from "./keywords.js";
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
 * The ref of a schema that is nothing but a reference, annotations aside: `{"$ref": …}`,
 * or a one-item `allOf` of one (as schemars writes a reference with a description).
 */
export function soleRef(schema: Json): string | undefined {
  if (!isObject(schema)) return undefined;
  const keys = Object.keys(assertions(schema));
  if (keys.length !== 1) return undefined;
  if (keys[0] === "$ref") return typeof schema.$ref === "string" ? schema.$ref : undefined;
  if (keys[0] === "allOf" && Array.isArray(schema.allOf) && schema.allOf.length === 1)
    return soleRef(schema.allOf[0] as Json);
  return undefined;
}
