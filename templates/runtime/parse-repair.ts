/**
 * The repair plan's interpreter: an invalid value made valid where the `x-deserialize-*`
 * annotations allow (defaults, fallbacks, dropped items, a union's variant repaired by its
 * own rules). It runs only on a value that failed strict validation.
 */
import type { Check, PlanNode, PropertyPlan, VariantPlan } from "./parse-records.js";
import { copyOf, type Dict, fresh, hasOwn, isDict, put } from "./parse-values.js";

type PlanUnion = NonNullable<PlanNode["union"]>;

export class Repairs {
  /** Each union's tagged variants by tag, built the first time a value needs them. */
  private readonly variantMaps = new Map<PlanUnion, Map<string, VariantPlan>>();

  constructor(
    private readonly nodeTable: () => readonly PlanNode[],
    private readonly checks: readonly Check[],
  ) {}

  private passes(check: number | undefined, value: unknown): boolean {
    return check === undefined || (this.checks[check] as Check)(value);
  }

  /** Walk an invalid `value` through repair node `index`: annotations act on what fails its check. */
  repair(value: unknown, index: number): unknown {
    const node = this.nodeTable()[index] as PlanNode;
    let out = value;
    if (isDict(out)) {
      if (node.properties) out = this.properties(out, node.properties);
      if (node.values !== undefined) out = this.values(out as Dict, node);
    } else if (Array.isArray(out)) {
      out = this.items(out, node);
    }
    if (node.union) out = this.union(out, node.union);
    if (node.allOf) for (const part of node.allOf) out = this.repair(out, part);
    return out;
  }

  /** `value` repaired by node `index`, when it then passes check `check`; else undefined. */
  repairedAs(value: unknown, index: number, check: number): unknown {
    const fixed = this.repair(value, index);
    return fixed !== value && (this.checks[check] as Check)(fixed) ? fixed : undefined;
  }

  private properties(object: Dict, properties: readonly PropertyPlan[]): Dict {
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
      let next = p.node === undefined ? value : this.repair(value, p.node);
      if (p.onError !== undefined && !this.passes(p.onError, next)) {
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

  private values(object: Dict, node: PlanNode): Dict {
    let copy: Dict | undefined;
    for (const key of Object.keys(object)) {
      if (node.declared?.includes(key)) continue;
      const value = object[key];
      const next = this.repair(value, node.values as number);
      if (next === value) continue;
      if (!copy) copy = copyOf(object);
      put(copy, key, next);
    }
    return copy ?? object;
  }

  private items(items: unknown[], node: PlanNode): unknown[] {
    const skip = node.skipInvalid;
    if (node.items === undefined && skip === undefined) return items;
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const next = node.items === undefined ? item : this.repair(item, node.items);
      if (skip !== undefined && !this.passes(skip, next)) {
        // serde_with's VecSkipError: an item that does not deserialize is dropped.
        if (!out) out = items.slice(0, i);
        continue;
      }
      if (out === undefined && next !== item) out = items.slice(0, i);
      out?.push(next);
    }
    return out ?? items;
  }

  private tagged(union: PlanUnion): Map<string, VariantPlan> {
    let map = this.variantMaps.get(union);
    if (!map) {
      map = new Map();
      for (const v of union.variants) if (v.tag !== undefined) map.set(v.tag, v);
      this.variantMaps.set(union, map);
    }
    return map;
  }

  private union(value: unknown, union: PlanUnion): unknown {
    const tag =
      union.tag !== undefined && isDict(value) && hasOwn(value, union.tag)
        ? value[union.tag]
        : undefined;
    const candidates: VariantPlan[] = [];
    if (typeof tag === "string") {
      // A known tag selects its own variant only: a broken known variant must fail, never
      // pass as the catch-all (whose schema excludes the known tags anyway).
      const own = this.tagged(union).get(tag) ?? union.variants.find((v) => v.other);
      if (own) candidates.push(own);
    }
    for (const v of union.variants) if (v.tag === undefined && !v.other) candidates.push(v);
    if (candidates.length === 0) return value;
    if (candidates.length === 1) {
      const only = candidates[0] as VariantPlan;
      return only.node === undefined ? value : this.repair(value, only.node);
    }
    // Several candidates (untagged variants): the first whose result passes wins, as with
    // serde's untagged enums; if none does, the first one's result is the one reported.
    let first: unknown;
    let tried = false;
    for (const v of candidates) {
      const next = v.node === undefined ? value : this.repair(value, v.node);
      if (this.passes(v.check, next)) return next;
      if (!tried) {
        first = next;
        tried = true;
      }
    }
    return first;
  }
}
