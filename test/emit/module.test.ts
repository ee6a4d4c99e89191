import { describe, expect, it } from "vitest";
import {
  type Binding,
  namedImport,
  namespaceImport,
  reexportLines,
  Uses,
} from "../../generator/emit/module.js";
import { shapeWalks, type WalkRefs } from "../../generator/emit/shape-walks.js";
import type { ShapeNode } from "../../templates/runtime/parse.js";

/**
 * The module builder renders a module's import lines from the names its code recorded while it
 * was written, not from the written text: a fragment that refers to a name yields the name's
 * import, one that does not yields none, even where its text spells the name otherwise.
 */
describe("module builder", () => {
  const validators = namedImport("./validators.js", ["vA", "vB", "vC"]);

  it("imports what a fragment refers to, in the binding's order, and nothing else", () => {
    const uses = new Uses();
    const code = [`${uses.ref(validators, "vC")}(x)`, `${uses.ref(validators, "vA")}(y)`];
    expect(code).toEqual(["vC(x)", "vA(y)"]);
    expect(uses.lines([validators])).toEqual(['import { vA, vC } from "./validators.js";']);
  });

  it("imports nothing for a fragment that refers to nothing, whatever its text spells", () => {
    const uses = new Uses();
    // Names written as text (a string literal, a comment) are no references.
    const code = `"vA" /* vB */ vC`;
    expect(code).toContain("vA");
    expect(uses.lines([validators])).toEqual([]);
  });

  it("writes one line per binding that has uses, in the order the bindings are given", () => {
    const uses = new Uses();
    const runtime = namespaceImport("P", "../runtime/index.js");
    const locals = namedImport("./parsers-validators.js", ["k0", "k1"]);
    uses.ref(locals, "k1");
    uses.ref(runtime, "P");
    uses.ref(runtime, "P");
    expect(uses.lines([runtime, validators, locals])).toEqual([
      'import * as P from "../runtime/index.js";',
      'import { k1 } from "./parsers-validators.js";',
    ]);
  });

  it("renders the same line whatever order the references were written in", () => {
    const ranked: Binding = { rank: (n) => Number(n.slice(1)), line: (n) => n.join(",") };
    const one = new Uses();
    const other = new Uses();
    for (const n of ["c10", "c2", "c7"]) one.ref(ranked, n);
    for (const n of ["c7", "c10", "c2"]) other.ref(ranked, n);
    expect(one.lines([ranked])).toEqual(["c2,c7,c10"]);
    expect(other.lines([ranked])).toEqual(one.lines([ranked]));
  });

  it("writes re-exports, renamed where the names differ, as a line or a block", () => {
    const names = [
      { theirs: "vA", mine: "vA" },
      { theirs: "vB", mine: "vB2" },
    ];
    expect(reexportLines("../v1/x.js", names)).toEqual([
      'export { vA, vB as vB2 } from "../v1/x.js";',
    ]);
    expect(reexportLines("./x.js", names, { layout: "block" })).toEqual([
      "export {",
      "  vA,",
      "  vB as vB2,",
      '} from "./x.js";',
    ]);
    expect(reexportLines("./t.js", names.slice(0, 1), { typeOnly: true })).toEqual([
      'export type { vA } from "./t.js";',
    ]);
    expect(reexportLines("./x.js", [])).toEqual([]);
  });
});

/** The fast walks record each walk and check they call as they write it. */
describe("shape walks' references", () => {
  /** Refs that record, and that bind from outside every index below `outside`. */
  function recording(outside: number) {
    const uses = new Uses();
    const walks: Binding = { rank: (n) => Number(n.slice(1)), line: (n) => n.join(" ") };
    const checks: Binding = { rank: (n) => Number(n.slice(1)), line: (n) => n.join(" ") };
    const refs: WalkRefs = {
      walk: (i) => (i < outside ? uses.ref(walks, `s${i}`) : `s${i}`),
      check: (i) => (i < outside ? uses.ref(checks, `c${i}`) : `c${i}`),
    };
    return { uses, refs, walks, checks };
  }

  it("records the children's walks a node's walk calls", () => {
    const nodes: ShapeNode[] = [{ keys: [["a", 0]] }, { keys: [["b", 1]], items: 0 }];
    const { uses, refs, walks, checks } = recording(1);
    const code = shapeWalks(
      [{ keys: [["x", 0]], others: 0 }],
      2,
      (i) => nodes[i] as ShapeNode,
      refs,
    );
    expect(code.join("\n")).toContain("s0(");
    expect(uses.lines([walks])).toEqual(["s0"]);
    expect(uses.lines([checks])).toEqual([]);
  });

  it("records the checks that choose a union's variant", () => {
    const nodes: ShapeNode[] = [{ keys: [["a", -1]] }, { keys: [["b", -1]] }];
    const union: ShapeNode = {
      unions: [
        {
          variants: [
            { node: 0, check: 0 },
            { node: 1, check: 1 },
          ],
        },
      ],
    };
    const { uses, refs, walks, checks } = recording(2);
    shapeWalks([union], 2, (i) => nodes[i] as ShapeNode, refs);
    // The first variant is behind its check, the last taken unchecked (the value is valid).
    expect(uses.lines([checks])).toEqual(["c0"]);
    expect(uses.lines([walks])).toEqual(["s0 s1"]);
  });

  it("records nothing for a walk that calls no other walk or check", () => {
    const { uses, refs, walks, checks } = recording(5);
    const code = shapeWalks([{ keys: [["a", -1]] }, { free: true }], 5, () => ({}), refs);
    expect(code).toHaveLength(2);
    expect(uses.lines([walks, checks])).toEqual([]);
  });
});
