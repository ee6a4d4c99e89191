import { describe, expect, it } from "vitest";
import type { Sharing, SurfaceFacts } from "../../generator/analysis/facts.js";
import { takenFromShared } from "../../generator/analysis/sharing.js";
import {
  type Binding,
  namedImport,
  namespaceImport,
  reexportLines,
  sharedReexports,
  Uses,
} from "../../generator/emit/module.js";
import { shapeWalks, type WalkRefs } from "../../generator/emit/shape-walks.js";
import type { SurfaceModel } from "../../generator/model/protocol.js";
import type { DefinitionSymbols, SurfaceSymbols } from "../../generator/symbols/table.js";
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

/** One re-export helper writes every file's re-exports from the sharing plan. */
describe("re-exports from the sharing plan", () => {
  const symbols = (suffix: string, union: boolean) =>
    ({
      key: "K",
      type: `T${suffix}`,
      guard: `isT${suffix}`,
      validate: `validateT${suffix}`,
      assert: `assertT${suffix}`,
      parse: `parseT${suffix}`,
      validator: `vT${suffix}`,
      ...(union ? { variantGuard: `isT${suffix}Of` } : {}),
    }) as DefinitionSymbols;
  const table = (suffix: string) =>
    ({
      definition: (key: string) => symbols(key === "U" ? `U${suffix}` : suffix, key === "U"),
    }) as unknown as SurfaceSymbols;

  const surface = (id: string, keys: string[]) =>
    ({ id, definitions: keys.map((key) => ({ key })) }) as unknown as SurfaceModel;
  const stable = surface("v1", ["K", "U", "L"]);
  const unstable = surface("v1/unstable", ["L", "U", "K", "New"]);

  /** The unstable surface's context: `code` and `parsers`, `unions` decided as given. */
  function contextOf(decided: Pick<Sharing, "code" | "parsers" | "unions">) {
    const taken = takenFromShared(unstable, decided);
    return {
      surface: unstable,
      stable,
      names: table(""),
      stableNames: table("S"),
      facts: { sharing: { ...decided, planBase: true, taken } } as unknown as SurfaceFacts,
    };
  }

  it("takes each shared definition's names, in the surface's order, renamed to its own", () => {
    const context = contextOf({
      code: new Set(["K", "U"]),
      parsers: new Set(["U"]),
      unions: new Set(["U"]),
    });
    // U before K: the unstable surface's definition order.
    expect(sharedReexports(context, "validators")).toEqual([
      'export { vTUS as vTU, vTS as vT } from "../shared-validators.js";',
    ]);
    expect(sharedReexports(context, "guards")).toEqual([
      'export { isTUS as isTU, validateTUS as validateTU, assertTUS as assertTU, isTS as isT, validateTS as validateT, assertTS as assertT } from "../shared-guards.js";',
    ]);
    // A union helper the definition has, after its parse function; those it lacks, none.
    expect(sharedReexports(context, "parsers")).toEqual([
      'export { parseTUS as parseTU, isTUSOf as isTUOf } from "../shared-parsers.js";',
    ]);
  });

  it("writes no union helper for a definition whose helpers are not shared", () => {
    const context = contextOf({
      code: new Set(["U"]),
      parsers: new Set(["U"]),
      unions: new Set(),
    });
    expect(sharedReexports(context, "parsers")).toEqual([
      'export { parseTUS as parseTU } from "../shared-parsers.js";',
    ]);
  });

  it("writes nothing where nothing is shared", () => {
    const context = contextOf({ code: new Set(), parsers: new Set(), unions: new Set() });
    for (const kind of ["validators", "guards", "parsers"] as const)
      expect(sharedReexports(context, kind)).toEqual([]);
  });

  it("re-exports a stable surface's names as they are, from its own folder", () => {
    const decided = { code: new Set(["K"]), parsers: new Set(["K"]), unions: new Set<string>() };
    const context = {
      surface: stable,
      stable: undefined,
      names: table("S"),
      facts: {
        sharing: { ...decided, planBase: true, taken: takenFromShared(stable, decided) },
      } as unknown as SurfaceFacts,
    };
    expect(sharedReexports(context, "validators", "block")).toEqual([
      "export {",
      "  vTS,",
      '} from "./shared-validators.js";',
    ]);
  });
});
