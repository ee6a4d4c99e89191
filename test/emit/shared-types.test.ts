import { readdirSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitContext, surfaceContexts } from "../../generator/emit/context.js";
import { emitTypes } from "../../generator/emit/types.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { parse } from "../support/declarations.js";
import { HISTORY_DIR, RELEASES_DIR, SCHEMA_DIR } from "../support/run.js";

/**
 * An unstable surface's types.d.ts re-exports what the stable one's already declares. Every
 * name it exports must mean what the unstable surface's own file, written alone, says: the
 * same declaration, doc comments included (up to the docs' draft links, which are the only
 * prose the unstable schema words differently for an unchanged definition), and every
 * declaration a re-exported one reaches inside the stable file must be the unstable
 * surface's too. The oracle is the surface's file without a stable one beside it, read
 * through the TypeScript parser.
 */
const releases: Array<[string, string]> = [
  ["vendored", SCHEMA_DIR],
  ...readdirSync(HISTORY_DIR).map((v): [string, string] => [`history ${v}`, join(HISTORY_DIR, v)]),
  ...readdirSync(RELEASES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e): [string, string] => [`sdk ${e.name}`, join(RELEASES_DIR, e.name)]),
];

/** The docs site's draft pages mirror the stable ones: `/protocol/v1/draft/x` is `/protocol/v1/x`. */
const withoutDraftLinks = (text: string) => text.replace(/(\/protocol\/v\d+)\/draft\//g, "$1/");

/** A file's top-level declarations by name, exported or not (a `const` by its declarator's statement). */
function declarations(file: ts.SourceFile): Map<string, ts.Statement> {
  const out = new Map<string, ts.Statement>();
  for (const statement of file.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
      out.set(statement.name.text, statement);
    else if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name)) out.set(d.name.text, statement);
  }
  return out;
}

/** Names a file takes from another module: `import type { A }` and `export { B } from`. */
function imported(file: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) && !ts.isExportDeclaration(s)) continue;
    if (!s.moduleSpecifier || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const from = s.moduleSpecifier.text;
    if (ts.isImportDeclaration(s) && s.importClause?.namedBindings) {
      const bindings = s.importClause.namedBindings;
      if (ts.isNamedImports(bindings))
        for (const e of bindings.elements) out.set(e.name.text, from);
      else out.set(bindings.name.text, from);
    } else if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements) out.set(e.name.text, from);
  }
  return out;
}

/** Every name a file exports. */
function exportedNames(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  for (const s of file.statements) {
    const exported = ts.canHaveModifiers(s)
      ? (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && exported)
      out.add(s.name.text);
    else if (ts.isVariableStatement(s) && exported)
      for (const d of s.declarationList.declarations)
        if (ts.isIdentifier(d.name)) out.add(d.name.text);
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements) out.add(e.name.text);
  }
  return out;
}

/** The names a declaration's code refers to, and whether it reads a namespace (`R.Name`). */
function references(node: ts.Node): { names: Set<string>; qualified: boolean } {
  const names = new Set<string>();
  let qualified = false;
  const visit = (n: ts.Node) => {
    if (ts.isTypeReferenceNode(n)) {
      if (ts.isIdentifier(n.typeName)) names.add(n.typeName.text);
      else qualified = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return { names, qualified };
}

const text = (file: ts.SourceFile, node: ts.Node) => node.getFullText(file).trim();

/** The releases with an unstable surface beside a stable one, each loaded once. */
const paired = releases.flatMap(([label, dir]) => {
  const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
  return model.surfaces.some((s) => s.stableSurface) ? [{ label, model }] : [];
});

it("some releases have unstable surfaces", () => {
  expect(paired.length).toBeGreaterThan(2);
});

describe.each(paired)("$label", ({ model }) => {
  it("each unstable surface's types mean what its own file alone says", async () => {
    const symbols = buildSymbols(model);
    const contexts = surfaceContexts(model, symbols, new Diagnostics());
    for (const context of contexts.filter((c) => c.stable)) {
      const { surface, stable } = context;
      if (!stable) continue;
      const linked = parse("linked.d.ts", (await emitTypes(context)).content);
      const alone = parse(
        "alone.d.ts",
        (await emitTypes(emitContext(surface, symbols.of(surface), new Diagnostics()))).content,
      );
      const stableContext = contexts.find((c) => c.surface === stable);
      if (!stableContext) throw new Error(`no context for ${stable.id}`);
      const stableFile = parse("stable.d.ts", (await emitTypes(stableContext)).content);
      const fromStable = posix.relative(surface.id, `${stable.id}/types.js`);
      const own = declarations(linked);
      const theirs = declarations(stableFile);
      const expected = declarations(alone);
      const taken = imported(linked);

      expect(exportedNames(linked), surface.id).toEqual(exportedNames(alone));
      // Every exported name: declared here as alone, or re-exported from a stable declaration
      // that reads the same; then everything that declaration reaches in the stable file.
      const reached: string[] = [];
      for (const name of exportedNames(alone)) {
        const want = expected.get(name);
        if (!want) continue;
        const mine = own.get(name);
        if (mine) {
          expect(text(linked, mine), `${surface.id} ${name}`).toBe(text(alone, want));
          continue;
        }
        expect(taken.get(name), `${surface.id} ${name}: neither declared nor taken`).toBe(
          fromStable.startsWith(".") ? fromStable : `./${fromStable}`,
        );
        reached.push(name);
      }
      const seen = new Set<string>();
      while (reached.length > 0) {
        const name = reached.pop() as string;
        if (seen.has(name)) continue;
        seen.add(name);
        const there = theirs.get(name);
        const want = expected.get(name);
        expect(there, `${stable.id} declares ${name}`).toBeDefined();
        expect(want, `${surface.id} alone declares ${name}`).toBeDefined();
        if (!there || !want) continue;
        expect(
          withoutDraftLinks(text(stableFile, there)),
          `${name} as the stable file says it`,
        ).toBe(withoutDraftLinks(text(alone, want)));
        const { names, qualified } = references(there);
        expect(qualified, `${name} reads a namespace of the stable surface's`).toBe(false);
        for (const r of names) if (theirs.has(r)) reached.push(r);
      }
      // Releases with an unstable schema share most of the stable one's declarations.
      expect(seen.size, surface.id).toBeGreaterThan(0);
      expect(own.size, surface.id).toBeGreaterThan(0);
    }
  });
});
