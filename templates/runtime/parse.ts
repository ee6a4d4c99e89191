/**
 * Reading a value as the reference (Rust) implementation deserializes it: the interpreter
 * for the plans the generator writes into each entry point's `parsers.js`. A plan is data;
 * this module is the only code that acts on it, so every definition is read the same way
 * and the generated files stay small. Two tables, two jobs:
 *
 * - the repair plan (`PlanNode`) says which properties carry which `x-deserialize-*`
 *   annotation, which arrays drop invalid items and how unions dispatch; it only ever runs
 *   on a value that failed strict validation, and turns it into one that passes;
 * - the shape plan (`ShapeNode`) says which keys each object admits and what each key's
 *   value is, how a union picks its variant, and which defaults fill a valid value; it runs
 *   on every valid value and gives the value serde keeps: undeclared properties dropped,
 *   the tag and fields of a union's losing variant gone, defaults filled in, and no own
 *   `__proto__` key anywhere.
 *
 * A valid value costs one validator call and one walk that allocates nothing unless
 * something must change. Parsing never mutates its input: changed objects and arrays are
 * copies, unchanged parts are shared.
 */
import { type CompiledValidator, issuesOf, TOO_DEEP, ValidationError } from "./validation.js";

/** A validity check: a compiled validator, or one composed from them. */
export type Check = (value: unknown) => boolean;

export interface PropertyPlan {
  readonly name: string;
  /** Plan for the property's value. */
  readonly node?: number;
  /** `x-deserialize-default-on-error`: the check the (repaired) value must pass. */
  readonly onError?: number;
  /** Replaces a value failing `onError`. */
  readonly fallback?: unknown;
  /** A value failing `onError` is removed (optional property, nothing to fall back to). */
  readonly omit?: true;
  /** `x-deserialize-default-on-null`: what an explicit `null` becomes. */
  readonly onNull?: unknown;
  /** What a missing property becomes. */
  readonly default?: unknown;
}

export interface VariantPlan {
  /** Selected when the value's tag equals this. */
  readonly tag?: string;
  /** The open union's catch-all: selected by a string tag no variant claims. */
  readonly other?: true;
  readonly node?: number;
  /** Present when several variants can be candidates for one value: the first that passes wins. */
  readonly check?: number;
}

/** A node of the repair plan: what to do to an invalid value at one subschema. */
export interface PlanNode {
  readonly properties?: readonly PropertyPlan[];
  /** Further nodes the same value goes through (`allOf` parts, references). */
  readonly allOf?: readonly number[];
  readonly union?: { readonly tag?: string; readonly variants: readonly VariantPlan[] };
  readonly items?: number;
  /** `x-deserialize-skip-invalid-items`: the check an item must pass to be kept. */
  readonly skipInvalid?: number;
  /** Plan for the values of properties not in `declared`. */
  readonly values?: number;
  readonly declared?: readonly string[];
}

/** A property filled in on a valid value (serde's `default`, `x-deserialize-default-on-null`). */
export interface FillPlan {
  readonly name: string;
  /** What a missing property becomes. */
  readonly default?: unknown;
  /** What an explicit `null` becomes (where the schema admits null). */
  readonly onNull?: unknown;
}

export interface ShapeVariant {
  /** Selected by this tag. */
  readonly tag?: string;
  /** The open union's catch-all: selected by a string tag no variant claims. */
  readonly other?: true;
  /** The variant's shape; absent when it holds no object (a scalar, `null`): kept as is. */
  readonly node?: number;
  /**
   * Untagged variants only: the one kind of container the variant can be (`scalar`: neither,
   * a `null` branch), so only variants that can be the value compete for it. Absent: both.
   */
  readonly kinds?: "object" | "array" | "scalar";
  /** The variant's check, where it competes with others for one value (serde tries in order). */
  readonly check?: number;
  /** Its check under the open reading, where that differs (the variant can hold a closed union). */
  readonly open?: number;
  /**
   * The repair plan's node of a competing variant: serde tries each candidate with its own
   * deserialization rules, so a value the variant accepts once repaired is that variant.
   */
  readonly repair?: number;
}

export interface ShapeUnion {
  /** The tag property of a tagged union. */
  readonly tag?: string;
  /** Tagged variants and the catch-all, then the untagged ones in schema order. */
  readonly variants: readonly ShapeVariant[];
  /**
   * A closed tagged union: with the open reading (`unknownVariants: "keep"`), a string tag
   * that no variant claims and no untagged variant accepts is kept as an unknown variant.
   */
  readonly closed?: true;
}

/** A node of the shape plan: what serde keeps of a valid value at one subschema. */
export interface ShapeNode {
  /** Arbitrary JSON (`{}`, `serde_json::Value`): kept whole, only `__proto__` keys removed. */
  readonly free?: true;
  /**
   * Object: the keys it admits, each with the shape of its value (`-1`: a value that holds
   * no object, kept as is). Declarations from every `allOf` part and reference are merged in.
   */
  readonly keys?: ReadonlyArray<readonly [string, number]>;
  /** Object: other keys are kept, their values of this shape. Absent: dropped, as serde ignores unknown fields. */
  readonly others?: number;
  readonly fills?: readonly FillPlan[];
  /** Unions among the object's parts: the chosen variant of each adds its own keys, fills, unions. */
  readonly unions?: readonly ShapeUnion[];
  /** Array: the shape of each item. */
  readonly items?: number;
}

/** How `parse<Name>` reads tagged unions whose tag this package does not know. */
export interface ParseOptions {
  /**
   * `"reject"` (default): as the reference does, such a value fails to parse. `"keep"`:
   * in a closed tagged union, a value whose tag no variant claims (a newer peer's variant)
   * is kept whole as an unknown variant, and the rest of the value is read as usual.
   */
  readonly unknownVariants?: "reject" | "keep";
  /** With `"keep"`: told of each unknown variant kept, by its tag (`sessionUpdate: "plan_v2"`). */
  readonly onUnknownVariant?: (variant: UnknownVariant) => void;
}

/** A variant the open reading kept although this package does not know its tag. */
export interface UnknownVariant {
  /** The union's tag property (`sessionUpdate`). */
  readonly tag: string;
  /** The tag's value: the variant's kind (`plan_v2`). */
  readonly kind: string;
}

/**
 * A generated fast walk of one shape node (`parsers.js`): returns the value itself when serde
 * keeps it whole, and hands it to `ParsePlan.reshape` as soon as anything must change.
 */
export type ShapeWalk = (value: unknown, open: boolean) => unknown;

export interface ParsePlan {
  /** The shape walk of node `index` that changes what must change: the fast walks' slow path. */
  reshape(value: unknown, index: number, open: boolean): unknown;
  /** Arbitrary JSON without any own `__proto__` key: the fast walk of free-form nodes. */
  free(value: unknown): unknown;
  /**
   * For the fast walks: `value` repaired by repair node `repair`, when it then passes check
   * `check` (a competing variant that deserializes once repaired); else undefined.
   */
  repairedAs(value: unknown, repair: number, check: number): unknown;
  /**
   * `parse<Name>` once strict validation failed (parsers.js does the valid case itself:
   * the validator, then the shape walk): the repair plan, then strict validation again, or
   * with the open reading the check `open` that admits unknown variants; then the shape
   * walk. Throws a `ValidationError` listing what could not be repaired.
   */
  read(
    value: unknown,
    options: ParseOptions | undefined,
    validator: CompiledValidator,
    type: string,
    shape?: number,
    repair?: number,
    open?: number,
  ): unknown;
  /**
   * What `parse<Name>` of a definition that can nest itself throws for `error`: a stack
   * overflow on a hostile, deeply nested value is a `ValidationError`, not a crash.
   */
  deep(error: unknown, type: string): unknown;
  /** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
  variantGuard(
    tag: string,
    variants: ReadonlyArray<readonly [string, number]>,
    other?: number,
  ): (value: unknown, tag: string) => boolean;
  /** `isCustom<Name>(value)`: a valid value of the open union's catch-all variant. */
  customGuard(tag: string, known: readonly string[], other: number): (value: unknown) => boolean;
  /** `isUntagged<Name>(value)`: a valid value without the tag, so of an untagged variant. */
  untaggedGuard(tag: string, whole: CompiledValidator): (value: unknown) => boolean;
}

const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

type Dict = Record<string, unknown>;

/** The one key that must never be an own property of a result (assigning it swaps a prototype). */
const PROTO = "__proto__";

function isDict(value: unknown): value is Dict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Set an own, enumerable property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; `defineProperty` always creates data.
 */
function put(object: Dict, key: string, value: unknown): void {
  if (key === PROTO)
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else object[key] = value;
}

function copyOf(object: Dict): Dict {
  const out: Dict = {};
  for (const key of Object.keys(object)) put(out, key, object[key]);
  return out;
}

/** Defaults come from the plan, shared by every call: each result gets its own copy. */
function fresh(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fresh);
  if (isDict(value)) {
    const out: Dict = {};
    for (const key of Object.keys(value)) if (key !== PROTO) out[key] = fresh(value[key]);
    return out;
  }
  return value;
}

/**
 * Arbitrary JSON without any own `__proto__` key, at any depth: the value itself when it
 * has none (the usual case, found without allocating for scalars), else a copy. Both
 * passes use an explicit stack: a free-form value may be nested deeper than the call
 * stack (JSON.parse accepts it, and it is valid).
 */
function free(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !holdsProto(value)) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: Array<[source: object, target: Dict | unknown[]]> = [[value, root as Dict]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [source, target] = pair;
    const take = (item: unknown): unknown => {
      if (typeof item !== "object" || item === null) return item;
      const copy = Array.isArray(item) ? [] : {};
      stack.push([item, copy]);
      return copy;
    };
    if (Array.isArray(source)) for (const item of source) (target as unknown[]).push(take(item));
    else
      for (const key of Object.keys(source))
        if (key !== PROTO) (target as Dict)[key] = take((source as Dict)[key]);
  }
  return root;
}

function holdsProto(value: object): boolean {
  const stack: object[] = [value];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    if (hasOwn(next, PROTO)) return true;
    for (const key of Object.keys(next)) {
      const item = (next as Dict)[key];
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return false;
}

/** In the walk's records: no such shape (no `others`: other keys dropped; no `items`; no check). */
const NONE = -2;
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
    readonly unions: readonly Picker[] | null,
    readonly items: number,
    readonly free: boolean,
    /** Only a union (a nullable reference, a root union): the value takes its variant's shape. */
    readonly passThrough: boolean,
  ) {}
}

class Variant {
  constructor(
    readonly node: number,
    readonly check: number,
    readonly open: number,
    readonly repair: number,
  ) {}
}

/** A union with its variants sorted for picking. */
class Picker {
  constructor(
    readonly tag: string | null,
    readonly closed: boolean,
    readonly byTag: ReadonlyMap<string, Variant>,
    readonly other: Variant | null,
    /** Untagged variants that can be an object / an array, in schema order. */
    readonly objects: readonly Variant[],
    readonly arrays: readonly Variant[],
  ) {}
}

/** Thrown out of `collect` when a union's variant read the object repaired. */
class Repaired {
  constructor(readonly value: unknown) {}
}

/** `pick`'s answer for a closed union's unknown variant: kept whole. */
const UNKNOWN = new Variant(NONE, NONE, NONE, NONE);

function variantOf(v: ShapeVariant): Variant {
  return new Variant(v.node ?? NONE, v.check ?? NONE, v.open ?? v.check ?? NONE, v.repair ?? NONE);
}

function pickerOf(union: ShapeUnion): Picker {
  const byTag = new Map<string, Variant>();
  const objects: Variant[] = [];
  const arrays: Variant[] = [];
  let other: Variant | null = null;
  for (const v of union.variants) {
    const variant = variantOf(v);
    if (v.tag !== undefined) byTag.set(v.tag, variant);
    else if (v.other) other = variant;
    else {
      if (v.kinds === undefined || v.kinds === "object") objects.push(variant);
      if (v.kinds === undefined || v.kinds === "array") arrays.push(variant);
    }
  }
  return new Picker(union.tag ?? null, union.closed === true, byTag, other, objects, arrays);
}

function shapeOf(node: ShapeNode): Shape {
  // `__proto__` is never kept, even where a schema declares it.
  const keys = new Map((node.keys ?? []).filter(([key]) => key !== PROTO));
  const unions = node.unions?.map(pickerOf) ?? null;
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

/**
 * Told of the unknown variants the open reading keeps, while one runs. One for every plan: a
 * surface's plan hands the records it shares with the surface beside it to the shared
 * module's walks (model/plan-link.ts), whose own plan then meets the unknown variants.
 */
let reportUnknown: ParseOptions["onUnknownVariant"];

/**
 * The record tables come as functions that build them on first call and keep them
 * (parsers.js writes `() => (records ??= [...])`): importing parsers.js then only pre-parses
 * the records, most imports never repair or reshape a value, and a surface's plan and the
 * shared one read the same records. The plan calls them only when a value needs them.
 */
export function createParsePlan(
  nodeTable: () => readonly PlanNode[],
  shapeTable: () => readonly ShapeNode[],
  checks: readonly Check[],
  /** The fast walk of each shape node, by index. */
  walks: readonly ShapeWalk[],
): ParsePlan {
  const passes = (check: number | undefined, value: unknown): boolean =>
    check === undefined || (checks[check] as Check)(value);

  /* ---- repair: an invalid value made valid where the annotations allow ---- */

  const variantMaps = new Map<PlanNode["union"], Map<string, VariantPlan>>();
  const tagged = (union: NonNullable<PlanNode["union"]>): Map<string, VariantPlan> => {
    let map = variantMaps.get(union);
    if (!map) {
      map = new Map();
      for (const v of union.variants) if (v.tag !== undefined) map.set(v.tag, v);
      variantMaps.set(union, map);
    }
    return map;
  };

  /** Walk an invalid `value` through repair node `index`: annotations act on what fails its check. */
  function repair(value: unknown, index: number): unknown {
    const node = nodeTable()[index] as PlanNode;
    let out = value;
    if (isDict(out)) {
      if (node.properties) out = repairProperties(out, node.properties);
      if (node.values !== undefined) out = repairValues(out as Dict, node);
    } else if (Array.isArray(out)) {
      out = repairItems(out, node);
    }
    if (node.union) out = repairUnion(out, node.union);
    if (node.allOf) for (const part of node.allOf) out = repair(out, part);
    return out;
  }

  function repairProperties(object: Dict, properties: readonly PropertyPlan[]): Dict {
    let copy: Dict | undefined;
    const target = (): Dict => {
      if (!copy) copy = copyOf(object);
      return copy;
    };
    for (const p of properties) {
      if (!hasOwn(object, p.name)) {
        if (hasOwn(p, "default")) put(target(), p.name, fresh(p.default));
        continue;
      }
      const value = object[p.name];
      if (value === null && hasOwn(p, "onNull")) {
        put(target(), p.name, fresh(p.onNull));
        continue;
      }
      let next = p.node === undefined ? value : repair(value, p.node);
      if (p.onError !== undefined && !passes(p.onError, next)) {
        if (hasOwn(p, "fallback")) next = fresh(p.fallback);
        else if (p.omit) {
          delete target()[p.name];
          continue;
        }
        // Neither: the property stays invalid and validation of the whole reports it.
      }
      if (next !== value) put(target(), p.name, next);
    }
    return copy ?? object;
  }

  function repairValues(object: Dict, node: PlanNode): Dict {
    let copy: Dict | undefined;
    for (const key of Object.keys(object)) {
      if (node.declared?.includes(key)) continue;
      const value = object[key];
      const next = repair(value, node.values as number);
      if (next === value) continue;
      if (!copy) copy = copyOf(object);
      put(copy, key, next);
    }
    return copy ?? object;
  }

  function repairItems(items: unknown[], node: PlanNode): unknown[] {
    const skip = node.skipInvalid;
    if (node.items === undefined && skip === undefined) return items;
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = node.items === undefined ? item : repair(item, node.items);
      if (skip !== undefined && !passes(skip, next)) {
        // serde_with's VecSkipError: an item that does not deserialize is dropped.
        if (!out) out = items.slice(0, i);
        continue;
      }
      if (out === undefined && next !== item) out = items.slice(0, i);
      out?.push(next);
    }
    return out ?? items;
  }

  function repairUnion(value: unknown, union: NonNullable<PlanNode["union"]>): unknown {
    const tag =
      union.tag !== undefined && isDict(value) && hasOwn(value, union.tag)
        ? value[union.tag]
        : undefined;
    const candidates: VariantPlan[] = [];
    if (typeof tag === "string") {
      // A known tag selects its own variant only: a broken known variant must fail, never
      // pass as the catch-all (whose schema excludes the known tags anyway).
      const own = tagged(union).get(tag) ?? union.variants.find((v) => v.other);
      if (own) candidates.push(own);
    }
    for (const v of union.variants) if (v.tag === undefined && !v.other) candidates.push(v);
    if (candidates.length === 0) return value;
    if (candidates.length === 1) {
      const only = candidates[0] as VariantPlan;
      return only.node === undefined ? value : repair(value, only.node);
    }
    // Several candidates (untagged variants): the first whose result passes wins, as with
    // serde's untagged enums; if none does, the first one's result is the one reported.
    let first: unknown;
    let tried = false;
    for (const v of candidates) {
      const next = v.node === undefined ? value : repair(value, v.node);
      if (passes(v.check, next)) return next;
      if (!tried) {
        first = next;
        tried = true;
      }
    }
    return first;
  }

  /* ---- shape: a valid value as serde keeps it ---- */

  // Each node is turned into its Shape (maps, sorted variants) the first time a value needs
  // it, not all at import: most never are, and building them all was most of what importing
  // an entry point's parsers.js did beyond compiling it (bench/experiments/cold-import.mjs).
  const shapes: Array<Shape | undefined> = [];
  const shapeAt = (index: number): Shape =>
    (shapes[index] ??= shapeOf(shapeTable()[index] as ShapeNode));

  /** What the variant `pick` chose reads: the value itself, or the value repaired for it. */
  let picked: unknown;

  /** Whether `v` deserializes `value`: as it is, or once repaired by the variant's own rules. */
  const fits = (v: Variant, value: unknown, open: boolean): boolean => {
    const check = open ? v.open : v.check;
    picked = value;
    if (check === NONE || (checks[check] as Check)(value)) return true;
    if (v.repair === NONE) return false;
    const fixed = repair(value, v.repair);
    if (fixed === value || !(checks[check] as Check)(fixed)) return false;
    picked = fixed;
    return true;
  };

  /** For the fast walks: `value` repaired as the variant (`repairIndex`, `check`) reads it, if it then passes. */
  const repairedAs = (value: unknown, repairIndex: number, check: number): unknown => {
    const fixed = repair(value, repairIndex);
    return fixed !== value && (checks[check] as Check)(fixed) ? fixed : undefined;
  };

  /**
   * The variant serde reads `value` as: the tag's own variant when it deserializes, else
   * the untagged variants in schema order (the tag is then ignored). The value is valid, so
   * the last candidate needs no check, unless an unknown variant may be kept (`open`).
   */
  function pick(union: Picker, value: object, open: boolean): Variant | null {
    picked = value;
    const array = Array.isArray(value);
    const untagged = array ? union.arrays : union.objects;
    let own: Variant | null = null;
    let unknownTag = false;
    if (union.tag !== null && !array && hasOwn(value, union.tag)) {
      const tag = (value as Dict)[union.tag];
      if (typeof tag === "string") {
        own = union.byTag.get(tag) ?? union.other;
        unknownTag = own === null;
      }
    }
    const keepUnknown = open && unknownTag && union.closed;
    const unknown = (): Variant => {
      reportUnknown?.({
        tag: union.tag as string,
        kind: (value as Dict)[union.tag as string] as string,
      });
      return UNKNOWN;
    };
    if (own !== null && (untagged.length === 0 || fits(own, value, open))) return own;
    if (untagged.length === 0) return keepUnknown ? unknown() : null;
    const last = untagged.length - 1;
    for (let i = 0; i < last; i++) {
      const v = untagged[i] as Variant;
      if (fits(v, value, open)) return v;
    }
    const final = untagged[last] as Variant;
    if (keepUnknown && !fits(final, value, open)) return unknown();
    picked = value;
    return final;
  }

  const deep = (error: unknown, type: string): unknown =>
    error instanceof RangeError ? new ValidationError(type, [TOO_DEEP]) : error;

  const walk = (value: unknown, index: number, open: boolean): unknown =>
    (walks[index] as ShapeWalk)(value, open);

  /** The interpreter for node `index`; its children go through their fast walks. */
  function shape(value: unknown, index: number, open: boolean): unknown {
    if (typeof value !== "object" || value === null) return value;
    const at = shapeAt(index);
    if (at.passThrough) {
      // Nullable references and root unions: the value takes its variant's shape.
      const variant = pick((at.unions as readonly Picker[])[0] as Picker, value, open);
      // No variant (not a valid value) or an unknown one: kept whole, `__proto__` aside.
      if (variant === null || variant === UNKNOWN) return free(value);
      const chosen = picked;
      return variant.node === NONE ? chosen : walk(chosen, variant.node, open);
    }
    if (at.unions === null && !at.free)
      return Array.isArray(value)
        ? shapeItems(value, at.items, open)
        : shapeObject(value as Dict, at, open);
    return shapeFacets(value, [at], open);
  }

  /** `value` under several shapes at once: an `allOf` of them, as a union's chosen variant adds. */
  function shapeFacets(value: object, roots: readonly Shape[], open: boolean): unknown {
    const facets: Shape[] = [];
    try {
      for (const root of roots) if (!collect(value, root, open, facets)) return free(value);
    } catch (error) {
      // A union among the parts read the object repaired: shape that instead (its variants
      // then fit as they are).
      if (error instanceof Repaired) return shapeFacets(error.value as object, roots, open);
      throw error;
    }
    if (facets.some((f) => f.free)) return free(value);
    if (Array.isArray(value)) {
      const items = facets.flatMap((f) => (f.items === NONE ? [] : [f.items]));
      if (items.length <= 1) return shapeItems(value, items[0] ?? NONE, open);
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const next = shapeAll(item, items, open);
        if (out === undefined && next !== item) out = value.slice(0, i);
        out?.push(next);
      }
      return out ?? value;
    }
    return facets.length === 1
      ? shapeObject(value as Dict, facets[0] as Shape, open)
      : shapeMerged(value as Dict, facets, open);
  }

  function shapeAll(value: unknown, indices: readonly number[], open: boolean): unknown {
    if (indices.length === 1) return walk(value, indices[0] as number, open);
    if (typeof value !== "object" || value === null) return value;
    return shapeFacets(value, indices.map(shapeAt), open);
  }

  /**
   * `at` and the shapes of the variants its unions choose, recursively, passing through
   * union-only shapes; false: no variant, or an unknown one (the value is kept whole).
   */
  function collect(value: object, at: Shape, open: boolean, into: Shape[]): boolean {
    if (!at.passThrough) into.push(at);
    for (const union of at.unions ?? []) {
      const variant = pick(union, value, open);
      if (variant === null || variant === UNKNOWN) return false;
      // Repaired to fit the variant: the whole object is that repaired value now.
      if (picked !== value) throw new Repaired(picked);
      if (variant.node !== NONE && !collect(value, shapeAt(variant.node), open, into)) return false;
    }
    return true;
  }

  function shapeItems(items: unknown[], node: number, open: boolean): unknown[] {
    // An array whose items may hold objects has an items shape; without one, a valid array
    // holds scalars only, or its schema says nothing about them (then they are free-form).
    if (node === NONE) return free(items) as unknown[];
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = walk(item, node, open);
      if (out === undefined && next !== item) out = items.slice(0, i);
      out?.push(next);
    }
    return out ?? items;
  }

  function shapeObject(object: Dict, at: Shape, open: boolean): Dict {
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
      const next = child === NO_OBJECT ? value : walk(value, child, open);
      if (out === undefined && next !== value) out = partialCopy(object, keys, i);
      if (out) out[key] = next;
    }
    return at.fills === null ? (out ?? object) : fill(out ?? object, at.fills, out !== undefined);
  }

  /** An object several shapes admit at once: a key any of them admits is kept. */
  function shapeMerged(object: Dict, facets: readonly Shape[], open: boolean): Dict {
    let out: Dict | undefined;
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const children: number[] = [];
      let admitted = false;
      if (key !== PROTO) {
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
      }
      if (!admitted) {
        if (!out) out = partialCopy(object, keys, i);
        continue;
      }
      const value = object[key];
      const next = children.length === 0 ? value : shapeAll(value, children, open);
      if (out === undefined && next !== value) out = partialCopy(object, keys, i);
      if (out) out[key] = next;
    }
    let result = out ?? object;
    for (const f of facets) if (f.fills !== null) result = fill(result, f.fills, result !== object);
    return result;
  }

  /** A copy of `object` holding its first `count` keys (none of them `__proto__`). */
  function partialCopy(object: Dict, keys: readonly string[], count: number): Dict {
    const out: Dict = {};
    for (let i = 0; i < count; i++) {
      const key = keys[i] as string;
      if (key !== PROTO) out[key] = object[key];
    }
    return out;
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

  return {
    reshape: shape,
    free,
    repairedAs,

    read(value, options, validator, type, shapeRoot, repairRoot, open) {
      try {
        const keep = options?.unknownVariants === "keep";
        const root = shapeRoot === undefined ? undefined : (walks[shapeRoot] as ShapeWalk);
        // Valid after all (a caller without the fast path): only the shape walk.
        if (validator(value)) return root === undefined ? value : root(value, false);
        const fixed = repairRoot === undefined ? value : repair(value, repairRoot);
        if (fixed !== value && validator(fixed))
          return root === undefined ? fixed : root(fixed, false);
        if (keep && open !== undefined && (checks[open] as Check)(fixed)) {
          if (root === undefined) return fixed;
          // Restored, not cleared: a reader the callback starts ends inside this one.
          const outer = reportUnknown;
          reportUnknown = options?.onUnknownVariant;
          try {
            return root(fixed, true);
          } finally {
            reportUnknown = outer;
          }
        }
        // Again, for this value's issues: checks during the walk may have run this validator.
        validator(fixed);
        // What is left cannot be repaired. Kept items passed their own check, so issue paths
        // in the repaired value are the input's paths too.
        throw new ValidationError(type, issuesOf(validator));
      } catch (error) {
        throw deep(error, type);
      }
    },

    deep,

    variantGuard(tag, variants, other) {
      const byTag = new Map<string, number>(variants);
      return (value, wanted) => {
        if (!isDict(value) || !hasOwn(value, tag) || value[tag] !== wanted) return false;
        const check = byTag.get(wanted) ?? other;
        return check !== undefined && (checks[check] as Check)(value);
      };
    },

    customGuard(tag, known, other) {
      return (value) => {
        if (!isDict(value) || !hasOwn(value, tag)) return false;
        const actual = value[tag];
        return (
          typeof actual === "string" && !known.includes(actual) && (checks[other] as Check)(value)
        );
      };
    },

    untaggedGuard(tag, whole) {
      // Without the tag no tagged variant (nor the catch-all) can match: a valid value is one
      // of the untagged variants. A value that carries a tag serde would ignore is not: its
      // type would claim the tag absent.
      return (value) => isDict(value) && !hasOwn(value, tag) && whole(value);
    },
  };
}

/* Combinators that compose checks for subschemas out of the definitions' validators. */

export function all(...checks: Check[]): Check {
  return (value) => checks.every((c) => c(value));
}

export function any(...checks: Check[]): Check {
  return (value) => checks.some((c) => c(value));
}

/** JSON Schema `oneOf`: exactly one passes. */
export function one(...checks: Check[]): Check {
  return (value) => {
    let passed = 0;
    for (const c of checks) if (c(value) && ++passed > 1) return false;
    return passed === 1;
  };
}

export function not(check: Check): Check {
  return (value) => !check(value);
}

/**
 * An object whose own `property` is the string `expected`: what `{type: "object",
 * properties: {[property]: {type: "string", const: expected}}, required: [property]}` accepts.
 */
export function tag(property: string, expected: string): Check {
  return (value) => isDict(value) && hasOwn(value, property) && value[property] === expected;
}

/**
 * An object whose own `property` is a string none of `known`: what `{type: "object",
 * properties: {[property]: {type: "string", not: {enum: known}}}, required: [property]}` accepts.
 */
export function otherTag(property: string, known: readonly string[]): Check {
  return (value) => {
    if (!isDict(value) || !hasOwn(value, property)) return false;
    const actual = value[property];
    return typeof actual === "string" && !known.includes(actual);
  };
}

/** Every item of an array; anything else passes (`items` constrains arrays only). */
export function items(check: Check): Check {
  return (value) => !Array.isArray(value) || value.every((item) => check(item));
}

/** Every present property among `checks`; anything but an object passes. */
export function props(checks: ReadonlyArray<readonly [string, Check]>): Check {
  return (value) =>
    !isDict(value) || checks.every(([name, c]) => !hasOwn(value, name) || c(value[name]));
}

/** Every property not in `declared` (`additionalProperties`); anything but an object passes. */
export function values(check: Check, declared: readonly string[]): Check {
  return (value) =>
    !isDict(value) || Object.keys(value).every((k) => declared.includes(k) || check(value[k]));
}
