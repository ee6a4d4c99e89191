import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { mapSchema } from "../schema/walk.js";

/**
 * json-schema-to-typescript calls `schema.hasOwnProperty(…)` on the objects it walks, so a
 * property *named* `hasOwnProperty` (or any other Object.prototype member) crashes it.
 * Such keys go in as unique placeholder identifiers (`encode`) and are put back in the
 * generated text afterwards (`restore`), quoted by the caller's `quote`.
 */
export class PlaceholderKeys {
  private readonly originals: string[] = [];
  private readonly shadowing = new Set(Object.getOwnPropertyNames(Object.prototype));

  constructor(private readonly quote: (key: string) => string) {}

  /** `schema` with every property named like an Object.prototype member renamed. */
  encode(schema: Json): Json {
    return mapSchema(schema, (node) => this.encodeNode(node));
  }

  private encodeNode(node: JsonObject): JsonObject {
    if (!isObject(node.properties)) return node;
    const keys = Object.keys(node.properties);
    if (!keys.some((k) => this.shadowing.has(k))) return node;
    const rename = (k: string) => (this.shadowing.has(k) ? this.placeholder(k) : k);
    const properties = Object.fromEntries(
      keys.map((k) => [rename(k), (node.properties as JsonObject)[k] as Json]),
    );
    const required = Array.isArray(node.required)
      ? node.required.map((r) => (typeof r === "string" ? rename(r) : r))
      : node.required;
    return required === undefined ? { ...node, properties } : { ...node, properties, required };
  }

  private placeholder(original: string): string {
    let index = this.originals.indexOf(original);
    if (index < 0) index = this.originals.push(original) - 1;
    return `AcpCodegenPlaceholderKey${index}`;
  }

  /** The generated text with every placeholder back as the original key, quoted. */
  restore(text: string): string {
    return text.replace(/\bAcpCodegenPlaceholderKey(\d+)\b/g, (_, i: string) =>
      this.quote(this.originals[Number(i)] ?? ""),
    );
  }
}
