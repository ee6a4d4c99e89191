/**
 * The definition key a local `$ref` names. The loader has already rejected any other kind
 * of ref, so this only has to undo the URI and JSON-pointer escaping.
 */
export function refTarget(ref: string, defsKeyword: string): string {
  const prefix = `#/${defsKeyword}/`;
  const raw = ref.startsWith(prefix) ? ref.slice(prefix.length) : ref;
  return decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
}
