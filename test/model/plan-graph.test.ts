import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mergeEqualNodes } from "../../generator/model/plan-graph.js";
import { SURFACES, type Surface } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/** A plan node in miniature: a record and the nodes it refers to. */
interface Node {
  label: string;
  next: number[];
}
const mapRefs = (node: Node, f: (i: number) => number): Node => ({
  ...node,
  next: node.next.map(f),
});
const node = (label: string, ...next: number[]): Node => ({ label, next });

describe("mergeEqualNodes", () => {
  it("merges nodes with equal records and equal targets, keeping the first one's place", () => {
    const merged = mergeEqualNodes(
      [node("a", 1), node("b"), node("a", 3), node("b"), node("c", 2)],
      mapRefs,
    );
    expect(merged.nodes).toEqual([node("a", 1), node("b"), node("c", 0)]);
    expect([0, 1, 2, 3, 4].map(merged.index)).toEqual([0, 1, 0, 1, 2]);
    expect(merged.representatives).toEqual([0, 1, 4]);
  });

  it("merges cycles that unfold to the same infinite tree", () => {
    // 0 loops on itself; 1 and 2 loop through each other: all read "x" forever.
    const merged = mergeEqualNodes([node("x", 0), node("x", 2), node("x", 1)], mapRefs);
    expect(merged.nodes).toEqual([node("x", 0)]);
    expect([0, 1, 2].map(merged.index)).toEqual([0, 0, 0]);
  });

  it("keeps nodes apart that differ only further down", () => {
    // a → b → c and a → b → d: neither the a's nor the b's are the same.
    const nodes = [node("a", 1), node("b", 2), node("c"), node("a", 4), node("b", 5), node("d")];
    const merged = mergeEqualNodes(nodes, mapRefs);
    expect(merged.nodes).toHaveLength(6);
    expect([0, 1, 2, 3, 4, 5].map(merged.index)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps a cycle apart from a chain that ends", () => {
    const merged = mergeEqualNodes([node("x", 0), node("x", 2), node("x")], mapRefs);
    expect([0, 1, 2].map(merged.index)).toEqual([0, 1, 2]);
  });

  it("compares records whatever their key order, and an empty plan stays empty", () => {
    const a = { next: [], label: "a" };
    const merged = mergeEqualNodes([node("a"), a], mapRefs);
    expect(merged.nodes).toHaveLength(1);
    expect(mergeEqualNodes([], mapRefs).nodes).toEqual([]);
  });
});

/**
 * The records of one plan table in a generated parse module, as written (one per line): the
 * lines between the table's opening line and its `]);`, less the spread of the shared
 * module's records (those are read from that module).
 */
function tableRecords(source: string, table: string): string[] {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`const ${table} = `));
  expect(start, `a ${table} table`).toBeGreaterThan(-1);
  const end = lines.indexOf("]);", start);
  return lines
    .slice(start + 1, end)
    .filter((line) => !line.trimStart().startsWith("..."))
    .map((line) => line.replace(/^\s*\/\*.*?\*\/\s*/, ""));
}

/** The module a surface's parsers.js takes shared records from, when it does. */
function sharedModuleOf(surface: Surface, source: string): string | undefined {
  const from = /^import \{ base \} from "([^"]+)";$/m.exec(source)?.[1];
  return from === undefined ? undefined : join(TEST_PACKAGE, surface.id, from);
}

describe("generated parse plans", () => {
  // Two records written alike, references included, say the same thing: such a pair means
  // the plans are emitted per subschema path again. A surface's plan is its shared records
  // and its own, numbered on: no record of one may repeat one of the other.
  for (const surface of SURFACES) {
    it(`${surface.entry}: no two plan nodes are written alike`, () => {
      const source = readFileSync(join(TEST_PACKAGE, surface.id, "parsers.js"), "utf8");
      const shared = sharedModuleOf(surface, source);
      expect(shared, "every surface of the vendored schema has one beside it").toBeDefined();
      const base = readFileSync(shared as string, "utf8");
      for (const table of ["nodes", "shapes"]) {
        const records = [...tableRecords(base, table), ...tableRecords(source, table)];
        expect(records.length).toBeGreaterThan(0);
        const repeated = records.filter((r, i) => records.indexOf(r) !== i);
        expect(repeated, `${table} repeats records`).toEqual([]);
      }
    });
  }
});
