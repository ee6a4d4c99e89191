import type { PlanNode, ShapeNode } from "../../templates/runtime/parse.js";
import { canonical } from "../schema/equal.js";
import type { Json } from "../schema/json.js";
import { containsRef } from "../schema/node.js";
import { type CheckSpec, mapCheckRefs } from "./checks.js";
import { mergeEqualNodes } from "./plan-graph.js";
import { mapRepairRefs, type RepairPlan, type UnionHelper } from "./repair-plan.js";
import { mapShapeRefs } from "./shape-plan.js";

/** One module's records of a parse plan, table by table. */
export interface PlanTables {
  checks: CheckSpec[];
  nodes: PlanNode[];
  /** Where each repair node comes from, by position: a comment in the output. */
  where: string[];
  shapes: ShapeNode[];
  /** Where each shape node comes from, by position. */
  shapeWhere: string[];
}

/**
 * A surface's parse plan as its parsers.js lays it out. Each of its three tables (checks,
 * repair nodes, shape nodes) starts with the `base` records, the ones a stable surface and its
 * unstable surface share (the stable folder's shared-parsers.js holds them), and goes on with
 * the surface's `own`. Every index in the layout, in the records too, counts the base first,
 * so both surfaces' plans read the base records as the same indices. A surface with no
 * surface beside it has an empty base.
 */
export interface PlanLayout {
  base: PlanTables;
  own: PlanTables;
  /** Definition → the check that is the body of its open reading (what `open` specs call). */
  openBodies: Map<string, number>;
  /** Definition → its repair root, shape root, open check: as in `RepairPlan`. */
  roots: Map<string, number>;
  shapeRoots: Map<string, number>;
  open: Map<string, number>;
  unions: UnionHelper[];
}

/** The layout of a surface alone: everything its own. */
export function soloLayout(plan: RepairPlan): PlanLayout {
  return {
    base: { checks: [], nodes: [], where: [], shapes: [], shapeWhere: [] },
    own: {
      checks: plan.checks.specs,
      nodes: plan.nodes,
      where: plan.where,
      shapes: plan.shapes.nodes,
      shapeWhere: plan.shapes.where,
    },
    openBodies: new Map(plan.checks.openBodies),
    roots: plan.roots,
    shapeRoots: plan.shapes.roots,
    open: plan.open,
    unions: plan.unions,
  };
}

/**
 * The plans of a stable surface and of its unstable surface, laid out so that what they
 * share is written once. "Shared" is decided on the records, not on definitions: a check is
 * shared when it means the same on both sides (a reference to a definition whose validator
 * both surfaces share, `sharedDefs`; equal local schemas; the same combination of shared
 * checks), and a repair or shape node when the two plans' graphs are bisimilar there with
 * shared checks (model/plan-graph.ts). That holds for the subtrees of changed unions as well:
 * SessionUpdate gains a variant in the unstable schema, yet most of what its variants
 * reach is the stable plan's. Both relations are closed under references, so a base record
 * only ever refers to base records: the shared module's plan is complete on its own, which
 * its fast walks need (their slow path is that plan's interpreter).
 */
export function linkPlans(
  stable: RepairPlan,
  unstable: RepairPlan,
  sharedDefs: ReadonlySet<string>,
): { stable: PlanLayout; unstable: PlanLayout } {
  const sides = [stable, unstable] as const;

  const checks = numbering(checkClasses(sides, sharedDefs));
  const checkAt = (side: Side) => (i: number) => at(checks.index[side], i);

  // Records compared with their checks (and, for shapes, their repair nodes) as numbered
  // above, so that only shared ones compare equal across the two plans.
  const repairClasses = jointClasses(
    sides.map((plan, side) =>
      plan.nodes.map((n) => mapRepairRefs(n, (i) => i, comparable(checks, side as Side))),
    ),
    (node, f) => mapRepairRefs(node, f),
  );
  const nodes = numbering(repairClasses);
  const nodeAt = (side: Side) => (i: number) => at(nodes.index[side], i);

  const shapeClasses = jointClasses(
    sides.map((plan, side) =>
      plan.shapes.nodes.map((n) =>
        mapShapeRefs(
          n,
          (i) => i,
          comparable(nodes, side as Side),
          comparable(checks, side as Side),
        ),
      ),
    ),
    (node, f) => mapShapeRefs(node, f, (i) => i),
  );
  const shapes = numbering(shapeClasses);
  const shapeAt = (side: Side) => (i: number) => at(shapes.index[side], i);

  const tables = (side: Side, members: { checks: number[]; nodes: number[]; shapes: number[] }) => {
    const plan = sides[side];
    return {
      checks: members.checks.map((i) => mapCheckRefs(at(plan.checks.specs, i), checkAt(side))),
      nodes: members.nodes.map((i) =>
        mapRepairRefs(at(plan.nodes, i), nodeAt(side), checkAt(side)),
      ),
      where: members.nodes.map((i) => at(plan.where, i)),
      shapes: members.shapes.map((i) =>
        mapShapeRefs(at(plan.shapes.nodes, i), shapeAt(side), nodeAt(side), checkAt(side)),
      ),
      shapeWhere: members.shapes.map((i) => at(plan.shapes.where, i)),
    };
  };
  const base = tables(0, { checks: checks.base, nodes: nodes.base, shapes: shapes.base });
  assertClosed(base);

  const layout = (side: Side): PlanLayout => {
    const plan = sides[side];
    const mapValues = (map: ReadonlyMap<string, number>, f: (i: number) => number) =>
      new Map([...map].map(([key, i]) => [key, f(i)]));
    return {
      base,
      own: tables(side, {
        checks: checks.own[side],
        nodes: nodes.own[side],
        shapes: shapes.own[side],
      }),
      openBodies: mapValues(plan.checks.openBodies, checkAt(side)),
      roots: mapValues(plan.roots, nodeAt(side)),
      shapeRoots: mapValues(plan.shapes.roots, shapeAt(side)),
      open: mapValues(plan.open, checkAt(side)),
      unions: plan.unions.map((helper) => ({
        ...helper,
        variants: helper.variants.map((v) => ({ ...v, check: checkAt(side)(v.check) })),
        ...(helper.other === undefined ? {} : { other: checkAt(side)(helper.other) }),
      })),
    };
  };
  return { stable: layout(0), unstable: layout(1) };
}

type Side = 0 | 1;

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new RangeError(`plan record ${index} does not exist`);
  return item;
}

/**
 * Where each side's records go, given each record's class: a class both sides have is shared
 * (a base record, in the order the stable side first has them), any other is its side's own,
 * numbered after the base. Records of one class on one side become one record.
 */
interface Numbering {
  /** Stable-side record of each base position. */
  base: number[];
  /** Each side's record of each own position (after the base). */
  own: [number[], number[]];
  /** Each side's records' indices in its layout. */
  index: [number[], number[]];
}

function numbering(classes: readonly [readonly number[], readonly number[]]): Numbering {
  const other = new Set(classes[1]);
  const baseOf = new Map<number, number>();
  const base: number[] = [];
  classes[0].forEach((c, i) => {
    if (!other.has(c) || baseOf.has(c)) return;
    baseOf.set(c, base.length);
    base.push(i);
  });
  const own: [number[], number[]] = [[], []];
  const index: [number[], number[]] = [[], []];
  for (const side of [0, 1] as const) {
    const ownOf = new Map<number, number>();
    classes[side].forEach((c, record) => {
      let i = baseOf.get(c) ?? ownOf.get(c);
      if (i === undefined) {
        i = base.length + own[side].length;
        ownOf.set(c, i);
        own[side].push(record);
      }
      index[side].push(i);
    });
  }
  return { base, own, index };
}

/**
 * A record's index as the other records are compared with it: base indices are the same on
 * both sides; the unstable side's own ones are moved past the stable side's, so that no own
 * record of one side compares equal to one of the other.
 */
function comparable(numbered: Numbering, side: Side): (i: number) => number {
  const shift = side === 1 ? numbered.own[0].length : 0;
  return (i) => {
    const index = at(numbered.index[side], i);
    return index < numbered.base.length ? index : index + shift;
  };
}

/** Each record's bisimilarity class over both sides' graphs at once (model/plan-graph.ts). */
function jointClasses<T>(
  sides: readonly T[][],
  mapRefs: (node: T, f: (index: number) => number) => T,
): [number[], number[]] {
  const [stable = [], unstable = []] = sides;
  const offset = stable.length;
  const all = [...stable, ...unstable.map((n) => mapRefs(n, (i) => i + offset))];
  const merged = mergeEqualNodes(all, mapRefs);
  return [stable.map((_, i) => merged.index(i)), unstable.map((_, i) => merged.index(i + offset))];
}

/**
 * Each check's class: equal classes mean the same check on both sides. References are to
 * definitions (a shared definition's validator is one function for both sides, any other is
 * each side's own); local schemas are already reduced to their assertions (model/checks.ts)
 * and compared as written when they refer to nothing; combinations by kind and parts.
 *
 * An open reading's check (`open`) is named by its definition and calls its body through
 * the table: it is shared only when the definition is and both bodies are the same check,
 * found as a fixpoint since a body may refer back to open checks (cycles).
 */
function checkClasses(
  sides: readonly [RepairPlan, RepairPlan],
  sharedDefs: ReadonlySet<string>,
): [number[], number[]] {
  const bodies = sides.map((plan) => plan.checks.openBodies);
  let openShared = new Set(
    [...sharedDefs].filter((d) => bodies.every((b) => (b.get(d) ?? -1) >= 0)),
  );
  for (;;) {
    const ids = new Map<string, number>();
    const classes: [number[], number[]] = [
      classesOf(sides[0].checks.specs, 0, sharedDefs, openShared, ids),
      classesOf(sides[1].checks.specs, 1, sharedDefs, openShared, ids),
    ];
    const next = new Set(
      [...openShared].filter(
        (d) => classes[0][bodies[0]?.get(d) as number] === classes[1][bodies[1]?.get(d) as number],
      ),
    );
    if (next.size === openShared.size) return classes;
    openShared = next;
  }
}

function classesOf(
  specs: readonly CheckSpec[],
  side: Side,
  sharedDefs: ReadonlySet<string>,
  openShared: ReadonlySet<string>,
  ids: Map<string, number>,
): number[] {
  const classes: number[] = [];
  const idOf = (key: Json): number => {
    const text = canonical(key);
    let id = ids.get(text);
    if (id === undefined) {
      id = ids.size;
      ids.set(text, id);
    }
    return id;
  };
  // A combination's parts come before it in the table (model/checks.ts adds them first).
  specs.forEach((spec, i) => {
    switch (spec.kind) {
      case "ref":
        classes.push(idOf(sharedDefs.has(spec.def) ? ["ref", spec.def] : ["ref", side, spec.def]));
        return;
      case "open":
        classes.push(
          idOf(openShared.has(spec.def) ? ["open", spec.def] : ["open", side, spec.def]),
        );
        return;
      case "local":
        classes.push(idOf(containsRef(spec.schema) ? ["local", side, i] : ["local", spec.schema]));
        return;
      default:
        classes.push(idOf(["of", mapCheckRefs(spec, (c) => at(classes, c)) as unknown as Json]));
    }
  });
  return classes;
}

/** A base record referring past the base would leave the shared module's plan incomplete. */
function assertClosed(base: PlanTables): void {
  const within = (count: number, what: string) => (i: number) => {
    if (i >= count) throw new RangeError(`a shared ${what} refers to record ${i}, not shared`);
    return i;
  };
  const check = within(base.checks.length, "check");
  const node = within(base.nodes.length, "repair node");
  for (const spec of base.checks) mapCheckRefs(spec, check);
  for (const n of base.nodes) mapRepairRefs(n, node, check);
  for (const s of base.shapes)
    mapShapeRefs(s, within(base.shapes.length, "shape node"), node, check);
}
