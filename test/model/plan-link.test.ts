import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { analyse } from "../../generator/analysis/index.js";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadFormats } from "../../generator/emit/ajv.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import type { CheckSpec } from "../../generator/model/checks.js";
import { linkPlans, type PlanLayout } from "../../generator/model/plan-link.js";
import { buildRepairPlan, type RepairPlan } from "../../generator/model/repair-plan.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import type { PlanNode, ShapeNode } from "../../templates/runtime/parse.js";
import { RELEASES_DIR } from "../support/run.js";
import { SCHEMA_DIR } from "../support/surfaces.js";

/**
 * A stable surface's parse plan and its unstable surface's, laid out so that what they share
 * is written once (model/plan-link.ts). The layout may renumber and merge records, but each
 * surface's plan must still read every definition exactly as the plan built for it alone:
 * checked here by walking both plans side by side from each definition's roots, assuming a
 * pair equal while it is being compared (the greatest fixpoint, so cycles compare), record
 * field by field as the runtime interpreter reads them.
 */

interface Tables {
  checks: readonly CheckSpec[];
  nodes: readonly PlanNode[];
  shapes: readonly ShapeNode[];
  openBodies: ReadonlyMap<string, number>;
}

const alone = (plan: RepairPlan): Tables => ({
  checks: plan.checks.specs,
  nodes: plan.nodes,
  shapes: plan.shapes.nodes,
  openBodies: plan.checks.openBodies,
});

const laidOut = (layout: PlanLayout): Tables => ({
  checks: [...layout.base.checks, ...layout.own.checks],
  nodes: [...layout.base.nodes, ...layout.own.nodes],
  shapes: [...layout.base.shapes, ...layout.own.shapes],
  openBodies: layout.openBodies,
});

const sameKeys = (x: object, y: object): boolean =>
  isDeepStrictEqual(Object.keys(x).sort(), Object.keys(y).sort());

/** Both absent, or both present and `same`. */
function optional<T>(x: T | undefined, y: T | undefined, same: (x: T, y: T) => boolean): boolean {
  if (x === undefined || y === undefined) return x === y;
  return same(x, y);
}

function pairwise<T>(x: readonly T[], y: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return x.length === y.length && x.every((item, i) => same(item, y[i] as T));
}

/** Whether record `i` of one plan reads as record `j` of the other, table by table. */
class SamePlans {
  private readonly assumed = new Set<string>();

  constructor(
    private readonly a: Tables,
    private readonly b: Tables,
  ) {}

  private seen(kind: string, i: number, j: number): boolean {
    const key = `${kind} ${i} ${j}`;
    if (this.assumed.has(key)) return true;
    this.assumed.add(key);
    return false;
  }

  check = (i: number, j: number): boolean => {
    if (this.seen("check", i, j)) return true;
    const x = this.a.checks[i];
    const y = this.b.checks[j];
    if (x === undefined || y === undefined || x.kind !== y.kind) return false;
    switch (x.kind) {
      case "ref":
        return isDeepStrictEqual(x, y);
      case "open":
        return (
          x.def === (y as typeof x).def &&
          optional(this.a.openBodies.get(x.def), this.b.openBodies.get(x.def), this.check)
        );
      case "local":
      case "tag":
      case "otherTag":
        return isDeepStrictEqual(x, y);
      case "all":
      case "any":
      case "one":
        return pairwise(x.of, (y as typeof x).of, this.check);
      case "not":
      case "items":
        return this.check(x.of, (y as typeof x).of);
      case "props":
        return pairwise(x.of, (y as typeof x).of, ([n, c], [m, d]) => n === m && this.check(c, d));
      case "values":
        return (
          isDeepStrictEqual(x.declared, (y as typeof x).declared) &&
          this.check(x.of, (y as typeof x).of)
        );
    }
  };

  repair = (i: number, j: number): boolean => {
    if (this.seen("repair", i, j)) return true;
    const x = this.a.nodes[i];
    const y = this.b.nodes[j];
    if (x === undefined || y === undefined || !sameKeys(x, y)) return false;
    const data = ["fallback", "omit", "onNull", "default"] as const;
    return (
      optional(x.properties, y.properties, (p, q) =>
        pairwise(
          p,
          q,
          (s, t) =>
            sameKeys(s, t) &&
            s.name === t.name &&
            data.every((k) => isDeepStrictEqual(s[k], t[k])) &&
            optional(s.node, t.node, this.repair) &&
            optional(s.onError, t.onError, this.check),
        ),
      ) &&
      optional(x.allOf, y.allOf, (p, q) => pairwise(p, q, this.repair)) &&
      optional(
        x.union,
        y.union,
        (u, w) =>
          sameKeys(u, w) &&
          u.tag === w.tag &&
          pairwise(
            u.variants,
            w.variants,
            (s, t) =>
              sameKeys(s, t) &&
              s.tag === t.tag &&
              s.other === t.other &&
              optional(s.node, t.node, this.repair) &&
              optional(s.check, t.check, this.check),
          ),
      ) &&
      optional(x.items, y.items, this.repair) &&
      optional(x.skipInvalid, y.skipInvalid, this.check) &&
      optional(x.values, y.values, this.repair) &&
      isDeepStrictEqual(x.declared, y.declared)
    );
  };

  /** A key's shape: both -1 (a value holding no object) or the same shape. */
  private child = (i: number, j: number): boolean => (i < 0 || j < 0 ? i === j : this.shape(i, j));

  shape = (i: number, j: number): boolean => {
    if (this.seen("shape", i, j)) return true;
    const x = this.a.shapes[i];
    const y = this.b.shapes[j];
    if (x === undefined || y === undefined || !sameKeys(x, y)) return false;
    return (
      x.free === y.free &&
      optional(x.keys, y.keys, (p, q) =>
        pairwise(p, q, ([n, c], [m, d]) => n === m && this.child(c, d)),
      ) &&
      optional(x.others, y.others, this.child) &&
      isDeepStrictEqual(x.fills, y.fills) &&
      optional(x.items, y.items, this.shape) &&
      optional(x.unions, y.unions, (p, q) =>
        pairwise(
          p,
          q,
          (u, w) =>
            sameKeys(u, w) &&
            u.tag === w.tag &&
            u.closed === w.closed &&
            pairwise(
              u.variants,
              w.variants,
              (s, t) =>
                sameKeys(s, t) &&
                s.tag === t.tag &&
                s.other === t.other &&
                s.kinds === t.kinds &&
                optional(s.node, t.node, this.shape) &&
                optional(s.check, t.check, this.check) &&
                optional(s.open, t.open, this.check) &&
                optional(s.repair, t.repair, this.repair),
            ),
        ),
      )
    );
  };
}

/** Every index a table's records refer to, by table. */
function references(
  tables: Omit<Tables, "openBodies">,
): Record<"check" | "repair" | "shape", number[]> {
  const out = { check: [] as number[], repair: [] as number[], shape: [] as number[] };
  const add = (kind: keyof typeof out, i: number | undefined) => {
    if (i !== undefined && i >= 0) out[kind].push(i);
  };
  for (const spec of tables.checks) {
    if (!("of" in spec)) continue;
    if (typeof spec.of === "number") add("check", spec.of);
    else for (const part of spec.of) add("check", typeof part === "number" ? part : part[1]);
  }
  for (const node of tables.nodes) {
    for (const p of node.properties ?? []) {
      add("repair", p.node);
      add("check", p.onError);
    }
    for (const part of node.allOf ?? []) add("repair", part);
    for (const v of node.union?.variants ?? []) {
      add("repair", v.node);
      add("check", v.check);
    }
    add("repair", node.items);
    add("check", node.skipInvalid);
    add("repair", node.values);
  }
  for (const shape of tables.shapes) {
    for (const [, child] of shape.keys ?? []) add("shape", child);
    add("shape", shape.others);
    add("shape", shape.items);
    for (const union of shape.unions ?? [])
      for (const v of union.variants) {
        add("shape", v.node);
        add("check", v.check);
        add("check", v.open);
        add("repair", v.repair);
      }
  }
  return out;
}

const formats = await loadFormats();
const PAIRS = [
  { name: "vendored", dir: SCHEMA_DIR },
  { name: "2.4.0", dir: join(RELEASES_DIR, "2.4.0") },
].flatMap(({ name, dir }) => {
  const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
  const symbols = buildSymbols(model);
  const facts = analyse(model.surfaces, (s) => symbols.of(s), new Diagnostics(), formats);
  return model.surfaces.flatMap((unstable) => {
    const stable = model.surfaces.find((s) => s.id === unstable.stableSurface);
    if (!stable) return [];
    // The validators both share, as the analysis stage decides them.
    const shared = facts.get(unstable)?.sharing.code ?? new Set<string>();
    const plans = { stable: buildRepairPlan(stable), unstable: buildRepairPlan(unstable) };
    const layouts = linkPlans(plans.stable, plans.unstable, shared);
    return [{ label: `${name} ${stable.id}`, shared, plans, layouts }];
  });
});

describe.each(PAIRS)("$label and its unstable surface", ({ shared, plans, layouts }) => {
  it.each(["stable", "unstable"] as const)(
    "the %s surface's laid-out plan reads every definition as its plan alone does",
    (side) => {
      const plan = plans[side];
      const layout = layouts[side];
      const same = new SamePlans(alone(plan), laidOut(layout));
      const compare = (
        ours: ReadonlyMap<string, number>,
        theirs: ReadonlyMap<string, number>,
        equal: (i: number, j: number) => boolean,
        what: string,
      ) => {
        expect([...theirs.keys()], what).toEqual([...ours.keys()]);
        for (const [def, i] of ours)
          expect(equal(i, theirs.get(def) as number), `${what} ${def}`).toBe(true);
      };
      compare(plan.roots, layout.roots, same.repair, "repair root");
      compare(plan.shapes.roots, layout.shapeRoots, same.shape, "shape root");
      compare(plan.open, layout.open, same.check, "open check");
      expect(layout.unions.map((u) => u.def.key)).toEqual(plan.unions.map((u) => u.def.key));
      plan.unions.forEach((union, n) => {
        const laid = layout.unions[n] as (typeof layout.unions)[number];
        expect(
          laid.variants.map((v) => v.tag),
          union.def.key,
        ).toEqual(union.variants.map((v) => v.tag));
        for (const [k, v] of union.variants.entries())
          expect(
            same.check(v.check, laid.variants[k]?.check as number),
            `${union.def.key} ${v.tag}`,
          ).toBe(true);
        expect(optional(union.other, laid.other, same.check), `${union.def.key} other`).toBe(true);
      });
    },
  );

  it("the shared records refer to shared records only: their module's plan is complete", () => {
    const { base } = layouts.stable;
    const refs = references(base);
    expect(Math.max(-1, ...refs.check)).toBeLessThan(base.checks.length);
    expect(Math.max(-1, ...refs.repair)).toBeLessThan(base.nodes.length);
    expect(Math.max(-1, ...refs.shape)).toBeLessThan(base.shapes.length);
    // Both surfaces lay out the same records first.
    expect(layouts.unstable.base).toBe(base);
    // A definition's check there is the shared validator: one both surfaces compile the same.
    const named = base.checks.flatMap((c) =>
      c.kind === "ref" || c.kind === "open" ? [c.def] : [],
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((def) => !shared.has(def))).toEqual([]);
  });

  it("what a definition both surfaces share needs is written once, in the shared records", () => {
    const { base } = layouts.stable;
    let roots = 0;
    for (const def of shared) {
      for (const [map, count] of [
        ["shapeRoots", base.shapes.length],
        ["roots", base.nodes.length],
        ["open", base.checks.length],
      ] as const) {
        const mine = layouts.unstable[map].get(def);
        expect(mine, `${map} ${def}`).toBe(layouts.stable[map].get(def));
        if (mine === undefined) continue;
        expect(mine, `${map} ${def}`).toBeLessThan(count);
        roots++;
      }
    }
    // Something to find, on both counts: shared roots, and records only the unstable plan has.
    expect(roots).toBeGreaterThan(0);
    expect(layouts.unstable.own.shapes.length).toBeGreaterThan(0);
  });
});
