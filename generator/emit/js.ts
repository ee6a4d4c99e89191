/** Writing JavaScript source: literals that are safe whatever the schema holds. */

/** A JavaScript/TypeScript string literal that is safe for any input (quotes, U+2028, `${`). */
export function literal(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A property key: bare when it is a plain identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/** Text that ends up in a block comment (definition keys, the schema's prose): keep it closed. */
export function commentSafe(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** Prose for a one-line doc comment: closed, on one line. */
export function commentLine(text: string): string {
  return commentSafe(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

export interface LiteralStyle {
  /** How an empty object is written: `{}` unless said otherwise. */
  emptyObject?: string;
  /** Keys whose values are JSON data, written in the default style whatever this one says. */
  dataKeys?: ReadonlySet<string>;
}

/**
 * A JSON-shaped value (objects, arrays, strings, numbers, booleans, null) as a JavaScript
 * literal: `{ key: value, … }`, `[a, b]`. Keys whose value is `undefined` are left out. A
 * `__proto__` key is written computed (`["__proto__"]: …`): written plainly, an object
 * literal would set the prototype instead.
 */
export function jsLiteral(value: unknown, style: LiteralStyle = {}): string {
  if (Array.isArray(value)) return `[${value.map((v) => jsLiteral(v, style)).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => {
        const key = k === "__proto__" ? `[${literal(k)}]` : propertyKey(k);
        return `${key}: ${jsLiteral(v, style.dataKeys?.has(k) ? {} : style)}`;
      });
    return entries.length === 0 ? (style.emptyObject ?? "{}") : `{ ${entries.join(", ")} }`;
  }
  if (typeof value === "string") return literal(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null)
    return JSON.stringify(value);
  throw new Error(`internal error: ${typeof value} has no JSON literal`);
}
