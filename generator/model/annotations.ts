import type { FillPlan } from "../../templates/runtime/parse.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";

/**
 * The `x-deserialize-*` annotations and defaults, as the reference implementation applies
 * them: what each means for one property. The repair plan (invalid values) and the shape
 * plan (valid values) both read them from here.
 */
export const ON_ERROR = "x-deserialize-default-on-error";
export const ON_NULL = "x-deserialize-default-on-null";
export const SKIP_INVALID = "x-deserialize-skip-invalid-items";

/**
 * What replaces a value that fails `x-deserialize-default-on-error`. The reference
 * implementation (serde_with's DefaultOnError) falls back to the Rust type's
 * `Default`, which the schema shows as `default` when it is not the type's natural empty
 * value. So: the schema's `default`; else the empty value of a non-nullable array
 * (`Vec`) or map (`HashMap`), which is what `Default` gives for those; else, for an
 * optional property (`Option`, default `None`), no property at all. A required property
 * with neither stays invalid, and parsing fails.
 */
export function fallbackFor(
  sub: JsonObject,
  required: boolean,
): { value: Json } | "omit" | undefined {
  if (Object.hasOwn(sub, "default")) return { value: sub.default as Json };
  const empty = emptyValue(sub);
  if (empty !== undefined) return empty;
  return required ? undefined : "omit";
}

/** What `x-deserialize-default-on-null` turns an explicit `null` into, if anything. */
export function nullReplacement(sub: JsonObject): { value: Json } | undefined {
  if (sub[ON_NULL] !== true) return undefined;
  return Object.hasOwn(sub, "default") ? { value: sub.default as Json } : emptyValue(sub);
}

/**
 * What serde changes in a *valid* value at this property: a missing optional property
 * with a `default` is filled in (`#[serde(default)]`; a required one cannot be missing),
 * and an explicit `null` the schema admits becomes `x-deserialize-default-on-null`'s value.
 */
export function validFill(name: string, sub: JsonObject, required: boolean): FillPlan | undefined {
  const fill: { name: string; default?: Json; onNull?: Json } = { name };
  if (Object.hasOwn(sub, "default") && !required) fill.default = sub.default as Json;
  const onNull = nullReplacement(sub);
  if (onNull !== undefined && admitsNull(sub)) fill.onNull = onNull.value;
  return Object.keys(fill).length > 1 ? fill : undefined;
}

/** `[]` for an array type, `{}` for a map type (an object with only `additionalProperties`). */
export function emptyValue(sub: JsonObject): { value: Json } | undefined {
  if (sub.type === "array") return { value: [] };
  if (sub.type === "object" && !isObject(sub.properties) && sub.additionalProperties !== undefined)
    return { value: {} };
  return undefined;
}

export function admitsNull(sub: JsonObject): boolean {
  if (sub.type === "null" || (Array.isArray(sub.type) && sub.type.includes("null"))) return true;
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = sub[keyword];
    if (Array.isArray(list) && list.some((b) => isObject(b) && b.type === "null")) return true;
  }
  return false;
}
