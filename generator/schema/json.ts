/** A parsed JSON value, as JSON.parse returns it. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON Schema `type` a value has; a whole number is an `integer` (and a `number`). */
export function jsonType(
  value: Json,
): "null" | "array" | "integer" | "number" | "string" | "boolean" | "object" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as "string" | "boolean" | "object";
}
