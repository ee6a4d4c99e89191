import { jsonEqual } from "../schema/equal.js";
import { isObject, type Json } from "../schema/json.js";
import { directRefs } from "../schema/refs.js";

/**
 * Definition keys of `unstable` that are the same as in `stable`: a definition is the same
 * only if its own schema is equal *and* everything it references is the same, so a change
 * deep inside a referenced type marks every type that can reach it.
 */
export function sameDefinitions(
  stable: Record<string, Json>,
  unstable: Record<string, Json>,
  defsKeyword: string,
  /**
   * Where each definition's references are read: `unstable` itself, unless its schemas were
   * prepared for a backend whose rules rewrite `$ref` (then the schemas as written).
   */
  references: Record<string, Json> = unstable,
): Set<string> {
  const same = new Set(
    Object.keys(unstable).filter(
      (k) => Object.hasOwn(stable, k) && jsonEqual(stable[k] as Json, unstable[k] as Json),
    ),
  );
  const refs = new Map([...same].map((k) => [k, directRefs(references[k] ?? null, defsKeyword)]));
  let changed = true;
  while (changed) {
    changed = false;
    for (const key of same) {
      if ([...(refs.get(key) ?? [])].some((r) => !same.has(r))) {
        same.delete(key);
        changed = true;
      }
    }
  }
  return same;
}

/** Top-level property names of `unstable` that `stable` lacks (both taken at their top level). */
export function addedProperties(stable: Json | undefined, unstable: Json): string[] {
  const props = (s: Json | undefined) =>
    isObject(s) && isObject(s.properties) ? Object.keys(s.properties) : [];
  const before = new Set(props(stable));
  return props(unstable).filter((p) => !before.has(p));
}
