import type {
  FillPlan,
  ShapeNode,
  ShapeUnion,
  ShapeVariant,
} from "../../templates/runtime/parse.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import {
  assertions,
  literalOf,
  objectKeys,
  requiredOf,
  soleRef,
  typesOf,
  unionKeyword,
} from "../schema/node.js";
import { isClosed, taggedUnion } from "../schema/unions.js";
import { validFill } from "./annotations.js";
import type { CheckTable } from "./checks.js";
import { mergeEqualNodes } from "./plan-graph.js";
import type { Definition } from "./protocol.js";

/**
 * The shape plan: what serde keeps of a *valid* value, per subschema, as data the runtime
 * walks (templates/runtime/parse.ts). An object keeps the keys its schema declares (every
 * `allOf` part and reference merged into one table, read by `objectKeys`) and drops the
 * others, unless the schema admits arbitrary keys (`_meta`, maps, free-form values); a
 * union is read as the variant serde picks, so the losing variant's tag and fields go; a
 * missing property with a default is filled in.
 *
 * Every subschema a value can hold an object at gets a node, since any object may carry a
 * key to drop (`__proto__` at least). Subschemas that hold only scalars get none.
 */
export interface ShapePlan {
  nodes: ShapeNode[];
  /** Where each node comes from, by index: a comment in the output. */
  where: string[];
  /** Definition key → its root node, for definitions a value of which can hold an object. */
  roots: Map<string, number>;
}

/** A plan record while it is being built: the runtime's shape, not yet frozen. */
type Draft<T> = { -readonly [K in keyof T]: T[K] };

/** Index of a key whose value holds no object (kept as is). */
const NO_OBJECT = -1;
/** What kinds of container a value can be, as bits. */
const SHAPE_OBJECT = 1;
const SHAPE_ARRAY = 2;
const ANY_KIND = SHAPE_OBJECT | SHAPE_ARRAY;
const KIND_NAMES = { [SHAPE_OBJECT]: "object", [SHAPE_ARRAY]: "array", 0: "scalar" } as const;

export class ShapeBuilder {
  private readonly nodes: Draft<ShapeNode>[] = [];
  private readonly where: string[] = [];
  private readonly roots = new Map<string, number>();
  /** Definitions that hold no object: no node. */
  private readonly holdsDef = new Map<string, boolean>();
  private readonly bySchema = new WeakMap<object, number | null>();
  /** Nodes of merged schemas (a key declared by several parts), by the parts' ids. */
  private readonly byParts = new Map<string, number | null>();
  private readonly ids = new Map<object, number>();
  /** Definitions by their root schema: a union there is the one the model classified. */
  private readonly bySchemaRoot = new Map<Json, Definition>();
  private readonly kindsOfDef = new Map<string, number>();
  private freeNode: number | undefined;

  constructor(
    private readonly defs: ReadonlyMap<string, Definition>,
    private readonly refToDef: (ref: string) => string | undefined,
    private readonly checks: CheckTable,
    /** Definitions whose value can hold a closed tagged union (the open reading's concern). */
    private readonly open: ReadonlySet<string>,
    /** The repair plan's node for a subschema: a competing variant is tried repaired too. */
    private readonly repairOf: (schema: Json, where: string) => number | undefined,
  ) {
    for (const def of defs.values()) this.bySchemaRoot.set(def.schema, def);
  }

  build(): ShapePlan {
    for (const key of this.defs.keys()) this.root(key);
    return { nodes: this.nodes, where: this.where, roots: this.roots };
  }

  /** The root node of a definition, or undefined when its values hold no object. */
  root(key: string): number | undefined {
    const known = this.roots.get(key);
    if (known !== undefined) return known;
    const def = this.defs.get(key);
    if (!def || !this.holdsObjectDef(key, new Set())) return undefined;
    const index = this.reserve(key);
    // Registered before the children are built, so a cycle back to it ends here.
    this.roots.set(key, index);
    this.fill(index, def.schema);
    return index;
  }

  /** The node for a subschema, or undefined when its values hold no object. */
  private of(schema: Json, where: string): number | undefined {
    if (schema === true) return this.free();
    if (!isObject(schema)) return undefined;
    const ref = soleRef(schema);
    if (ref !== undefined) {
      const key = this.refToDef(ref);
      return key === undefined ? this.free() : this.root(key);
    }
    if (Object.keys(assertions(schema)).length === 0) return this.free();
    const known = this.bySchema.get(schema);
    if (known !== undefined) return known ?? undefined;
    if (!this.holdsObject(schema, new Set())) {
      this.bySchema.set(schema, null);
      return undefined;
    }
    const index = this.reserve(where);
    this.bySchema.set(schema, index);
    this.fill(index, schema);
    return index;
  }

  /** The node for values several schemas describe at once (one key declared by several parts). */
  private ofAll(schemas: Json[], where: string): number | undefined {
    if (schemas.length === 1) return this.of(schemas[0] as Json, where);
    const id = schemas.map((s) => this.idOf(s)).join(",");
    const known = this.byParts.get(id);
    if (known !== undefined) return known ?? undefined;
    const merged = { allOf: schemas };
    const index = this.of(merged, where);
    this.byParts.set(id, index ?? null);
    return index;
  }

  private idOf(schema: Json): string {
    if (!isObject(schema)) return JSON.stringify(schema);
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return String(id);
  }

  private free(): number {
    if (this.freeNode === undefined) {
      this.freeNode = this.reserve("(free-form)");
      this.nodes[this.freeNode] = { free: true };
    }
    return this.freeNode;
  }

  private reserve(where: string): number {
    this.nodes.push({});
    this.where.push(where);
    return this.nodes.length - 1;
  }

  private fill(index: number, schema: Json): void {
    const where = this.where[index] as string;
    const parts = new Flattened();
    this.flatten(schema, parts, new Set());
    const kinds = this.kinds(schema);
    const node: Draft<ShapeNode> = {};
    if (parts.free) {
      node.free = true;
      this.nodes[index] = node;
      return;
    }
    if (kinds & SHAPE_OBJECT) {
      const keys: Array<[string, number]> = [];
      for (const [name, schemas] of parts.keys)
        keys.push([name, this.ofAll(schemas, `${where}/properties/${name}`) ?? NO_OBJECT]);
      if (keys.length > 0) node.keys = keys;
      if (parts.others.length > 0)
        node.others = this.ofAll(parts.others, `${where}/additionalProperties`) ?? NO_OBJECT;
      if (parts.fills.length > 0) node.fills = parts.fills;
    }
    if (kinds & SHAPE_ARRAY && parts.items.length > 0) {
      const items = this.ofAll(parts.items, `${where}/items`);
      if (items !== undefined) node.items = items;
    }
    const unions = parts.unions.flatMap((u, i) => this.union(u, `${where}/union/${i}`) ?? []);
    if (unions.length > 0) node.unions = unions;
    this.nodes[index] = node;
  }

  /**
   * Everything the object's parts say, merged: `schema` itself, its `allOf` parts and the
   * definitions it refers to (recursively); unions stay as they are, one per union node.
   */
  private flatten(schema: Json, into: Flattened, visiting: Set<string>): void {
    if (schema === true) {
      into.free = true;
      return;
    }
    if (!isObject(schema)) return;
    if (Object.keys(assertions(schema)).length === 0) {
      into.free = true;
      return;
    }
    const own = objectKeys(schema);
    const required = new Set(requiredOf(schema));
    for (const name of own.declared) {
      const list = into.keys.get(name) ?? [];
      list.push(own.schemas.get(name) as Json);
      into.keys.set(name, list);
      const sub = own.schemas.get(name);
      if (isObject(sub)) {
        const fill = validFill(name, sub, required.has(name));
        if (fill) into.fills.push(fill);
      }
    }
    if (own.others !== undefined && own.others !== "dropped") into.others.push(own.others);
    if (Object.hasOwn(schema, "items")) into.items.push(schema.items as Json);
    else if (typesOf(schema)?.includes("array")) into.items.push(true);
    if (Object.hasOwn(schema, "prefixItems") || Object.hasOwn(schema, "contains")) into.free = true;
    if (unionKeyword(schema)) into.unions.push(schema);
    if (typeof schema.$ref === "string") {
      const key = this.refToDef(schema.$ref);
      const def = key === undefined ? undefined : this.defs.get(key);
      if (!def || key === undefined) into.free = true;
      else if (!visiting.has(key)) {
        visiting.add(key);
        this.flatten(def.schema, into, visiting);
        visiting.delete(key);
      }
    }
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) this.flatten(part, into, visiting);
  }

  /** How a union's variant is picked for a value, with each variant's shape. */
  private union(schema: JsonObject, where: string): ShapeUnion | undefined {
    const keyword = unionKeyword(schema) as "oneOf" | "anyOf";
    const branches = schema[keyword] as Json[];
    const resolve = (ref: string): Json | undefined => {
      const key = this.refToDef(ref);
      return key === undefined ? undefined : this.defs.get(key)?.schema;
    };
    const tagged = taggedUnion(schema, resolve);
    const nodes = branches.map((b, i) => this.of(b, `${where}/${keyword}/${i}`));
    if (nodes.every((n) => n === undefined)) return undefined;
    const untagged = (i: number) => !tagged || tagged.variants[i]?.kind === "untagged";
    const kinds = branches.map((b) => this.kinds(b));
    const untaggedKinds = branches.flatMap((_, i) => (untagged(i) ? [i] : []));
    // Variants compete for a value where serde may try more than one on it: the tag's own
    // variant beside an untagged one that can be an object, or untagged variants that can be
    // the same kind of container. Each of those needs its check, tried in order.
    const competes = (i: number): boolean =>
      untagged(i)
        ? (tagged !== undefined &&
            ((kinds[i] as number) & SHAPE_OBJECT) !== 0 &&
            tagged.variants.some((v) => v.kind !== "untagged")) ||
          untaggedKinds.some((j) => j !== i && ((kinds[i] as number) & (kinds[j] as number)) !== 0)
        : untaggedKinds.some((j) => ((kinds[j] as number) & SHAPE_OBJECT) !== 0);
    const variants = branches.map((branch, i): ShapeVariant => {
      const variant = tagged?.variants[i];
      const out: Draft<ShapeVariant> = {};
      if (variant?.kind === "tagged") out.tag = variant.value;
      else if (variant?.kind === "other") out.other = true;
      else if (kinds[i] !== ANY_KIND) out.kinds = KIND_NAMES[kinds[i] as keyof typeof KIND_NAMES];
      const node = nodes[i];
      if (node !== undefined) out.node = node;
      if (competes(i)) {
        const check = this.checks.of(branch);
        if (check !== undefined) out.check = check;
        // serde tries each candidate with its own deserialization rules: a variant that is
        // valid once repaired wins over a later one that is valid as it is.
        const repair = this.repairOf(branch, `${where}/${keyword}/${i}`);
        if (repair !== undefined && check !== undefined) out.repair = repair;
        const open = this.reachesOpen(branch) ? this.checks.openOf(branch) : undefined;
        if (open !== undefined && open !== check) out.open = open;
      }
      return out;
    });
    const union: Draft<ShapeUnion> = { variants };
    if (tagged) union.tag = tagged.tag;
    // Closed at a definition's root: the unions the open reading (and its types) know.
    const root = this.bySchemaRoot.get(schema);
    if (root?.union && isClosed(root.union) && tagged) union.closed = true;
    return union;
  }

  private reachesOpen(schema: Json): boolean {
    let found = false;
    const visit = (node: Json): void => {
      if (found || !isObject(node)) return;
      if (typeof node.$ref === "string") {
        const key = this.refToDef(node.$ref);
        if (key !== undefined && this.open.has(key)) found = true;
      }
      for (const value of Object.values(node))
        if (Array.isArray(value)) value.forEach(visit);
        else if (isObject(value)) visit(value);
    };
    visit(schema);
    return found;
  }

  /**
   * Whether a value of `schema` can hold an object anywhere inside it (or be one): an array
   * only through its items, under every constraint at once (`allOf`, references) and some
   * branch of a union.
   */
  private holdsObject(schema: Json, visiting: Set<string>): boolean {
    if (schema === true) return true;
    if (!isObject(schema)) return false;
    const kinds = this.kinds(schema);
    if (kinds & SHAPE_OBJECT) return true;
    if (!(kinds & SHAPE_ARRAY)) return false;
    if (Object.hasOwn(schema, "items") && !this.holdsObject(schema.items as Json, visiting))
      return false;
    if (typeof schema.$ref === "string") {
      const key = this.refToDef(schema.$ref);
      if (key !== undefined && !this.holdsObjectDef(key, visiting)) return false;
    }
    if (Array.isArray(schema.allOf) && schema.allOf.some((p) => !this.holdsObject(p, visiting)))
      return false;
    const keyword = unionKeyword(schema);
    if (keyword && !(schema[keyword] as Json[]).some((b) => this.holdsObject(b, visiting)))
      return false;
    return true;
  }

  private holdsObjectDef(key: string, visiting: Set<string>): boolean {
    const known = this.holdsDef.get(key);
    if (known !== undefined) return known;
    // A cycle: assume it may; the node built for it then finds out.
    if (visiting.has(key)) return true;
    const def = this.defs.get(key);
    if (!def) return true;
    visiting.add(key);
    const holds = this.holdsObject(def.schema, visiting);
    visiting.delete(key);
    if (visiting.size === 0) this.holdsDef.set(key, holds);
    return holds;
  }

  /** What kinds of container a value of `schema` can be: `SHAPE_OBJECT | SHAPE_ARRAY` bits. */
  private kinds(schema: Json, visiting = new Set<string>()): number {
    if (schema === true) return ANY_KIND;
    if (!isObject(schema)) return 0;
    let kinds = ANY_KIND;
    const literal = literalOf(schema);
    if (literal !== undefined || Array.isArray(schema.enum)) {
      const values = literal !== undefined ? [literal] : (schema.enum as Json[]);
      kinds = 0;
      for (const v of values) {
        if (Array.isArray(v)) kinds |= SHAPE_ARRAY;
        else if (isObject(v)) kinds |= SHAPE_OBJECT;
      }
    }
    const types = typesOf(schema);
    if (types) {
      let allowed = 0;
      if (types.includes("object")) allowed |= SHAPE_OBJECT;
      if (types.includes("array")) allowed |= SHAPE_ARRAY;
      kinds &= allowed;
    }
    if (typeof schema.$ref === "string") {
      const key = this.refToDef(schema.$ref);
      if (key !== undefined) kinds &= this.kindsOfDefinition(key, visiting);
    }
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) kinds &= this.kinds(part, visiting);
    const keyword = unionKeyword(schema);
    if (keyword) {
      let some = 0;
      for (const branch of schema[keyword] as Json[]) some |= this.kinds(branch, visiting);
      kinds &= some;
    }
    return kinds;
  }

  private kindsOfDefinition(key: string, visiting: Set<string>): number {
    const known = this.kindsOfDef.get(key);
    if (known !== undefined) return known;
    // A cycle: assume anything here; the definition's own keywords still narrow it.
    if (visiting.has(key)) return ANY_KIND;
    const def = this.defs.get(key);
    if (!def) return ANY_KIND;
    visiting.add(key);
    const kinds = this.kinds(def.schema, visiting);
    visiting.delete(key);
    if (visiting.size === 0) this.kindsOfDef.set(key, kinds);
    return kinds;
  }
}

/** What an object's parts say together. */
class Flattened {
  free = false;
  /** Declared key → the schemas of its value, one per part that declares it. */
  readonly keys = new Map<string, Json[]>();
  /** Schemas other keys' values must match, where some part admits other keys. */
  readonly others: Json[] = [];
  readonly fills: FillPlan[] = [];
  readonly items: Json[] = [];
  /** Union nodes among the parts. */
  readonly unions: JsonObject[] = [];
}

/**
 * `plan` with its equal nodes merged (model/plan-graph.ts), and its references into the
 * repair plan renumbered by `repairIndex` (that plan's own merge).
 */
export function mergeShapes(plan: ShapePlan, repairIndex: (old: number) => number): ShapePlan {
  const renumbered = plan.nodes.map((node) => mapShapeRefs(node, (i) => i, repairIndex));
  const merged = mergeEqualNodes(renumbered, (node, f) => mapShapeRefs(node, f, (i) => i));
  return {
    nodes: merged.nodes,
    where: merged.representatives.map((i) => plan.where[i] as string),
    roots: new Map([...plan.roots].map(([key, node]) => [key, merged.index(node)])),
  };
}

/**
 * A shape node with each reference to another shape node through `f`, to a repair node
 * through `repair`, and to a check through `check` (model/plan-link.ts renumbers all three).
 */
export function mapShapeRefs(
  node: ShapeNode,
  f: (index: number) => number,
  repair: (index: number) => number,
  check: (index: number) => number = (i) => i,
): ShapeNode {
  const out: Draft<ShapeNode> = { ...node };
  const child = (index: number): number => (index === NO_OBJECT ? index : f(index));
  if (node.keys) out.keys = node.keys.map(([key, index]) => [key, child(index)] as const);
  if (node.others !== undefined) out.others = child(node.others);
  if (node.items !== undefined) out.items = f(node.items);
  if (node.unions)
    out.unions = node.unions.map((union) => ({
      ...union,
      variants: union.variants.map((v) => {
        const variant: Draft<ShapeVariant> = { ...v };
        if (v.node !== undefined) variant.node = f(v.node);
        if (v.repair !== undefined) variant.repair = repair(v.repair);
        if (v.check !== undefined) variant.check = check(v.check);
        if (v.open !== undefined) variant.open = check(v.open);
        return variant;
      }),
    }));
  return out;
}
