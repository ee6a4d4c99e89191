/**
 * The shape plan's interpreter: a valid value as serde keeps it (undeclared keys dropped, a
 * union's losing variant's fields gone, defaults filled in, no own `__proto__` key). It is
 * the fast walks' slow path: they hand a value over as soon as anything must change, and it
 * hands each child back to its walk.
 */
import { NONE, type Union, unionOf, type VariantChoice } from "./parse-choice.js";
import type { Reading } from "./parse-context.js";
import type { FillPlan, ShapeNode, ShapeWalk } from "./parse-records.js";
import { copyOf, type Dict, free, fresh, hasOwn, PROTO, partialCopy, put } from "./parse-values.js";

/** A key whose value holds no object: kept as is. */
const NO_OBJECT = -1;

/**
 * A shape node as the walk reads it, built once per plan: every field present, so each
 * access site sees one object layout (the plan's literals each have their own), and keys
 * in a map.
 */
class Shape {
  constructor(
    readonly keys: ReadonlyMap<string, number>,
    readonly others: number,
    readonly fills: readonly FillPlan[] | null,
    readonly unions: readonly Union[] | null,
    readonly items: number,
    readonly free: boolean,
    /** Only a union (a nullable reference, a root union): the value takes its variant's shape. */
    readonly passThrough: boolean,
  ) {}
}

function shapeOf(node: ShapeNode): Shape {
  // `__proto__` is never kept, even where a schema declares it.
  const keys = new Map((node.keys ?? []).filter(([key]) => key !== PROTO));
  const unions = node.unions?.map(unionOf) ?? null;
  const passThrough =
    unions?.length === 1 &&
    node.keys === undefined &&
    node.others === undefined &&
    node.fills === undefined &&
    node.items === undefined &&
    node.free === undefined;
  return new Shape(
    keys,
    node.others ?? NONE,
    node.fills?.filter((f) => f.name !== PROTO) ?? null,
    unions,
    node.items ?? NONE,
    node.free === true,
    passThrough,
  );
}

/** `collect`'s answer when a union's variant read the object repaired: shaping starts over on that. */
class Restart {
  constructor(readonly value: object) {}
}

export class Reshaper {
  // Each node is turned into its Shape (maps, sorted variants) the first time a value needs
  // it, not all at import: most never are, and building them all was most of what importing
  // an entry point's parsers.js did beyond compiling it (bench/experiments/cold-import.mjs).
  private readonly shapes: Array<Shape | undefined> = [];

  constructor(
    private readonly shapeTable: () => readonly ShapeNode[],
    /** The fast walk of each shape node, by index. */
    private readonly walks: readonly ShapeWalk[],
    private readonly choice: VariantChoice,
  ) {}

  private at(index: number): Shape {
    let shape = this.shapes[index];
    if (shape === undefined) {
      shape = shapeOf(this.shapeTable()[index] as ShapeNode);
      this.shapes[index] = shape;
    }
    return shape;
  }

  private walk(value: unknown, index: number, reading: Reading): unknown {
    return (this.walks[index] as ShapeWalk)(value, reading);
  }

  /** The interpreter for node `index`; its children go through their fast walks. */
  shape(value: unknown, index: number, reading: Reading): unknown {
    if (typeof value !== "object" || value === null) return value;
    const at = this.at(index);
    if (at.passThrough) {
      // Nullable references and root unions: the value takes its variant's shape.
      const chosen = this.choice.choose(
        (at.unions as readonly Union[])[0] as Union,
        value,
        reading,
      );
      // No variant (not a valid value) or an unknown one: kept whole, `__proto__` aside.
      if (chosen === null) return free(value);
      const { variant } = chosen;
      return variant.node === NONE ? chosen.value : this.walk(chosen.value, variant.node, reading);
    }
    if (at.unions === null && !at.free)
      return Array.isArray(value)
        ? this.items(value, at.items, reading)
        : this.object(value as Dict, at, reading);
    return this.facets(value, [at], reading);
  }

  /** `value` under several shapes at once: an `allOf` of them, as a union's chosen variant adds. */
  private facets(value: object, roots: readonly Shape[], reading: Reading): unknown {
    const facets: Shape[] = [];
    for (const root of roots) {
      const collected = this.collect(value, root, reading, facets);
      if (collected === false) return free(value);
      // A union among the parts read the object repaired: shape that instead (its variants
      // then fit as they are).
      if (collected !== true) return this.facets(collected.value, roots, reading);
    }
    if (facets.some((f) => f.free)) return free(value);
    if (Array.isArray(value)) {
      const items = facets.flatMap((f) => (f.items === NONE ? [] : [f.items]));
      if (items.length <= 1) return this.items(value, items[0] ?? NONE, reading);
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const next = this.all(item, items, reading);
        if (out === undefined && next !== item) out = value.slice(0, i);
        out?.push(next);
      }
      return out ?? value;
    }
    return facets.length === 1
      ? this.object(value as Dict, facets[0] as Shape, reading)
      : this.merged(value as Dict, facets, reading);
  }

  private all(value: unknown, indices: readonly number[], reading: Reading): unknown {
    if (indices.length === 1) return this.walk(value, indices[0] as number, reading);
    if (typeof value !== "object" || value === null) return value;
    return this.facets(
      value,
      indices.map((i) => this.at(i)),
      reading,
    );
  }

  /**
   * `at` and the shapes of the variants its unions choose, recursively, passing through
   * union-only shapes. False: no variant, or an unknown one (the value is kept whole); a
   * `Restart`: a variant reads the object repaired.
   */
  private collect(value: object, at: Shape, reading: Reading, into: Shape[]): boolean | Restart {
    if (!at.passThrough) into.push(at);
    for (const union of at.unions ?? []) {
      const chosen = this.choice.choose(union, value, reading);
      if (chosen === null) return false;
      // Repaired to fit the variant: the whole object is that repaired value now.
      if (chosen.value !== value) return new Restart(chosen.value as object);
      const node = chosen.variant.node;
      if (node === NONE) continue;
      const inner = this.collect(value, this.at(node), reading, into);
      if (inner !== true) return inner;
    }
    return true;
  }

  private items(items: unknown[], node: number, reading: Reading): unknown[] {
    // An array whose items may hold objects has an items shape; without one, a valid array
    // holds scalars only, or its schema says nothing about them (then they are free-form).
    if (node === NONE) return free(items) as unknown[];
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = this.walk(item, node, reading);
      if (out === undefined && next !== item) out = items.slice(0, i);
      out?.push(next);
    }
    return out ?? items;
  }

  private object(object: Dict, at: Shape, reading: Reading): Dict {
    let out: Dict | undefined;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const child = key === PROTO ? NONE : (at.keys.get(key) ?? at.others);
      if (child === NONE) {
        // Not admitted, or `__proto__`: dropped.
        if (!out) out = partialCopy(object, keys, i);
        continue;
      }
      const value = object[key];
      const next = child === NO_OBJECT ? value : this.walk(value, child, reading);
      if (out === undefined && next !== value) out = partialCopy(object, keys, i);
      if (out) out[key] = next;
    }
    return at.fills === null ? (out ?? object) : fill(out ?? object, at.fills, out !== undefined);
  }

  /** An object several shapes admit at once: a key any of them admits is kept. */
  private merged(object: Dict, facets: readonly Shape[], reading: Reading): Dict {
    let out: Dict | undefined;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const children = key === PROTO ? null : admitting(facets, key);
      if (children === null) {
        if (!out) out = partialCopy(object, keys, i);
        continue;
      }
      const value = object[key];
      const next = children.length === 0 ? value : this.all(value, children, reading);
      if (out === undefined && next !== value) out = partialCopy(object, keys, i);
      if (out) out[key] = next;
    }
    let result = out ?? object;
    for (const f of facets) if (f.fills !== null) result = fill(result, f.fills, result !== object);
    return result;
  }
}

/**
 * The shapes `facets` give the value of `key` (none: kept as is), or null when none of them
 * admits the key. A facet declaring it decides; only when none does, their `others` do.
 */
function admitting(facets: readonly Shape[], key: string): number[] | null {
  const children: number[] = [];
  let admitted = false;
  for (const f of facets) {
    const child = f.keys.get(key);
    if (child === undefined) continue;
    admitted = true;
    if (child !== NO_OBJECT) children.push(child);
  }
  if (!admitted)
    for (const f of facets)
      if (f.others !== NONE) {
        admitted = true;
        if (f.others !== NO_OBJECT) children.push(f.others);
      }
  return admitted ? children : null;
}

function fill(object: Dict, fills: readonly FillPlan[], owned: boolean): Dict {
  let out = owned ? object : undefined;
  for (const f of fills) {
    const present = hasOwn(object, f.name);
    let value: unknown;
    if (!present && hasOwn(f, "default")) value = f.default;
    else if (present && object[f.name] === null && hasOwn(f, "onNull")) value = f.onNull;
    else continue;
    if (!out) out = copyOf(object);
    put(out, f.name, fresh(value));
  }
  return out ?? object;
}
