import { canonical } from "../schema/equal.js";
import type { Json } from "../schema/json.js";

/** Code-unit order: the same on every machine, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A JSON value short enough for a one-line description. */
export function show(value: Json): string {
  const text = canonical(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
