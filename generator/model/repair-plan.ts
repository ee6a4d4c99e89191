import type { PlanNode, PropertyPlan, VariantPlan } from "../../templates/runtime/parse.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { assertions, requiredOf, soleRef, unionKeyword } from "../schema/node.js";
import { refTarget, refTo } from "../schema/refs.js";
import {
  reachingClosedUnions,
  type TaggedUnion,
  taggedUnion,
  withUnknownVariant,
} from "../schema/unions.js";
import { fallbackFor, nullReplacement, ON_ERROR, ON_NULL, SKIP_INVALID } from "./annotations.js";
import { CheckTable } from "./checks.js";
import { mergeEqualNodes } from "./plan-graph.js";
import type { Definition, SurfaceModel } from "./protocol.js";
import { mergeShapes, ShapeBuilder, type ShapePlan } from "./shape-plan.js";

/**
 * What parsing does, per definition, as data the runtime interpreter
 * (templates/runtime/parse.ts) walks: nodes and checks are referred to by index, so
 * recursive definitions are plain cycles in the tables.
 *
 * - The repair plan proper (`nodes`): which properties of which object schemas carry a
 *   deserialization annotation or a default, which arrays drop invalid items, which unions
 *   dispatch on a tag, and which references to follow to get there. Only subschemas that
 *   lead to an annotation get a node: a definition whose whole tree carries none has
 *   nothing to repair.
 * - The shape plan (`shapes`, model/shape-plan.ts): what serde keeps of a valid value.
 * - The open reading (`open`): for definitions that can hold a closed tagged union, the
 *   check a value passes when its unknown variants are accepted.
 */
export interface RepairPlan {
  /** The nodes, in the shape the runtime interpreter reads (templates/runtime/parse.ts). */
  nodes: PlanNode[];
  /** Where each node comes from (`ToolCall/properties/content`), by index: a comment in the output. */
  where: string[];
  checks: CheckTable;
  /** Definition key → its root node, for definitions with anything to repair. */
  roots: Map<string, number>;
  shapes: ShapePlan;
  /** Definition key → the check of the open reading, for definitions it reads differently. */
  open: Map<string, number>;
  /** Narrowing helpers, one per definition whose root is a tagged union. */
  unions: UnionHelper[];
}

/** A plan record while it is being built: the runtime's shape, not yet frozen. */
type Draft<T> = { -readonly [K in keyof T]: T[K] };

export interface UnionHelper {
  def: Definition;
  union: TaggedUnion;
  /** Tag → check of the whole value as that variant (payload included, not just the tag). */
  variants: Array<{ tag: string; check: number }>;
  /** Check of the whole value as the catch-all variant, for open unions. */
  other?: number;
}

/**
 * The surface's parse plan. `reachesClosed`: the definitions that can hold a closed tagged
 * union (the analysis stage has them; computed here when not given).
 */
export function buildRepairPlan(
  surface: SurfaceModel,
  reachesClosed: ReadonlySet<string> = reachingClosedUnions(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  ),
): RepairPlan {
  return new PlanBuilder(surface, reachesClosed).build();
}

class PlanBuilder {
  private readonly defs = new Map<string, Definition>();
  private readonly relevantDefs = new Set<string>();
  private readonly nodes: Draft<PlanNode>[] = [];
  private readonly where: string[] = [];
  private readonly roots = new Map<string, number>();
  private readonly inline = new WeakMap<object, number>();
  /** Definitions that can hold a closed tagged union: the open reading reads them differently. */
  readonly checks: CheckTable;

  constructor(
    private readonly surface: SurfaceModel,
    private readonly reachesClosed: ReadonlySet<string>,
  ) {
    for (const def of surface.definitions) this.defs.set(def.key, def);
    this.checks = new CheckTable((ref) => this.refToDef(ref), {
      reaches: (key) => this.reachesClosed.has(key),
      schema: (key) => openSchema(this.defs.get(key) as Definition),
    });
  }

  build(): RepairPlan {
    this.findRelevant();
    for (const def of this.surface.definitions) this.defRoot(def.key);
    const shapes = new ShapeBuilder(
      this.defs,
      (ref) => this.refToDef(ref),
      this.checks,
      this.reachesClosed,
      (schema, where) => this.node(schema, where),
    ).build();
    const open = new Map<string, number>();
    for (const def of this.surface.definitions)
      if (this.reachesClosed.has(def.key)) open.set(def.key, this.checks.openDef(def.key));
    const unions = this.surface.definitions.flatMap((def) => this.unionHelper(def) ?? []);
    // Built per subschema path, both plans repeat themselves (a definition reached through
    // many references, an inline `_meta` in every definition): equal nodes become one.
    // The shape plan refers to repair nodes, so the repair plan is merged first.
    const merged = mergeEqualNodes(this.nodes, (node, f) => mapRepairRefs(node, f));
    return {
      nodes: merged.nodes,
      where: merged.representatives.map((i) => this.where[i] as string),
      checks: this.checks,
      roots: new Map([...this.roots].map(([key, node]) => [key, merged.index(node)])),
      shapes: mergeShapes(shapes, merged.index),
      open,
      unions,
    };
  }

  /** `#/$defs/Name` → `Name`, for references to this surface's definitions only. */
  refToDef(ref: string): string | undefined {
    const key = refTarget(ref, this.surface.defsKeyword);
    return key !== undefined && this.defs.has(key) ? key : undefined;
  }

  private resolve = (ref: string): Json | undefined => {
    const key = this.refToDef(ref);
    return key === undefined ? undefined : this.defs.get(key)?.schema;
  };

  /**
   * Definitions whose tree leads to an annotation or default, to a fixpoint: references
   * make the definitions a graph with cycles (ContentBlock ↔ EmbeddedResource…).
   */
  private findRelevant(): void {
    for (let changed = true; changed; ) {
      changed = false;
      for (const def of this.surface.definitions) {
        if (this.relevantDefs.has(def.key) || !this.relevant(def.schema)) continue;
        this.relevantDefs.add(def.key);
        changed = true;
      }
    }
  }

  private relevant(schema: Json): boolean {
    if (!isObject(schema)) return false;
    if (hasOwnAction(schema)) return true;
    if (typeof schema.$ref === "string") {
      const key = this.refToDef(schema.$ref);
      if (key !== undefined && this.relevantDefs.has(key)) return true;
    }
    return walkedChildren(schema).some((child) => this.relevant(child));
  }

  private defRoot(key: string): number | undefined {
    if (!this.relevantDefs.has(key)) return undefined;
    const known = this.roots.get(key);
    if (known !== undefined) return known;
    const index = this.reserve();
    // Registered before its children are built, so a cycle back to it ends here.
    this.roots.set(key, index);
    this.fill(index, this.defs.get(key)?.schema as JsonObject, key);
    return index;
  }

  /**
   * The node for an inline subschema, or the definition's when it is only a reference; one
   * per schema object (the shape plan asks for union branches the plan already has).
   */
  node(schema: Json, where: string): number | undefined {
    if (!isObject(schema) || !this.relevant(schema)) return undefined;
    // A reference whose items are skipped when invalid has something to do of its own.
    const ref = soleRef(schema, (node) => node[SKIP_INVALID] === true);
    if (ref !== undefined) {
      const key = this.refToDef(ref);
      return key === undefined ? undefined : this.defRoot(key);
    }
    const known = this.inline.get(schema);
    if (known !== undefined) return known;
    const index = this.reserve();
    this.inline.set(schema, index);
    this.fill(index, schema, where);
    return index;
  }

  private reserve(): number {
    this.nodes.push({});
    this.where.push("");
    return this.nodes.length - 1;
  }

  private fill(index: number, schema: JsonObject, where: string): void {
    const required = new Set(requiredOf(schema));

    // Children are built in this order (it numbers the nodes), then set in the runtime's.
    const properties: PropertyPlan[] = [];
    if (isObject(schema.properties)) {
      for (const [name, sub] of Object.entries(schema.properties)) {
        if (!isObject(sub)) continue;
        const plan = this.property(name, sub, required.has(name), `${where}/properties/${name}`);
        if (plan) properties.push(plan);
      }
    }

    let items: number | undefined;
    let skipInvalid: number | undefined;
    if (isObject(schema.items)) {
      items = this.node(schema.items, `${where}/items`);
      if (schema[SKIP_INVALID] === true) skipInvalid = this.checks.of(schema.items);
    }

    let values: number | undefined;
    if (isObject(schema.additionalProperties))
      values = this.node(schema.additionalProperties, `${where}/additionalProperties`);

    const allOf: number[] = [];
    if (typeof schema.$ref === "string") {
      const key = this.refToDef(schema.$ref);
      const root = key === undefined ? undefined : this.defRoot(key);
      if (root !== undefined) allOf.push(root);
    }
    if (Array.isArray(schema.allOf))
      schema.allOf.forEach((part, i) => {
        const child = this.node(part, `${where}/allOf/${i}`);
        if (child !== undefined) allOf.push(child);
      });

    const union = this.union(schema, where);

    const node: Draft<PlanNode> = {};
    if (properties.length > 0) node.properties = properties;
    if (allOf.length > 0) node.allOf = allOf;
    if (union) node.union = union;
    if (items !== undefined) node.items = items;
    if (skipInvalid !== undefined) node.skipInvalid = skipInvalid;
    if (values !== undefined) {
      node.values = values;
      node.declared = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    }
    this.nodes[index] = node;
    this.where[index] = where;
  }

  private property(
    name: string,
    sub: JsonObject,
    required: boolean,
    where: string,
  ): PropertyPlan | undefined {
    const plan: Draft<PropertyPlan> = { name };
    const node = this.node(sub, where);
    if (node !== undefined) plan.node = node;

    const hasDefault = Object.hasOwn(sub, "default");
    if (sub[ON_ERROR] === true) {
      const check = this.checks.of(sub);
      if (check !== undefined) {
        plan.onError = check;
        const fallback = fallbackFor(sub, required);
        if (fallback === "omit") plan.omit = true;
        else if (fallback !== undefined) plan.fallback = fallback.value;
      }
    }
    const onNull = nullReplacement(sub);
    if (onNull !== undefined) plan.onNull = onNull.value;
    // A required property with a default cannot be missing from a valid value anyway.
    if (hasDefault && !required) plan.default = sub.default as Json;
    if (Object.keys(plan).length === 1) return undefined;
    return plan;
  }

  /** Dispatch for a `oneOf`/`anyOf` with anything to repair inside some branch. */
  private union(schema: JsonObject, where: string): PlanNode["union"] | undefined {
    const keyword = unionKeyword(schema);
    if (!keyword) return undefined;
    const branches = schema[keyword] as Json[];
    const nodes = branches.map((b, i) => this.node(b, `${where}/${keyword}/${i}`));
    if (nodes.every((n) => n === undefined)) return undefined;
    const tagged = taggedUnion(schema, this.resolve);
    const variants: Draft<VariantPlan>[] = branches.map((_, i) => {
      const variant = tagged?.variants[i];
      const plan: Draft<VariantPlan> = {};
      if (variant?.kind === "tagged") plan.tag = variant.value;
      if (variant?.kind === "other") plan.other = true;
      const node = nodes[i];
      if (node !== undefined) plan.node = node;
      return plan;
    });
    // With an untagged variant there can be several candidates for one value; each then
    // needs a check so the first that fits wins, as with serde's untagged variants.
    if (variants.some((v) => v.tag === undefined && !v.other) && variants.length > 1) {
      branches.forEach((branch, i) => {
        const check = this.checks.of(branch);
        if (check !== undefined) (variants[i] as Draft<VariantPlan>).check = check;
      });
    }
    return tagged ? { tag: tagged.tag, variants } : { variants };
  }

  private unionHelper(def: Definition): UnionHelper | undefined {
    const union = def.union;
    if (!union || !isObject(def.schema)) return undefined;
    // Beside the union the definition may require common properties (CreateElicitationRequest's
    // `message`); a variant is then the whole definition *and* that branch.
    const siblings = Object.keys(assertions(def.schema)).some((k) => k !== union.keyword);
    const whole = siblings
      ? this.checks.of({ $ref: refTo(this.surface.defsKeyword, def.key) })
      : undefined;
    const checkOf = (schema: Json): number =>
      this.checks.all([whole, this.checks.of(schema)]) ?? this.checks.always();
    const helper: UnionHelper = { def, union, variants: [] };
    for (const variant of union.variants) {
      if (variant.kind === "tagged")
        helper.variants.push({ tag: variant.value, check: checkOf(variant.schema) });
      else if (variant.kind === "other") helper.other = checkOf(variant.schema);
    }
    return helper;
  }
}

/** Annotations that act on this very node or on its declared properties. */
function hasOwnAction(schema: JsonObject): boolean {
  if (schema[SKIP_INVALID] === true && isObject(schema.items)) return true;
  if (!isObject(schema.properties)) return false;
  const required = new Set(requiredOf(schema));
  return Object.entries(schema.properties).some(
    ([name, sub]) =>
      isObject(sub) &&
      (sub[ON_ERROR] === true ||
        sub[ON_NULL] === true ||
        (Object.hasOwn(sub, "default") && !required.has(name))),
  );
}

/** The subschema positions the interpreter descends into (and only those). */
function walkedChildren(schema: JsonObject): Json[] {
  const out: Json[] = [];
  if (isObject(schema.properties)) out.push(...Object.values(schema.properties));
  if (isObject(schema.items)) out.push(schema.items);
  if (isObject(schema.additionalProperties)) out.push(schema.additionalProperties);
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[keyword];
    if (Array.isArray(list)) out.push(...list);
  }
  return out;
}

/** A definition as the open reading checks it: a closed union admits unknown variants. */
function openSchema(def: Definition): Json {
  return def.union && isObject(def.schema) ? withUnknownVariant(def.schema, def.union) : def.schema;
}

/**
 * A repair node with each reference to another repair node passed through `f`, and each
 * reference to a check through `check` (model/plan-link.ts renumbers both).
 */
export function mapRepairRefs(
  node: PlanNode,
  f: (index: number) => number,
  check: (index: number) => number = (i) => i,
): PlanNode {
  const out: Draft<PlanNode> = { ...node };
  if (node.properties)
    out.properties = node.properties.map((p) => {
      const plan: Draft<PropertyPlan> = { ...p };
      if (p.node !== undefined) plan.node = f(p.node);
      if (p.onError !== undefined) plan.onError = check(p.onError);
      return plan;
    });
  if (node.allOf) out.allOf = node.allOf.map(f);
  if (node.union)
    out.union = {
      ...node.union,
      variants: node.union.variants.map((v) => {
        const plan: Draft<VariantPlan> = { ...v };
        if (v.node !== undefined) plan.node = f(v.node);
        if (v.check !== undefined) plan.check = check(v.check);
        return plan;
      }),
    };
  if (node.items !== undefined) out.items = f(node.items);
  if (node.skipInvalid !== undefined) out.skipInvalid = check(node.skipInvalid);
  if (node.values !== undefined) out.values = f(node.values);
  return out;
}
