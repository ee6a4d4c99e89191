import { isObject, type Json } from "./json.js";

/** Structural equality that ignores key order (upstream may reorder keys between releases). */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return (
      Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as Json))
    );
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as Json, b[k] as Json));
  }
  return false;
}

/**
 * The canonical form of a JSON value: JSON with sorted keys, so equal values (whatever
 * their key order) have one text. A stable identity for schemas and literals.
 */
export function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
