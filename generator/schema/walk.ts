import { isObject, type Json, type JsonObject } from "./json.js";
import { keyword, SUBSCHEMA_MAP_KEYWORDS } from "./keywords.js";

/**
 * The one walker. Schema walks (`mapSchema`, `forEachSchema`, `someSchema`) visit schema
 * positions only, as `keywords.ts` says where subschemas sit: a property *named* `title`,
 * or an object inside `const`/`enum`/`default`, is data and is never visited. `forEachJson`
 * visits every value of a document, data included, for checks that must see everything.
 */

/** Tokens from a node to one of its subschemas: the keyword, then an index or a name. */
export type SchemaPath = string[];

/**
 * The value of `key` with each subschema it holds replaced by `child(subschema, tokens)`,
 * or `undefined` when the keyword holds no subschemas (or its value is not of that shape).
 */
function mapSubschemas(
  key: string,
  value: Json,
  child: (schema: Json, tokens: string[]) => Json,
): Json | undefined {
  const shape = keyword(key)?.subschemas;
  if (shape === "one" || (shape === "one-or-list" && !Array.isArray(value)))
    return child(value, [key]);
  if ((shape === "list" || shape === "one-or-list") && Array.isArray(value))
    return value.map((item, i) => child(item, [key, String(i)]));
  if (shape === "map" && isObject(value)) {
    const map: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) map[name] = child(sub, [key, name]);
    return map;
  }
  return undefined;
}

/**
 * Rebuild a schema bottom-up, calling `visit` on every subschema after its children.
 * The input is never mutated; every object on a schema position is a fresh copy.
 */
export function mapSchema(
  schema: Json,
  visit: (node: JsonObject, path: SchemaPath) => Json,
  path: SchemaPath = [],
): Json {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    const mapped = mapSubschemas(key, value, (sub, tokens) =>
      mapSchema(sub, visit, [...path, ...tokens]),
    );
    out[key] = mapped === undefined ? value : mapped;
  }
  return visit(out, path);
}

/** Visit every subschema (read-only), top-down, with its path of keywords and names. */
export function forEachSchema(
  schema: Json,
  visit: (node: JsonObject, path: SchemaPath) => void,
  path: SchemaPath = [],
): void {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    mapSubschemas(key, value, (sub, tokens) => {
      forEachSchema(sub, visit, [...path, ...tokens]);
      return sub;
    });
  }
}

/** True when some subschema of `schema` (itself included) satisfies `test`. */
export function someSchema(schema: Json, test: (node: JsonObject) => boolean): boolean {
  let found = false;
  forEachSchema(schema, (node) => {
    if (!found && test(node)) found = true;
  });
  return found;
}

/**
 * Visit every value of a JSON document, pre-order, with its path. `inNames` tells that the
 * value is an entry of a name map (`properties`, `$defs`…): its key is a name, not a keyword,
 * so a property named `$ref` is not a reference.
 */
export function forEachJson(
  value: Json,
  visit: (value: Json, path: Array<string | number>, inNames: boolean) => void,
): void {
  const walk = (node: Json, path: Array<string | number>, inNames: boolean, isNames: boolean) => {
    visit(node, path, inNames);
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, [...path, i], false, false);
    } else if (isObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        const names = !isNames && SUBSCHEMA_MAP_KEYWORDS.has(key) && isObject(child);
        walk(child, [...path, key], isNames, names);
      }
    }
  };
  walk(value, [], false, false);
}
