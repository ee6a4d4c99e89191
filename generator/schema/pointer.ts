/** Encode one reference token of a JSON pointer (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Decode one reference token of a JSON pointer (RFC 6901). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The JSON pointer made of `tokens`: `pointer("$defs", "a/b")` is `/$defs/a~1b`; none is `""`. */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join("");
}
