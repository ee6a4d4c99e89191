/**
 * Lenient parsing: the interpreter for the repair plans the generator writes into each
 * entry point's `parsers.js`. A plan is data (which properties carry which
 * `x-deserialize-*` annotation, which arrays drop invalid items, which unions dispatch on
 * a tag); this module is the only code that acts on it, so every definition is parsed the
 * same way and the generated files stay small.
 *
 * The result is the value as the reference (Rust) implementation deserializes it. A valid
 * value is returned as is after one validator call (plus filling in defaults, for the few
 * definitions that have any); only an invalid one is walked and repaired. Parsing never
 * mutates its input: changed objects and arrays are copies, unchanged parts are shared.
 */
import { type CompiledValidator, issuesOf, ValidationError } from "./validation.js";

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
  /** Something below changes even a valid value (a default to fill in). */
  readonly fill?: true;
}

export interface ParsePlan {
  /** `parse<Name>`: strict validation first; the plan only when that fails. */
  parser<T>(validator: CompiledValidator, type: string, root?: number): (value: unknown) => T;
  /** `is<Name>Of(value, tag)`: the tag matches and the whole value is valid as that variant. */
  variantGuard(
    tag: string,
    variants: ReadonlyArray<readonly [string, number]>,
    other?: number,
  ): (value: unknown, tag: string) => boolean;
  /** `isCustom<Name>(value)`: a valid value of the open union's catch-all variant. */
  customGuard(tag: string, known: readonly string[], other: number): (value: unknown) => boolean;
}

const hasOwn = (object: object, key: string): boolean => Object.hasOwn(object, key);

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Set an own, enumerable property. Plain assignment of `__proto__` would replace the
 * object's prototype instead; `defineProperty` always creates data.
 */
function put(object: Dict, key: string, value: unknown): void {
  if (key === "__proto__")
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
    for (const key of Object.keys(value)) put(out, key, fresh(value[key]));
    return out;
  }
  return value;
}

export function createParsePlan(nodes: readonly PlanNode[], checks: readonly Check[]): ParsePlan {
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
  const passes = (check: number | undefined, value: unknown): boolean =>
    check === undefined || (checks[check] as Check)(value);

  /**
   * Walk `value` through node `index`. With `repair` off only defaults are filled in (the
   * value is already valid); with it on, annotations act on whatever fails its check.
   */
  function walk(value: unknown, index: number, repair: boolean): unknown {
    const node = nodes[index] as PlanNode;
    if (!repair && !node.fill) return value;
    let out = value;
    if (isDict(out)) {
      if (node.properties) out = walkProperties(out, node.properties, repair);
      if (node.values !== undefined) out = walkValues(out as Dict, node, repair);
    } else if (Array.isArray(out)) {
      out = walkItems(out, node, repair);
    }
    if (node.union) out = walkUnion(out, node.union, repair);
    if (node.allOf) for (const part of node.allOf) out = walk(out, part, repair);
    return out;
  }

  function walkProperties(
    object: Dict,
    properties: readonly PropertyPlan[],
    repair: boolean,
  ): Dict {
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
      let next = p.node === undefined ? value : walk(value, p.node, repair);
      if (repair && p.onError !== undefined && !passes(p.onError, next)) {
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

  function walkValues(object: Dict, node: PlanNode, repair: boolean): Dict {
    let copy: Dict | undefined;
    for (const key of Object.keys(object)) {
      if (node.declared?.includes(key)) continue;
      const value = object[key];
      const next = walk(value, node.values as number, repair);
      if (next === value) continue;
      if (!copy) copy = copyOf(object);
      put(copy, key, next);
    }
    return copy ?? object;
  }

  function walkItems(items: unknown[], node: PlanNode, repair: boolean): unknown[] {
    const skip = repair ? node.skipInvalid : undefined;
    if (node.items === undefined && skip === undefined) return items;
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = node.items === undefined ? item : walk(item, node.items, repair);
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

  function walkUnion(
    value: unknown,
    union: NonNullable<PlanNode["union"]>,
    repair: boolean,
  ): unknown {
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
      return only.node === undefined ? value : walk(value, only.node, repair);
    }
    if (!repair) {
      // A valid value only needs its defaults: only variants that have some are worth a
      // check, so a valid message of a union with untagged variants stays cheap.
      for (const v of candidates)
        if (v.node !== undefined && (nodes[v.node] as PlanNode).fill && passes(v.check, value))
          return walk(value, v.node, false);
      return value;
    }
    // Several candidates (untagged variants): the first whose result passes wins, as with
    // serde's untagged enums; if none does, the first one's result is the one reported.
    let first: unknown;
    let tried = false;
    for (const v of candidates) {
      const next = v.node === undefined ? value : walk(value, v.node, repair);
      if (passes(v.check, next)) return next;
      if (!tried) {
        first = next;
        tried = true;
      }
    }
    return first;
  }

  return {
    parser<T>(validator: CompiledValidator, type: string, root?: number) {
      const fills = root !== undefined && (nodes[root] as PlanNode).fill === true;
      return (value: unknown): T => {
        if (validator(value)) return (fills ? walk(value, root as number, false) : value) as T;
        if (root === undefined) throw new ValidationError(type, issuesOf(validator));
        const repaired = walk(value, root, true);
        if (repaired !== value && validator(repaired)) return repaired as T;
        // Again, for this value's issues: checks during the walk may have run this validator.
        validator(repaired);
        // What is left cannot be repaired. Kept items passed their own check, so issue paths
        // in the repaired value are the input's paths too.
        throw new ValidationError(type, issuesOf(validator));
      };
    },

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
