import type { PlanNode, PropertyPlan, VariantPlan } from "../../templates/runtime/parse.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { assertions, requiredOf, soleRef, unionKeyword } from "../schema/node.js";
import { refTarget, refTo } from "../schema/refs.js";
import { CheckTable } from "./checks.js";
import type { Definition, SurfaceModel } from "./protocol.js";
import { type TaggedUnion, taggedUnion } from "./unions.js";

/**
 * What lenient parsing does, per definition, as data: which properties of which object
 * schemas carry a deserialization annotation or a default, which arrays drop invalid
 * items, which unions dispatch on a tag, and which references to follow to get there.
 * The runtime interpreter (templates/runtime/parse.ts) walks it; nodes and checks are
 * referred to by index, so recursive definitions are plain cycles in the table.
 *
 * Only subschemas that lead to something to do get a node: a definition whose whole tree
 * carries no annotation needs no plan, and parsing it is exactly strict validation.
 */
export interface RepairPlan {
  /** The nodes, in the shape the runtime interpreter reads (templates/runtime/parse.ts). */
  nodes: PlanNode[];
  /** Where each node comes from (`ToolCall/properties/content`), by index: a comment in the output. */
  where: string[];
  checks: CheckTable;
  /** Definition key → its root node, for definitions with anything to repair or fill. */
  roots: Map<string, number>;
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

const ON_ERROR = "x-deserialize-default-on-error";
const ON_NULL = "x-deserialize-default-on-null";
const SKIP_INVALID = "x-deserialize-skip-invalid-items";

export function buildRepairPlan(surface: SurfaceModel): RepairPlan {
  return new PlanBuilder(surface).build();
}

class PlanBuilder {
  private readonly defs = new Map<string, Definition>();
  private readonly relevantDefs = new Set<string>();
  private readonly nodes: Draft<PlanNode>[] = [];
  private readonly where: string[] = [];
  /** Properties that change even a valid value: a default to fill in, or a null to replace. */
  private readonly fillsValid = new WeakSet<PropertyPlan>();
  private readonly roots = new Map<string, number>();
  readonly checks: CheckTable;

  constructor(private readonly surface: SurfaceModel) {
    for (const def of surface.definitions) this.defs.set(def.key, def);
    this.checks = new CheckTable((ref) => this.refToDef(ref));
  }

  build(): RepairPlan {
    this.findRelevant();
    for (const def of this.surface.definitions) this.defRoot(def.key);
    markFill(this.nodes, this.fillsValid);
    const unions = this.surface.definitions.flatMap((def) => this.unionHelper(def) ?? []);
    return {
      nodes: this.nodes,
      where: this.where,
      checks: this.checks,
      roots: this.roots,
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

  /** The node for an inline subschema, or the definition's when it is only a reference. */
  private node(schema: Json, where: string): number | undefined {
    if (!isObject(schema) || !this.relevant(schema)) return undefined;
    // A reference whose items are skipped when invalid has something to do of its own.
    const ref = schema[SKIP_INVALID] === true ? undefined : soleRef(schema);
    if (ref !== undefined) {
      const key = this.refToDef(ref);
      return key === undefined ? undefined : this.defRoot(key);
    }
    const index = this.reserve();
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
    let fillsValid = false;
    if (sub[ON_ERROR] === true) {
      const check = this.checks.of(sub);
      if (check !== undefined) {
        plan.onError = check;
        const fallback = fallbackFor(sub, required);
        if (fallback === "omit") plan.omit = true;
        else if (fallback !== undefined) plan.fallback = fallback.value;
      }
    }
    if (sub[ON_NULL] === true) {
      const empty = hasDefault ? { value: sub.default as Json } : emptyValue(sub);
      if (empty !== undefined) {
        plan.onNull = empty.value;
        // Where the schema itself admits null, replacing it changes even a valid value.
        if (admitsNull(sub)) fillsValid = true;
      }
    }
    // A required property with a default cannot be missing from a valid value anyway.
    if (hasDefault && !required) {
      plan.default = sub.default as Json;
      fillsValid = true;
    }
    if (Object.keys(plan).length === 1) return undefined;
    if (fillsValid) this.fillsValid.add(plan);
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

/**
 * What replaces a value that fails `x-deserialize-default-on-error`. The reference
 * implementation (serde_with's DefaultOnError) falls back to the Rust type's
 * `Default`, which the schema shows as `default` when it is not the type's natural empty
 * value. So: the schema's `default`; else the empty value of a non-nullable array
 * (`Vec`) or map (`HashMap`), which is what `Default` gives for those; else, for an
 * optional property (`Option`, default `None`), no property at all. A required property
 * with neither stays invalid, and parsing fails.
 */
function fallbackFor(sub: JsonObject, required: boolean): { value: Json } | "omit" | undefined {
  if (Object.hasOwn(sub, "default")) return { value: sub.default as Json };
  const empty = emptyValue(sub);
  if (empty !== undefined) return empty;
  return required ? undefined : "omit";
}

/** `[]` for an array type, `{}` for a map type (an object with only `additionalProperties`). */
function emptyValue(sub: JsonObject): { value: Json } | undefined {
  if (sub.type === "array") return { value: [] };
  if (sub.type === "object" && !isObject(sub.properties) && sub.additionalProperties !== undefined)
    return { value: {} };
  return undefined;
}

function admitsNull(sub: JsonObject): boolean {
  if (sub.type === "null" || (Array.isArray(sub.type) && sub.type.includes("null"))) return true;
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = sub[keyword];
    if (Array.isArray(list) && list.some((b) => isObject(b) && b.type === "null")) return true;
  }
  return false;
}

/** `fill` on every node from which a default can be reached, to a fixpoint (cycles). */
function markFill(nodes: Draft<PlanNode>[], fillsValid: WeakSet<PropertyPlan>): void {
  const fills = (index: number | undefined): boolean =>
    index !== undefined && nodes[index]?.fill === true;
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of nodes) {
      if (node.fill) continue;
      const own =
        node.properties?.some((p) => fillsValid.has(p) || fills(p.node)) ||
        fills(node.items) ||
        fills(node.values) ||
        node.allOf?.some(fills) ||
        node.union?.variants.some((v) => fills(v.node));
      if (own) {
        node.fill = true;
        changed = true;
      }
    }
  }
}
