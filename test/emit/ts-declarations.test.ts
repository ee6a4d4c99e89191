import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import {
  indentDeclarations,
  joinConstantDeclarations,
  splitDeclarations,
} from "../../generator/emit/ts-declarations.js";
import { parse } from "../support/declarations.js";
import { SURFACES } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * The scanner that cuts types.d.ts into declarations, against the TypeScript parser, on the
 * text json-schema-to-typescript and the generator write, with what could mislead a scanner:
 * braces and keywords in doc comments and string literal types, members' doc comments at the
 * start of a line, unions across lines.
 */
const TEXT = `/**
 * Says { and \`export type Fake = {\` in prose.
 */
export type A = ("x" | "}" | "/*" | 'it\\'s')
/**
 * An interface.
 */
export interface B {
/**
 * A member's doc, at the start of a line.
 * export interface NotOne {
 */
a: A
"quoted-key}"?: JsonObject | null
nested: {
deep: (A | {
x: "export type"
})
}
}
export type C = ((B & {
kind: "b"
}) | {
kind: string
[k: string]: unknown
})
/** @experimental Only in the unstable schema: may change or be removed. */
export declare const isA: Guard<A>;
export declare const parseB: Parse<B>;
/**
 * A local.
 * @inline
 */
type JsonObject = {
[k: string]: unknown
}
export {};`;

describe("splitDeclarations", () => {
  const pieces = splitDeclarations(TEXT);
  const file = parse("t.d.ts", TEXT);

  it("cuts where the TypeScript parser sees a top-level statement begin", () => {
    expect(pieces.map((p) => p.name)).toEqual(
      file.statements.map((s) =>
        ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)
          ? s.name.text
          : ts.isVariableStatement(s)
            ? (s.declarationList.declarations.map((d) => d.name)[0] as ts.Identifier).text
            : undefined,
      ),
    );
    // Each piece is its statement with its doc comment: the whole text, cut and joined.
    file.statements.forEach((s, i) => {
      expect(pieces[i]?.text).toBe(s.getFullText(file).replace(/^\n/, "").replace(/\n+$/, ""));
    });
    expect(pieces.map((p) => p.text).join("\n")).toBe(TEXT);
  });

  it("tells types from values and exported from local", () => {
    expect(pieces.map((p) => [p.name, p.kind, p.exported])).toEqual([
      ["A", "type", true],
      ["B", "type", true],
      ["C", "type", true],
      ["isA", "value", true],
      ["parseB", "value", true],
      ["JsonObject", "type", false],
      [undefined, "value", false],
    ]);
  });

  it("reads the names the code uses, not those in comments or strings", () => {
    const refs = (name: string) => pieces.find((p) => p.name === name)?.references ?? new Set();
    expect([...refs("B")]).toEqual(expect.arrayContaining(["A", "JsonObject"]));
    for (const word of ["Fake", "NotOne", "B"]) expect(refs("B").has(word), word).toBe(false);
    expect(refs("C").has("B")).toBe(true);
    expect(refs("isA").has("Guard")).toBe(true);
    for (const word of ["x", "it", "s"]) expect(refs("A").has(word), word).toBe(false);
  });
});

describe("indentDeclarations", () => {
  const indented = indentDeclarations(TEXT);
  const lines = indented.split("\n");
  const line = (text: string) => lines.find((l) => l.trimStart() === text);

  it("adds leading spaces and nothing else: the statements are the same", () => {
    const before = TEXT.split("\n");
    expect(lines.length).toBe(before.length);
    lines.forEach((l, i) => {
      const was = before[i] ?? "";
      expect(l.endsWith(was) && /^ *$/.test(l.slice(0, l.length - was.length)), l).toBe(true);
    });
    const statements = (text: string) =>
      parse("t.d.ts", text).statements.map((s) => s.getText().replace(/\s+/g, " "));
    expect(statements(indented)).toEqual(statements(TEXT));
  });

  it("indents two spaces per brace, doc comments with their member; braces in prose and strings count for nothing", () => {
    expect(line("a: A")).toBe("  a: A");
    expect(line("* A member's doc, at the start of a line.")).toBe(
      "   * A member's doc, at the start of a line.",
    );
    expect(line('"quoted-key}"?: JsonObject | null')).toBe('  "quoted-key}"?: JsonObject | null');
    expect(line('x: "export type"')).toBe('      x: "export type"');
    // A line that starts by closing sits at the depth it closes to.
    expect(line("})")).toBe("    })");
    expect(line("}) | {")).toBe("}) | {");
    expect(line("[k: string]: unknown")).toBe("  [k: string]: unknown");
    // Every top-level statement still starts its line.
    expect(lines.filter((l) => /^ +export /.test(l))).toEqual([]);
  });

  it.each(SURFACES)("no member of %s's types.d.ts sits at the start of a line", (surface) => {
    const text = readFileSync(join(TEST_PACKAGE, surface.id, "types.d.ts"), "utf8");
    // A member: a name (or `[k: string]`), then `:` or `?:`, not a top-level declaration.
    const member = /^(?!export |declare |type |import )["\w$[][^:]*\??: /;
    expect(text.split("\n").filter((l) => member.test(l))).toEqual([]);
    expect(
      text.split("\n").filter((l) => /^ +[a-zA-Z_$][\w$]*\??: /.test(l)).length,
    ).toBeGreaterThan(100);
  });
});

describe("joinConstantDeclarations", () => {
  const CONSTANTS = `export type A = string
export declare const isA: Guard<A>;
export declare const parseA: Parse<A>;
/**
 * Documented: begins a statement.
 */
export declare const parseB: OpenParse<B, R.B>;
export declare const isB: Guard<B>;
/** @experimental Only in the unstable schema: may change or be removed. */
export declare const isC: Guard<C>;
type Local = {
  x: "export declare const notOne: Guard<X>;"
}
export declare const isD: Guard<D>;
export {};`;
  /** Each declarator the TypeScript parser sees: its name, type, statement and doc comments. */
  const declarators = (text: string) => {
    const file = parse("t.d.ts", text);
    return file.statements.filter(ts.isVariableStatement).flatMap((statement, index) =>
      statement.declarationList.declarations.map((d) => ({
        name: d.name.getText(file),
        type: d.type?.getText(file),
        statement: index,
        docs: ts.getJSDocCommentsAndTags(d).map((doc) => doc.getText(file)),
      })),
    );
  };
  const joined = joinConstantDeclarations(CONSTANTS);

  it("keeps every constant, its type and its doc comment, on the same lines", () => {
    const strip = (list: ReturnType<typeof declarators>) =>
      list.map(({ name, type, docs }) => ({ name, type, docs }));
    expect(strip(declarators(joined))).toEqual(strip(declarators(CONSTANTS)));
    expect(joined.split("\n").length).toBe(CONSTANTS.split("\n").length);
    expect(declarators(joined).find((d) => d.name === "parseB")?.docs).toEqual([
      "/**\n * Documented: begins a statement.\n */",
    ]);
  });

  it("joins each run of undocumented constants, and only runs, into one statement", () => {
    const statementOf = Object.fromEntries(declarators(joined).map((d) => [d.name, d.statement]));
    expect(statementOf.parseA).toBe(statementOf.isA);
    expect(statementOf.isB).toBe(statementOf.parseB);
    expect(
      new Set([statementOf.isA, statementOf.parseB, statementOf.isC, statementOf.isD]).size,
    ).toBe(4);
    // What is not a top-level constant line is left as it was.
    expect(joined).toContain('x: "export declare const notOne: Guard<X>;"');
  });

  it.each(SURFACES)(
    "leaves no two statements of constants in a row in %s's types.d.ts unless a doc comment parts them",
    (surface) => {
      const text = readFileSync(join(TEST_PACKAGE, surface.id, "types.d.ts"), "utf8");
      const file = parse("types.d.ts", text);
      const unparted = file.statements.filter(
        (s, i) =>
          ts.isVariableStatement(s) &&
          i > 0 &&
          ts.isVariableStatement(file.statements[i - 1] as ts.Statement) &&
          ts.getJSDocCommentsAndTags(s.declarationList.declarations[0] as ts.VariableDeclaration)
            .length === 0,
      );
      expect(unparted.map((s) => s.getText(file))).toEqual([]);
      // The functions are still declared, in fewer statements (an unstable surface documents
      // its experimental ones, each of which begins a statement).
      const constants = declarators(text);
      expect(constants.length).toBeGreaterThan(100);
      expect(new Set(constants.map((c) => c.statement)).size).toBeLessThan(constants.length);
    },
  );
});
