import { posix } from "node:path";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import type { EmitContext } from "../../generator/emit/context.js";
import { emitContext, surfaceContexts } from "../../generator/emit/contexts.js";
import { emitReceived } from "../../generator/emit/received.js";
import { emitTypes } from "../../generator/emit/types.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { parse } from "../support/declarations.js";
import { heldReleases } from "../support/run.js";

/**
 * An unstable surface's types.d.ts and received.d.ts take from the stable surface's files what
 * those already declare. Every name they export must mean what the unstable surface's own
 * files, written alone, say: each name is followed, through imports and re-exports, to the
 * declaration that holds it, in the package as generated and in the surface's files alone,
 * and the two must read the same (doc comments included, up to the docs' draft links, the only
 * prose the unstable schema words differently for an unchanged definition), and so must every
 * declaration each of them refers to, followed the same way. Read through the TypeScript parser.
 */
const releases = heldReleases();

/** The releases with an unstable surface beside a stable one, each loaded once. */
const paired = releases.flatMap(([label, dir]) => {
  const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
  return model.surfaces.some((s) => s.stableSurface) ? [{ label, model }] : [];
});

/** The docs site's draft pages mirror the stable ones: `/protocol/v1/draft/x` is `/protocol/v1/x`. */
const withoutDraftLinks = (text: string) => text.replace(/(\/protocol\/v\d+)\/draft\//g, "$1/");

/** Declaration files by package-relative path (`v1/types.d.ts`). */
type World = Map<string, ts.SourceFile>;

/** Where a name of a file is declared: the file and the statement (or none: a global). */
interface Found {
  path: string;
  node: ts.Statement | ts.VariableDeclaration;
}

const FILES = ["types.d.ts", "received.d.ts"] as const;

/** The `.d.ts` a module specifier of `from`'s names. */
const target = (from: string, specifier: string) =>
  posix.join(posix.dirname(from), specifier).replace(/\.js$/, ".d.ts");

/** Follow `name` from the file at `path` to its declaration: declared here, imported, or re-exported. */
function resolve(world: World, path: string, name: string, depth = 0): Found | undefined {
  const file = world.get(path);
  if (!file || depth > 8) return undefined;
  for (const s of file.statements) {
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name)
      return { path, node: s };
    // A constant is its declarator: a statement may declare several (joined runs).
    const constant = ts.isVariableStatement(s)
      ? s.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name)
      : undefined;
    if (constant) return { path, node: constant };
  }
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) && !ts.isExportDeclaration(s)) continue;
    if (!s.moduleSpecifier || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const elements =
      ts.isImportDeclaration(s) &&
      s.importClause?.namedBindings &&
      ts.isNamedImports(s.importClause.namedBindings)
        ? s.importClause.namedBindings.elements
        : ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
          ? s.exportClause.elements
          : [];
    const element = elements.find((e) => e.name.text === name);
    if (element)
      return resolve(
        world,
        target(path, s.moduleSpecifier.text),
        (element.propertyName ?? element.name).text,
        depth + 1,
      );
  }
  return undefined;
}

/** The file a namespace import (`import type * as R from "./received.js"`) names. */
function namespaceOf(world: World, path: string, alias: string): string | undefined {
  for (const s of world.get(path)?.statements ?? []) {
    const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === alias)
      return target(path, (s as ts.ImportDeclaration).moduleSpecifier.getText().slice(1, -1));
  }
  return undefined;
}

/** Every type a declaration refers to, as `[file it resolves from, name]`. */
function referenced(world: World, found: Found): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const visit = (n: ts.Node) => {
    if (ts.isTypeReferenceNode(n)) {
      if (ts.isIdentifier(n.typeName)) out.push([found.path, n.typeName.text]);
      else if (ts.isIdentifier(n.typeName.left)) {
        const module = namespaceOf(world, found.path, n.typeName.left.text);
        if (module) out.push([module, n.typeName.right.text]);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(found.node);
  return out;
}

/** Names a file exports, declared or re-exported. */
function exportedNames(file: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const s of file.statements) {
    const exported =
      ts.canHaveModifiers(s) &&
      (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && exported)
      out.push(s.name.text);
    else if (ts.isVariableStatement(s) && exported)
      for (const d of s.declarationList.declarations)
        if (ts.isIdentifier(d.name)) out.push(d.name.text);
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements) out.push(e.name.text);
  }
  return out.sort();
}

async function filesOf(context: EmitContext): Promise<Array<[string, ts.SourceFile]>> {
  const emitted = [await emitTypes(context), await emitReceived(context)];
  return emitted.map((f) => [f.path, parse(f.path, f.content)]);
}

/** A declaration's text with its doc comment; a constant's, of its declarator alone. */
const text = (world: World, found: Found) => {
  const file = world.get(found.path);
  const { node } = found;
  const full = ts.isVariableDeclaration(node)
    ? [...ts.getJSDocCommentsAndTags(node).map((d) => d.getText(file)), node.getText(file)].join(
        "\n",
      )
    : node.getFullText(file);
  return withoutDraftLinks(full.trim());
};

it("some releases have unstable surfaces", () => {
  expect(paired.length).toBeGreaterThan(2);
});

describe.each(paired)("$label", ({ model }) => {
  it("each unstable surface's types mean what its own files alone say", async () => {
    const symbols = buildSymbols(model);
    const contexts = await surfaceContexts(model, symbols, new Diagnostics());
    for (const context of contexts.filter((c) => c.stable)) {
      const { surface, stable } = context;
      const stableContext = contexts.find((c) => c.surface === stable);
      if (!stable || !stableContext) throw new Error(`no stable context for ${surface.id}`);
      const linked: World = new Map([
        ...(await filesOf(stableContext)),
        ...(await filesOf(context)),
      ]);
      const alone: World = new Map(
        await filesOf(await emitContext(surface, symbols.of(surface), new Diagnostics())),
      );
      let taken = 0;
      for (const file of FILES) {
        const path = `${surface.id}/${file}`;
        const [mine, own] = [linked.get(path), alone.get(path)];
        if (!mine || !own) throw new Error(`no ${path}`);
        expect(exportedNames(mine), path).toEqual(exportedNames(own));
        // From every exported name, everything it reaches, side by side: each item is a name
        // and the file it is read from in the package and alone.
        const work = exportedNames(own).map((name) => ({ there: path, want: path, name }));
        const seen = new Set<string>();
        while (work.length > 0) {
          const item = work.pop() as (typeof work)[number];
          const key = `${item.there} ${item.want} ${item.name}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const there = resolve(linked, item.there, item.name);
          const want = resolve(alone, item.want, item.name);
          const where = `${item.want} ${item.name}`;
          if (!want) {
            expect(there, `${where}: a global alone, declared in the package`).toBe(undefined);
            continue;
          }
          expect(there, `${where} resolves`).toBeDefined();
          if (!there) continue;
          if (!there.path.startsWith(`${surface.id}/`)) taken++;
          expect(text(linked, there), `${where} (declared in ${there.path})`).toBe(
            text(alone, want),
          );
          // What it refers to, in order, followed from where each side declares it.
          const theirs = referenced(linked, there);
          const ours = referenced(alone, want);
          expect(
            theirs.map(([, n]) => n),
            where,
          ).toEqual(ours.map(([, n]) => n));
          ours.forEach(([wantFrom, name], i) => {
            work.push({ there: (theirs[i] as [string, string])[0], want: wantFrom, name });
          });
        }
      }
      // Releases with an unstable schema share much of the stable one's declarations.
      expect(taken, surface.id).toBeGreaterThan(0);
    }
  });
});
