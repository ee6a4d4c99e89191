/**
 * The top-level declarations of TypeScript declaration text the generator wrote (types.d.ts):
 * where each begins and ends, the name it declares and the names its code uses. A scanner, not
 * a parser: it knows comments, string literals and bracket depth, which is all it takes to cut
 * json-schema-to-typescript's output and the generator's own `export declare const` lines.
 */
export interface Declaration {
  /** The declared name (`interface X`, `type X`, `declare const X`); none for `export {};`. */
  name?: string;
  /** A type (interface, alias) or a value (`declare const`). */
  kind: "type" | "value";
  exported: boolean;
  /** Its text, its doc comment included, without the newline that ends it. */
  text: string;
  /** Identifiers in its code (not in comments or string literals), its own name left out. */
  references: ReadonlySet<string>;
}

/** What may begin a top-level declaration at the start of a line. */
const STARTS = /^(?:\/\*|export |declare |type |interface )/;
const HEADER =
  /^(export\s+)?(?:declare\s+)?(interface|type|const|let|var|function|class|enum)\s+([A-Za-z_$][\w$]*)/;

export function splitDeclarations(text: string): Declaration[] {
  const pieces: Array<{ start: number; code: string }> = [];
  let start = 0;
  let code = "";
  let depth = 0;
  const close = (at: number) => {
    if (at > start) pieces.push({ start, code });
    start = at;
    code = "";
  };
  // Code is copied a run at a time: from `run` to where a comment or string begins.
  let run = 0;
  for (let i = 0; i < text.length; ) {
    // A new declaration begins at a line start outside any bracket, once the one before it has
    // code of its own (its doc comment belongs to it).
    if ((i === 0 || text[i - 1] === "\n") && depth === 0) {
      code += text.slice(run, i);
      run = i;
      if (code.trim() !== "" && STARTS.test(text.slice(i, i + 12))) close(i);
    }
    const c = text[i] as string;
    if (c === "/" && (text[i + 1] === "*" || text[i + 1] === "/")) {
      const block = text[i + 1] === "*";
      const end = block ? text.indexOf("*/", i + 2) : text.indexOf("\n", i);
      code += `${text.slice(run, i)} `;
      i = end < 0 ? text.length : block ? end + 2 : end;
      run = i;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      code += `${text.slice(run, i)} "" `;
      i = j + 1;
      run = i;
    } else {
      if (c === "{" || c === "(" || c === "[") depth++;
      else if (c === "}" || c === ")" || c === "]") depth--;
      i++;
    }
  }
  code += text.slice(run);
  close(text.length);
  return pieces.map(({ start: from, code }, n): Declaration => {
    const to = pieces[n + 1] ? (pieces[n + 1] as { start: number }).start : text.length;
    const own = text.slice(from, to).replace(/\n+$/, "");
    const header = HEADER.exec(code.trim());
    const words = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
    if (!header) return { kind: "value", exported: false, text: own, references: words };
    const name = header[3] as string;
    words.delete(name);
    return {
      name,
      kind: header[2] === "interface" || header[2] === "type" ? "type" : "value",
      exported: header[1] !== undefined,
      text: own,
      references: words,
    };
  });
}

/**
 * The text with every line indented two spaces per bracket (`{`, `[`) it sits in, doc
 * comments included: json-schema-to-typescript, with its Prettier pass off as here, writes
 * every member at the start of the line, which left the largest file of the package, where
 * users read the protocol, without structure. A line that
 * starts by closing a bracket sits at the depth it closes to. Comments and string literals are
 * skipped, as by `splitDeclarations`; nothing but leading spaces is added.
 */
export function indentDeclarations(text: string): string {
  const lines = text.split("\n");
  let depth = 0;
  let inComment = false;
  const out: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      out.push(line);
      continue;
    }
    let closing = 0;
    if (!inComment)
      for (const c of line) {
        if (c === "}" || c === "]") closing++;
        else if (c !== ")") break;
      }
    out.push("  ".repeat(Math.max(0, depth - closing)) + line);
    for (let i = 0; i < line.length; ) {
      if (inComment) {
        const end = line.indexOf("*/", i);
        if (end < 0) break;
        inComment = false;
        i = end + 2;
        continue;
      }
      const c = line[i] as string;
      if (c === "/" && line[i + 1] === "*") {
        inComment = true;
        i += 2;
      } else if (c === "/" && line[i + 1] === "/") break;
      else if (c === '"' || c === "'" || c === "`") {
        let j = i + 1;
        while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
        i = j + 1;
      } else {
        if (c === "{" || c === "[") depth++;
        else if (c === "}" || c === "]") depth--;
        i++;
      }
    }
  }
  return out.join("\n");
}

/** A top-level constant declaration on one line, as the generator writes its functions' (guards.ts, parsers.ts). */
const CONSTANT = /^export declare const ([A-Za-z_$][\w$]*: .+);$/;

/**
 * The text with every run of top-level `export declare const X: T;` lines joined into one
 * statement, one declarator per line. A consumer's compiler reads a file's statements one by
 * one and spends more on each statement's framing than on a declarator: the stable types.d.ts
 * (SDK 2.4.0 schema, 732 constants) parses in 3.8–7.3 ms joined against 6.8–10.4 ms with one
 * statement per constant (TypeScript 5.9, bench/experiments/constant-statements.mjs, three
 * runs). A doc comment ends a run, so the constant it documents begins a statement: a
 * statement's comment is read as its first declarator's alone. The lines do not
 * move, only the keywords between them go.
 */
export function joinConstantDeclarations(text: string): string {
  const out: string[] = [];
  // Whether the line before is a constant that a following one may join.
  let joinable = false;
  for (const line of text.split("\n")) {
    const constant = CONSTANT.exec(line);
    if (constant && joinable) {
      const last = out.length - 1;
      out[last] = `${(out[last] as string).slice(0, -1)},`;
      out.push(`  ${constant[1]};`);
    } else out.push(line);
    joinable = constant !== null;
  }
  return out.join("\n");
}
