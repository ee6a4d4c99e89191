import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import { ROOT } from "../generator/paths.js";

/**
 * The import graph of the generator and the runtime it ships, read from the sources: no
 * cycles, and no module importing from a stage that comes after its own. The stages, in
 * the order the data flows (README "Layout", docs/architecture.md):
 */
const STAGES: ReadonlyArray<readonly string[]> = [
  // The JSON Schema toolkit: a leaf, it imports nothing else.
  ["generator/schema"],
  // Cross-cutting: errors, warnings, where the package root is.
  ["generator/errors.ts", "generator/diagnostics.ts", "generator/paths.ts"],
  // Getting and checking the input.
  ["generator/load"],
  ["generator/prepare"],
  ["generator/model"],
  ["generator/symbols"],
  // What the emitters need to know of each surface and the one beside it, computed once.
  ["generator/analysis"],
  // Consumers of the model, side by side: neither imports the other.
  ["generator/emit", "generator/diff"],
  // Rendering to memory, writing atomically, comparing with disk.
  ["generator/output"],
  ["generator/pipeline.ts"],
  // Bringing a release's schema in: reads it with the loader, compares it with diff, swaps
  // it in with the atomic writer.
  ["generator/fetch"],
  ["generator/cli.ts"],
];
/** The runtime the package ships: self-contained; the generator may import its types only. */
const RUNTIME = "templates/runtime";

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f).split("\\").join("/"));
}

/** Every relative import, re-export and dynamic `import()` of a source file. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith(".")) return;
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier))
      .split("\\")
      .join("/")
      .replace(/\.js$/, ".ts");
    found.push({ from: file, to: target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true);
    else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      add(node.moduleSpecifier.text, node.isTypeOnly);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      add(node.arguments[0].text, false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = [...sources("generator"), ...sources(RUNTIME)];
const imports = files.flatMap(importsOf);

/** The stage unit (folder or file) a module belongs to, and its stage's position. */
function placeOf(file: string): { unit: string; rank: number } | undefined {
  for (const [rank, units] of STAGES.entries())
    for (const unit of units)
      if (file === unit || file.startsWith(`${unit}/`)) return { unit, rank };
  return undefined;
}

describe("architecture", () => {
  it("reads the whole graph", () => {
    expect(files.length).toBeGreaterThan(60);
    for (const i of imports) expect(files, `${i.from} imports ${i.to}`).toContain(i.to);
  });

  it("places every generator module in a stage", () => {
    const unplaced = files.filter((f) => f.startsWith("generator/") && !placeOf(f));
    expect(unplaced, "add them to STAGES").toEqual([]);
  });

  it("has no import cycle, type imports included", () => {
    const edges = new Map<string, string[]>();
    for (const i of imports) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("imports only from its own unit or an earlier stage", () => {
    const wrong: string[] = [];
    for (const i of imports) {
      if (i.from.startsWith(`${RUNTIME}/`) || i.to.startsWith(`${RUNTIME}/`)) continue;
      const from = placeOf(i.from);
      const to = placeOf(i.to);
      if (!from || !to) continue;
      if (from.unit !== to.unit && to.rank >= from.rank) wrong.push(`${i.from} → ${i.to}`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the schema toolkit a leaf and the runtime self-contained", () => {
    const escapes = imports.filter(
      (i) =>
        (i.from.startsWith("generator/schema/") && !i.to.startsWith("generator/schema/")) ||
        (i.from.startsWith(`${RUNTIME}/`) && !i.to.startsWith(`${RUNTIME}/`)),
    );
    expect(escapes).toEqual([]);
  });

  it("lets the generator import only types from the runtime", () => {
    const valueImports = imports.filter(
      (i) => i.from.startsWith("generator/") && i.to.startsWith(`${RUNTIME}/`) && !i.typeOnly,
    );
    expect(valueImports).toEqual([]);
    // The contract it shares with the runtime: the repair plan's records, checked as types.
    expect(imports.some((i) => i.from.startsWith("generator/") && i.to.startsWith(RUNTIME))).toBe(
      true,
    );
  });
});

/** The longest body a function of the runtime may have, in lines: past it, split it. */
const MAX_FUNCTION_LINES = 150;

/**
 * Every function, method, accessor, constructor and arrow of `file` whose body spans more
 * than `limit` lines, as `file:line name (n lines)`.
 */
function longFunctions(file: string, text: string, limit: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const nameOf = (node: ts.FunctionLikeDeclaration): string => {
    if (node.name) return node.name.getText(source);
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
      return parent.name.getText(source);
    return ts.isConstructorDeclaration(node) ? "constructor" : "(anonymous)";
  };
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration & { body: ts.Node };
      const lines = line(fn.body.end) - line(fn.body.getStart(source)) + 1;
      if (lines > limit)
        found.push(`${file}:${line(fn.getStart(source)) + 1} ${nameOf(fn)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the runtime's functions", () => {
  it(`are at most ${MAX_FUNCTION_LINES} lines long`, () => {
    const runtime = sources(RUNTIME);
    expect(runtime.length).toBeGreaterThan(30);
    const long = runtime.flatMap((file) =>
      longFunctions(file, readFileSync(join(ROOT, file), "utf8"), MAX_FUNCTION_LINES),
    );
    expect(long).toEqual([]);
  });

  it("are measured body and all, whatever their kind", () => {
    // The measure itself, on a file made to hold one too long function of each kind.
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const x${i} = ${i};`);
    const text = [
      `function declared() {`,
      ...body,
      `}`,
      `const arrow = () => {`,
      ...body,
      `};`,
      `class C {`,
      `  method() {`,
      ...body,
      `  }`,
      `}`,
      `function short() { return 1; }`,
    ].join("\n");
    const long = longFunctions("sample.ts", text, MAX_FUNCTION_LINES);
    expect(long.map((l) => l.split(" ")[1])).toEqual(["declared", "arrow", "method"]);
    expect(longFunctions("sample.ts", text, MAX_FUNCTION_LINES + 2)).toEqual([]);
  });
});
