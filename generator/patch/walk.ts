import { isObject, type Json, type JsonObject } from "../load/json-types.js";

/** Keywords whose value is one subschema. */
const SINGLE = new Set([
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "contains",
  "propertyNames",
  "contentSchema",
]);
/** Keywords whose value is an array of subschemas. */
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/**
 * Rebuild a schema bottom-up, calling `visit` on every subschema after its children.
 * Only schema positions are visited: a property *named* `title`, or an object inside
 * `const`/`enum`/`default`, is data and is never touched. The input is never mutated.
 */
export function mapSchema(
  schema: Json,
  visit: (node: JsonObject, path: string[]) => Json,
  path: string[] = [],
): Json {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SINGLE.has(key) || (key === "items" && !Array.isArray(value))) {
      out[key] = mapSchema(value, visit, [...path, key]);
    } else if ((LIST.has(key) || key === "items") && Array.isArray(value)) {
      out[key] = value.map((item, i) => mapSchema(item, visit, [...path, key, String(i)]));
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      const map: JsonObject = {};
      for (const [name, sub] of Object.entries(value))
        map[name] = mapSchema(sub, visit, [...path, key, name]);
      out[key] = map;
    } else {
      out[key] = value;
    }
  }
  return visit(out, path);
}

/** Visit every subschema (read-only), top-down, with its path of keywords and names. */
export function forEachSchema(
  schema: Json,
  visit: (node: JsonObject, path: string[]) => void,
  path: string[] = [],
): void {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    if (SINGLE.has(key) || (key === "items" && !Array.isArray(value))) {
      forEachSchema(value, visit, [...path, key]);
    } else if ((LIST.has(key) || key === "items") && Array.isArray(value)) {
      for (const [i, item] of value.entries())
        forEachSchema(item, visit, [...path, key, String(i)]);
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value))
        forEachSchema(sub, visit, [...path, key, name]);
    }
  }
}

/** Every JSON Schema 2020-12 keyword (core, applicator, validation, unevaluated, format, content, meta-data). */
export const STANDARD_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "definitions",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "prefixItems",
  "items",
  "contains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
]);

/** Keywords that only annotate: they never change whether an instance is valid. */
export const ANNOTATION_KEYWORDS = new Set([
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "$comment",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);
