import { InputError, pointer } from "../errors.js";
import { isObject, type Json } from "./json-types.js";

/** Keywords whose values are maps from arbitrary names to subschemas. */
const NAME_MAPS = new Set([
  "properties",
  "$defs",
  "definitions",
  "patternProperties",
  "dependentSchemas",
]);

/**
 * Every `$ref` must be local (`#/$defs/Name`) and point at an existing definition: the
 * generated package has no way to fetch external documents, and a dangling ref would
 * silently become `unknown` in the types.
 */
export function checkRefs(
  file: string,
  root: Json,
  defsKeyword: string,
  defs: Record<string, Json>,
): void {
  const visit = (node: Json, path: Array<string | number>): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, [...path, i]);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref") {
        const at = pointer(...path, "$ref");
        if (typeof value !== "string") throw new InputError(file, at, "$ref must be a string");
        const prefix = `#/${defsKeyword}/`;
        if (!value.startsWith(prefix)) {
          throw new InputError(
            file,
            at,
            `unsupported $ref ${JSON.stringify(value)}: only local refs of the form ${prefix}Name are supported`,
          );
        }
        const target = decodeURIComponent(value.slice(prefix.length))
          .replace(/~1/g, "/")
          .replace(/~0/g, "~");
        if (!Object.hasOwn(defs, target))
          throw new InputError(
            file,
            at,
            `dangling $ref ${JSON.stringify(value)}: no such definition`,
          );
        continue;
      }
      if (NAME_MAPS.has(key) && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) visit(sub, [...path, key, name]);
      } else {
        visit(value, [...path, key]);
      }
    }
  };
  visit(root, []);
}

/** Definition keys referenced (directly) from a schema node. */
export function directRefs(node: Json, defsKeyword: string, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) directRefs(item, defsKeyword, out);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        out.add(
          decodeURIComponent(value.slice(defsKeyword.length + 3))
            .replace(/~1/g, "/")
            .replace(/~0/g, "~"),
        );
      } else {
        directRefs(value, defsKeyword, out);
      }
    }
  }
  return out;
}
