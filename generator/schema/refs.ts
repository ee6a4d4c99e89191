import { isObject, type Json } from "./json.js";
import { escapePointerToken, unescapePointerToken } from "./pointer.js";
import { forEachJson } from "./walk.js";

/**
 * Local references (`#/$defs/Name`), the only kind the generator accepts: encoded and
 * decoded here and nowhere else. A ref is a URI fragment holding a JSON pointer, so a key
 * is pointer-escaped (`~0`, `~1`) and then percent-encoded where a fragment needs it.
 */

/** Characters a URI fragment may hold as they are (RFC 3986: pchar, `/` and `?`). */
const FRAGMENT_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

/** The ref to definition `key`: `refTo("$defs", "Foo")` is `#/$defs/Foo`. */
export function refTo(defsKeyword: string, key: string): string {
  const token = [...escapePointerToken(key)]
    .map((c) => (FRAGMENT_SAFE.test(c) ? c : encodeURIComponent(c)))
    .join("");
  return `#/${defsKeyword}/${token}`;
}

/**
 * The definition key a local ref names: `#/$defs/Foo` → `Foo`. Undefined when the ref is
 * not of that form (another prefix, a pointer deeper than one token, malformed escapes).
 */
export function refTarget(ref: string, defsKeyword: string): string | undefined {
  const prefix = `#/${defsKeyword}/`;
  if (!ref.startsWith(prefix)) return undefined;
  const token = ref.slice(prefix.length);
  if (token.includes("/")) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    return undefined;
  }
  return unescapePointerToken(decoded);
}

/** The ref of a node that is nothing but `{"$ref": …}`. */
export function onlyRef(node: Json): string | undefined {
  return isObject(node) && typeof node.$ref === "string" && Object.keys(node).length === 1
    ? node.$ref
    : undefined;
}

/**
 * Definition keys `node` refers to, directly, anywhere in it (data included: a `$ref`
 * inside a `default` is checked by the loader like any other, so it counts here too).
 */
export function directRefs(node: Json, defsKeyword: string, out = new Set<string>()): Set<string> {
  forEachJson(node, (value, path, inNames) => {
    if (inNames || path.at(-1) !== "$ref" || typeof value !== "string") return;
    const key = refTarget(value, defsKeyword);
    if (key !== undefined) out.add(key);
  });
  return out;
}

/**
 * The definitions that can contain themselves: those on a cycle of references (`ContentBlock`
 * → … → `ContentBlock`). A value of any other one is nested no deeper than its schema.
 */
export function selfNesting(
  defs: Readonly<Record<string, Json>>,
  defsKeyword: string,
): Set<string> {
  const edges = new Map<string, Set<string>>();
  for (const [key, schema] of Object.entries(defs)) edges.set(key, directRefs(schema, defsKeyword));
  const out = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (next === start) {
        out.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return out;
}
